// Every DSL operator against a scalar reference evaluated site by site with
// peek, on three lowerings of the same statement: the build's default backend
// and SIMD width, the per-lane (simt) path on the same fields, and the scalar
// (one-lane) layout.

#include "test_support.hpp"

namespace latte::testing {
namespace {

constexpr double tolerance = 1e-13;

// The same random fields, in a given SIMD width.
template <class W>
struct Fields {
  Lattice<ComplexD, W> z1, z2;
  Lattice<double, W> r1, r2;
  Lattice<ColourMatrix<double>, W> U, V;
  Lattice<ColourVector<double>, W> c;
  Lattice<Spinor<double>, W> psi, phi;
  Lattice<Populations<double, 9>, W> f;

  explicit Fields(const Geometry& g) : z1(g), z2(g), r1(g), r2(g), U(g), V(g), c(g), psi(g), phi(g), f(g) {
    ParallelRng rng(2024);
    rng.gaussian(z1);
    rng.gaussian(z2);
    rng.gaussian(r1);
    rng.uniform(r2, 0.5, 2.0);  // a safe divisor
    rng.gaussian(U);
    rng.gaussian(V);
    rng.gaussian(c);
    rng.gaussian(psi);
    rng.gaussian(phi);
    rng.uniform(f, 0.0, 1.0);
  }
};

class Expressions : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 4}};
  Fields<VectorWidth> vector{geometry};
  Fields<ScalarWidth> scalar{geometry};

  // statement(fields) builds the expression; reference(fields, x) gives its
  // value at x from peeks of the inputs.
  template <class Statement, class Reference>
  void check(Statement statement, Reference reference) {
    using T = typename decltype(statement(vector))::value_type;
    Lattice<T, VectorWidth> on_vectors(geometry), on_lanes(geometry);
    Lattice<T, ScalarWidth> on_scalar_layout(geometry);
    assign<backend::Default>(on_vectors, statement(vector), AssignSet{});
    assign<backend::Simt>(on_lanes, statement(vector), AssignSet{});
    assign<backend::Default>(on_scalar_layout, statement(scalar), AssignSet{});
    auto expected = [&](const Coordinate& x) { return reference(vector, x); };
    EXPECT_TRUE(field_matches(on_vectors, expected, tolerance)) << "default backend";
    EXPECT_TRUE(field_matches(on_lanes, expected, tolerance)) << "per-lane path";
    EXPECT_TRUE(field_matches(on_scalar_layout, expected, tolerance)) << "scalar layout";
  }
};

TEST_F(Expressions, ArithmeticOnComplexFields) {
  check([](auto& F) { return F.z1 + F.z2; }, [](auto& F, auto& x) { return peek(F.z1, x) + peek(F.z2, x); });
  check([](auto& F) { return F.z1 - F.z2; }, [](auto& F, auto& x) { return peek(F.z1, x) - peek(F.z2, x); });
  check([](auto& F) { return F.z1 * F.z2; }, [](auto& F, auto& x) { return peek(F.z1, x) * peek(F.z2, x); });
  check([](auto& F) { return F.z1 / F.z2; }, [](auto& F, auto& x) { return peek(F.z1, x) / peek(F.z2, x); });
  check([](auto& F) { return -F.z1; }, [](auto& F, auto& x) { return -peek(F.z1, x); });
}

TEST_F(Expressions, ConstantsOnEitherSide) {
  const ComplexD a(0.5, -1.25);
  check([&](auto& F) { return a * F.z1 + F.z2; }, [&](auto& F, auto& x) { return a * peek(F.z1, x) + peek(F.z2, x); });
  check([&](auto& F) { return F.z1 * 3.0 - 1.0; },
        [&](auto& F, auto& x) { return peek(F.z1, x) * ComplexD(3.0) - ComplexD(1.0); });
  check([&](auto& F) { return 2 * F.r1 + F.r2 / 4.0; },
        [&](auto& F, auto& x) { return 2.0 * peek(F.r1, x) + peek(F.r2, x) / 4.0; });
  check([&](auto& F) { return F.r1 * F.z1; }, [&](auto& F, auto& x) { return peek(F.r1, x) * peek(F.z1, x); });
}

