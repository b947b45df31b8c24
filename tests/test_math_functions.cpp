// Element-wise mathematics on fields (dsl/expr/math_functors.hpp) against the
// standard library site by site, on the build's SIMD width (xsimd's
// vectorised functions), the per-lane path (the simt backend's and CUDA's
// code: the standard library itself), the scalar layout and, on the cpu
// backend of a wider build, 16-byte vectors too; real fields in
// double and single precision, a real vector field entry by entry, complex
// fields for exp, log and abs; the flop counts; and fill() from a function of
// the global coordinate.

#include <complex>
#include <numbers>

#include "lattice/fields/coordinate_field.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

template <class W, class Real>
struct MathFields {
  Lattice<Real, W> x, positive, y;
  Lattice<Vec<Real, 3>, W> v;
  Lattice<Complex<Real>, W> z;
  explicit MathFields(const Geometry& g) : x(g), positive(g), y(g), v(g), z(g) {
    ParallelRng rng(77);
    rng.uniform(x, -3.0, 3.0);
    rng.uniform(positive, 0.01, 5.0);
    rng.uniform(y, -2.0, 2.0);
    rng.uniform(v, -1.5, 1.5);
    rng.gaussian(z);
  }
};

// On the cpu backend the narrower SSE width (16 bytes, xsimd's SSE
// functions) runs too where the build's is wider, so that every width this
// CPU has is checked by one binary (an AVX-512 build checks 64 and 16, an
// AVX2 build 32 and 16; scalar builds have one lane only).
#if !defined(LATTE_BACKEND_SIMT) && !defined(LATTE_BACKEND_CUDA) && LATTE_SIMD_BYTES > 16
inline constexpr bool checks_narrower_width = true;
#else
inline constexpr bool checks_narrower_width = false;
#endif
using NarrowerWidth = std::conditional_t<checks_narrower_width, SimdWidth<16>, VectorWidth>;

template <class Real>
class MathFunctions : public ::testing::Test {
 protected:
  // xsimd's functions are within a few units in the last place of the
  // standard library's; the per-lane path is the standard library.
  static constexpr double tolerance = std::is_same_v<Real, double> ? 4e-15 : 4e-6;
  Geometry geometry{{4, 4, 4, 8}};
  MathFields<VectorWidth, Real> vector{geometry};
  MathFields<ScalarWidth, Real> scalar{geometry};
  MathFields<NarrowerWidth, Real> narrower{geometry};

  template <class Statement, class Reference>
  void check(Statement statement, Reference reference, const char* what) {
    using T = typename decltype(statement(vector))::value_type;
    Lattice<T, VectorWidth> on_vectors(geometry), on_lanes(geometry);
    Lattice<T, ScalarWidth> on_scalar_layout(geometry);
    assign<backend::Default>(on_vectors, statement(vector), AssignSet{});
    assign<backend::Simt>(on_lanes, statement(vector), AssignSet{});
    assign<backend::Default>(on_scalar_layout, statement(scalar), AssignSet{});
    const auto expected = [&](const Coordinate& c) { return reference(vector, c); };
    EXPECT_TRUE(field_matches(on_vectors, expected, tolerance)) << what << ", default backend";
    EXPECT_TRUE(field_matches(on_lanes, expected, tolerance)) << what << ", per-lane path";
    EXPECT_TRUE(field_matches(on_scalar_layout, expected, tolerance)) << what << ", scalar layout";
    if constexpr (checks_narrower_width) {
      Lattice<T, NarrowerWidth> on_narrower(geometry);
      assign<backend::Default>(on_narrower, statement(narrower), AssignSet{});
      EXPECT_TRUE(field_matches(on_narrower, expected, tolerance)) << what << ", 16-byte vectors";
    }
  }
};
using Precisions = ::testing::Types<double, float>;
TYPED_TEST_SUITE(MathFunctions, Precisions);

TYPED_TEST(MathFunctions, RealFunctionsFollowTheStandardLibrary) {
  using Real = TypeParam;
  const auto unary = [&](auto statement, auto function, const char* what, bool on_positive) {
    this->check([&](auto& f) { return statement(on_positive ? f.positive : f.x); },
                [&](auto& f, const Coordinate& c) { return static_cast<Real>(function(peek(on_positive ? f.positive : f.x, c))); },
                what);
  };
  unary([](auto& a) { return exp(a); }, [](Real a) { return std::exp(a); }, "exp", false);
  unary([](auto& a) { return log(a); }, [](Real a) { return std::log(a); }, "log", true);
  unary([](auto& a) { return sqrt(a); }, [](Real a) { return std::sqrt(a); }, "sqrt", true);
  unary([](auto& a) { return sin(a); }, [](Real a) { return std::sin(a); }, "sin", false);
  unary([](auto& a) { return cos(a); }, [](Real a) { return std::cos(a); }, "cos", false);
  unary([](auto& a) { return tan(a); }, [](Real a) { return std::tan(a); }, "tan", false);
  unary([](auto& a) { return tanh(a); }, [](Real a) { return std::tanh(a); }, "tanh", false);
  unary([](auto& a) { return floor(a); }, [](Real a) { return std::floor(a); }, "floor", false);
  unary([](auto& a) { return abs(a); }, [](Real a) { return std::abs(a); }, "abs", false);
}