TEST_F(Expressions, ComplexFunctions) {
  check([](auto& F) { return conj(F.z1); }, [](auto& F, auto& x) { return conj(peek(F.z1, x)); });
  check([](auto& F) { return real(F.z1) * imag(F.z2); },
        [](auto& F, auto& x) { return peek(F.z1, x).re * peek(F.z2, x).im; });
  check([](auto& F) { return timesI(F.z1) + timesMinusI(F.z2); },
        [](auto& F, auto& x) { return ComplexD(0, 1) * peek(F.z1, x) + ComplexD(0, -1) * peek(F.z2, x); });
  check([](auto& F) { return localNorm2(F.z1); }, [](auto& F, auto& x) {
    const ComplexD z = peek(F.z1, x);
    return z.re * z.re + z.im * z.im;
  });
}

TEST_F(Expressions, RealFunctionsAndComparisons) {
  check([](auto& F) { return sqrt(F.r2) + abs(F.r1); },
        [](auto& F, auto& x) { return std::sqrt(peek(F.r2, x)) + std::abs(peek(F.r1, x)); });
  check([](auto& F) { return where(F.r1 < F.r2, F.z1, F.z2); },
        [](auto& F, auto& x) { return peek(F.r1, x) < peek(F.r2, x) ? peek(F.z1, x) : peek(F.z2, x); });
  check([](auto& F) { return where(F.r1 >= 0.0, F.psi, F.phi); },
        [](auto& F, auto& x) { return peek(F.r1, x) >= 0.0 ? peek(F.psi, x) : peek(F.phi, x); });
}

TEST_F(Expressions, WhereWithAStoredMaskField) {
  Lattice<double, VectorWidth> mask_v(geometry);
  Lattice<double, ScalarWidth> mask_s(geometry);
  fill_parity(mask_v);
  fill_parity(mask_s);
  auto statement = [&](auto& F) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(F)>, Fields<VectorWidth>>) return where(mask_v, F.r1, F.r2);
    else return where(mask_s, F.r1, F.r2);
  };
  check(statement, [](auto& F, auto& x) { return Geometry::parity(x) ? peek(F.r1, x) : peek(F.r2, x); });
}

TEST_F(Expressions, ColourAlgebra) {
  check([](auto& F) { return F.U * F.c; }, [](auto& F, auto& x) { return peek(F.U, x) * peek(F.c, x); });
  check([](auto& F) { return F.U * F.V; }, [](auto& F, auto& x) { return peek(F.U, x) * peek(F.V, x); });
  check([](auto& F) { return adj(F.U) * F.V; }, [](auto& F, auto& x) { return adj(peek(F.U, x)) * peek(F.V, x); });
  check([](auto& F) { return transpose(F.U) - conj(F.V); },
        [](auto& F, auto& x) { return transpose(peek(F.U, x)) - conj(peek(F.V, x)); });
  check([](auto& F) { return trace(F.U * F.V); }, [](auto& F, auto& x) { return trace(peek(F.U, x) * peek(F.V, x)); });
  check([](auto& F) { return localInnerProduct(F.c, F.U * F.c); },
        [](auto& F, auto& x) { return localInnerProduct(peek(F.c, x), peek(F.U, x) * peek(F.c, x)); });
}

TEST_F(Expressions, ColourMatrixActsOnEverySpinComponent) {
  check([](auto& F) { return F.U * F.psi + F.phi; }, [](auto& F, auto& x) {
    const ColourMatrix<double> u = peek(F.U, x);
    Spinor<double> psi = peek(F.psi, x), phi = peek(F.phi, x), out;
    for (int s = 0; s < spins; ++s)
      for (int a = 0; a < colours; ++a) {
        ComplexD acc = phi(s)(a);
        for (int b = 0; b < colours; ++b) acc += u(a, b) * psi(s)(b);
        out(s)(a) = acc;
      }
    return out;
  });
  check([](auto& F) { return localNorm2(F.psi); }, [](auto& F, auto& x) {
    double acc = 0;
    const Spinor<double> psi = peek(F.psi, x);
    for_each_leaf([&](double v) { acc += v * v; }, psi);
    return acc;
  });
}

TEST_F(Expressions, ElementsAndPacking) {
  check([](auto& F) { return element<3>(F.f) - element<7>(F.f); },
        [](auto& F, auto& x) { return peek(F.f, x)(3) - peek(F.f, x)(7); });
  check([](auto& F) { return pack<RealVector<double, 2>>(element<1>(F.f), F.r1 * 2.0); },
        [](auto& F, auto& x) { return RealVector<double, 2>{{peek(F.f, x)(1), 2.0 * peek(F.r1, x)}}; });
}