TYPED_TEST(MathFunctions, BinaryFunctionsTakeFieldsAndConstants) {
  using Real = TypeParam;
  this->check([](auto& f) { return pow(f.positive, f.y); },
              [](auto& f, const Coordinate& c) { return std::pow(peek(f.positive, c), peek(f.y, c)); }, "pow");
  this->check([](auto& f) { return pow(f.x, Real(2)); },
              [](auto& f, const Coordinate& c) { return std::pow(peek(f.x, c), Real(2)); }, "pow(x, 2)");
  this->check([](auto& f) { return atan2(f.y, f.x); },
              [](auto& f, const Coordinate& c) { return std::atan2(peek(f.y, c), peek(f.x, c)); }, "atan2");
  this->check([](auto& f) { return min(f.x, f.y); },
              [](auto& f, const Coordinate& c) { return std::min(peek(f.x, c), peek(f.y, c)); }, "min");
  this->check([](auto& f) { return max(f.x, Real(0.5)); },
              [](auto& f, const Coordinate& c) { return std::max(peek(f.x, c), Real(0.5)); }, "max(x, 0.5)");
  this->check([](auto& f) { return clamp(f.x, Real(-1), Real(1)); },
              [](auto& f, const Coordinate& c) { return std::clamp(peek(f.x, c), Real(-1), Real(1)); }, "clamp");
  // Functions compose with the rest of the algebra and with shifts in one statement.
  this->check([](auto& f) { return exp(-shift(f.x, 0, +1)) * sin(f.y) + Real(2) * f.positive; },
              [](auto& f, const Coordinate& c) {
                const Coordinate n{(c[0] + 1) % 4, c[1], c[2], c[3]};
                return std::exp(-peek(f.x, n)) * std::sin(peek(f.y, c)) + Real(2) * peek(f.positive, c);
              },
              "exp(-shift(x)) * sin(y) + 2 positive");
}

TYPED_TEST(MathFunctions, RealTensorsEntryByEntryComplexNumbersAsComplexFunctions) {
  using Real = TypeParam;
  this->check([](auto& f) { return exp(f.v); },
              [](auto& f, const Coordinate& c) {
                Vec<Real, 3> out = peek(f.v, c);
                for (auto& e : out.v) e = std::exp(e);
                return out;
              },
              "exp of a real vector");
  this->check([](auto& f) { return clamp(f.v, Real(-1), Real(1)); },
              [](auto& f, const Coordinate& c) {
                Vec<Real, 3> out = peek(f.v, c);
                for (auto& e : out.v) e = std::clamp(e, Real(-1), Real(1));
                return out;
              },
              "clamp of a real vector");
  const auto as_std = [](const Complex<Real>& z) { return std::complex<Real>(z.re, z.im); };
  const auto from_std = [](const std::complex<Real>& z) { return Complex<Real>(z.real(), z.imag()); };
  this->check([](auto& f) { return exp(f.z); },
              [&](auto& f, const Coordinate& c) { return from_std(std::exp(as_std(peek(f.z, c)))); }, "complex exp");
  this->check([](auto& f) { return log(f.z); },
              [&](auto& f, const Coordinate& c) { return from_std(std::log(as_std(peek(f.z, c)))); }, "complex log");
  this->check([](auto& f) { return abs(f.z); },
              [&](auto& f, const Coordinate& c) { return std::abs(as_std(peek(f.z, c))); }, "complex modulus");
}

// A user's functor with a parameter, written as docs/guide/model.md says:
// `using std::exp;` then an unqualified call, which finds xsimd's function
// for SIMD vectors and the standard library's for plain reals.
struct Boltzmann {
  double beta;
  static constexpr const char* name = "boltzmann";
  template <class X> LATTE_INLINE X operator()(const X& energy) const {
    using std::exp;
    return exp(X(-beta) * energy);
  }
};

TYPED_TEST(MathFunctions, AUserFunctorCallsTheLibraryOnEveryLeafType) {
  using Real = TypeParam;
  this->check([](auto& f) { return map(Boltzmann{0.7}, f.x); },
              [](auto& f, const Coordinate& c) { return std::exp(Real(-0.7) * peek(f.x, c)); }, "boltzmann");
}

TEST(MathFunctionFlops, OneFlopPerLibraryCall) {
  const Geometry geometry({4, 4, 4, 4});
  Lattice<double> a(geometry);
  Lattice<ComplexD> z(geometry);
  EXPECT_EQ(decltype(exp(a))::flops_per_site(), 1.0);
  EXPECT_EQ(decltype(pow(a, a))::flops_per_site(), 1.0);
  EXPECT_EQ(decltype(clamp(a, 0.0, 1.0))::flops_per_site(), 0.0);
  // e^x (cos y + i sin y): three calls and two multiplications.
  EXPECT_EQ(decltype(exp(z))::flops_per_site(), 5.0);
  // sqrt(x^2 + y^2): one call, two multiplications and an addition.
  EXPECT_EQ(decltype(abs(z))::flops_per_site(), 4.0);
}

TEST(Fill, FromTheGlobalCoordinateOnEveryLayout) {
  const Geometry geometry({4, 4, 4, 8});
  const auto wave = [](const Coordinate& x) {
    return std::sin(2 * std::numbers::pi * x[3] / 8.0) * (1.0 + x[0]) + 0.25 * x[1] * x[2];
  };
  Lattice<double, VectorWidth> on_vectors(geometry);
  Lattice<double, ScalarWidth> on_scalar_layout(geometry);
  fill(on_vectors, wave);
  fill(on_scalar_layout, wave);
  EXPECT_TRUE(field_matches(on_vectors, wave, 0.0));
  EXPECT_TRUE(field_matches(on_scalar_layout, wave, 0.0));
  // A site value of another type than the function returns is converted.
  Lattice<Vec<float, 2>, VectorWidth> pair(geometry);
  fill(pair, [](const Coordinate& x) { return Vec<float, 2>{{float(x[0]), float(x[3])}}; });
  EXPECT_EQ(peek(pair, {3, 1, 2, 7}).v[1], 7.0f);
}

}  // namespace
}  // namespace latte::testing