TEST_F(Expressions, CompoundAssignmentsUseTheDestination) {
  Lattice<ComplexD, VectorWidth> a(geometry);
  a = vector.z1;
  a += vector.z2 * 2.0;
  a -= vector.z1;
  a *= vector.z2;
  EXPECT_TRUE(field_matches(a, [&](const Coordinate& x) {
    const ComplexD z1 = peek(vector.z1, x), z2 = peek(vector.z2, x);
    return (z1 + 2.0 * z2 - z1) * z2;
  }, tolerance));
}

TEST_F(Expressions, PointwiseStatementsMayReadTheirDestination) {
  Lattice<ComplexD, VectorWidth> a(geometry);
  a = vector.z1;
  a = a * a + vector.z2;
  EXPECT_TRUE(field_matches(a, [&](const Coordinate& x) {
    const ComplexD z1 = peek(vector.z1, x);
    return z1 * z1 + peek(vector.z2, x);
  }, tolerance));
}

TEST_F(Expressions, ZeroAndConstantFill) {
  Lattice<Spinor<double>, VectorWidth> psi(geometry);
  psi = vector.psi;
  psi = zero;
  EXPECT_EQ(norm2(psi), 0.0);
  Lattice<ComplexD, VectorWidth> z(geometry);
  z = ComplexD(1.5, -2.0);
  EXPECT_TRUE(field_matches(z, [](const Coordinate&) { return ComplexD(1.5, -2.0); }, 0.0));
}

TEST_F(Expressions, SinglePrecisionFollowsDouble) {
  Lattice<ComplexF, VectorWidth> a(geometry), b(geometry), c(geometry);
  ParallelRng rng(5);
  rng.gaussian(a);
  rng.gaussian(b);
  c = ComplexF(0.5f, 2.0f) * a + b * 3.0;
  EXPECT_TRUE(field_matches(c, [&](const Coordinate& x) {
    return ComplexF(0.5f, 2.0f) * peek(a, x) + peek(b, x) * ComplexF(3.0f);
  }, 1e-6));
}

TEST_F(Expressions, KeptExpressionsReEvaluateWithCurrentData) {
  // Nodes are views of named fields: an expression held by auto sees the
  // fields' current contents when it is finally assigned.
  Lattice<double, VectorWidth> a(geometry), b(geometry), out(geometry);
  a = 1.0;
  b = 2.0;
  const auto expression = a + 2.0 * b;
  b = 10.0;
  out = expression;
  EXPECT_TRUE(field_matches(out, [](const Coordinate&) { return 21.0; }, 0.0));
}

// Fields larger than the caches take the other code path of the CPU backend
// (prefetching, streaming stores): check it computes the same thing, on a
// sample of sites spread over the whole lattice.
TEST(LargeStatements, PrefetchingAndStreamingStoresGiveTheSameResult) {
  Geometry geometry({32, 32, 32, 32});  // 16.8 MB per complex double field
  Lattice<ComplexD> x(geometry), y(geometry), z(geometry), w(geometry);
  ParallelRng rng(17);
  rng.gaussian(x);
  rng.gaussian(y);
  z = ComplexD(0.5, 1.5) * x + shift(y, 3, -1);  // overwritten: streaming stores
  w = y;
  w += 2.0 * shift(x, 0, +1);                    // read-modify-write: cached stores
  for (std::int64_t i = 0; i < geometry.volume(); i += 977) {
    const Coordinate c = coordinate_from_index(i, geometry.dims());
    const ComplexD expected_z = ComplexD(0.5, 1.5) * peek(x, c) + peek(y, displaced(c, {0, 0, 0, -1}, geometry.dims()));
    const ComplexD expected_w = peek(y, c) + 2.0 * peek(x, displaced(c, {1, 0, 0, 0}, geometry.dims()));
    ASSERT_LT(max_abs_difference(peek(z, c), expected_z), 1e-14) << to_string(c);
    ASSERT_LT(max_abs_difference(peek(w, c), expected_w), 1e-14) << to_string(c);
  }
}

}  // namespace
}  // namespace latte::testing
