// SU(3) algebra as field functions (dsl/expr/su3_functions.hpp): the exponential
// against its power series summed independently in long double, unitarity
// and det = 1 after exp and after the projections, the projection's
// idempotence and optimality, Ta as the orthogonal projection onto su(3),
// the gaussian algebra elements' distribution, SU(2) subgroups; on the
// build's width, the per-lane path (simt and cuda's code), the scalar layout
// and 16-byte vectors where the build is wider; double and single precision.

#include <complex>

#include "dsl/expr/su3_functions.hpp"
#include "lattice/tensors/su3.hpp"
#include "su3_reference.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {


#if !defined(LATTE_BACKEND_SIMT) && !defined(LATTE_BACKEND_CUDA) && LATTE_SIMD_BYTES > 16
inline constexpr bool su3_checks_narrower_width = true;
#else
inline constexpr bool su3_checks_narrower_width = false;
#endif
using Su3NarrowerWidth = std::conditional_t<su3_checks_narrower_width, SimdWidth<16>, VectorWidth>;

template <class Real>
class Su3Algebra : public ::testing::Test {
 protected:
  using Matrix = ColourMatrix<Real>;
  static constexpr bool is_double = std::is_same_v<Real, double>;
  Geometry geometry{{4, 4, 4, 4}};

  // Gaussian algebra elements, each site scaled by a factor spread over
  // [0, 3] (most sites) and tiny ones (below the series threshold) on the
  // sites with x0 = 0, so both branches and both signs of det Q occur.
  template <class W> void algebra_field(Lattice<Matrix, W>& x, std::uint64_t seed) {
    ParallelRng rng(seed);
    rng.fill(x, [](SiteRandomStream& random) {
      const double scale = random.uniform() < 0.2 ? 1e-5 * random.uniform() : 3.0 * random.uniform();
      const ColourMatrix<double> p = su3::gaussian_algebra_element(random);
      return transform_leaves<Matrix>([&](double v) { return static_cast<Real>(scale * v); }, p);
    });
  }
  // A general complex matrix field (for Ta and the projections).
  template <class W> void general_field(Lattice<Matrix, W>& m, std::uint64_t seed) {
    ParallelRng(seed).gaussian(m);
  }

  // statement(x) on the build's width, the per-lane path, the scalar layout
  // and the narrower width, each against reference(input at the site).
  template <class Make, class Statement, class Check>
  void on_every_path(Make make, Statement statement, Check check) {
    Lattice<Matrix, VectorWidth> in(geometry), on_vectors(geometry), on_lanes(geometry);
    Lattice<Matrix, ScalarWidth> in_scalar(geometry), on_scalar(geometry);
    make(in);
    make(in_scalar);
    assign<backend::Default>(on_vectors, statement(in), AssignSet{});
    assign<backend::Simt>(on_lanes, statement(in), AssignSet{});
    assign<backend::Default>(on_scalar, statement(in_scalar), AssignSet{});
    check(in, on_vectors, "default backend");
    check(in, on_lanes, "per-lane path");
    check(in, on_scalar, "scalar layout");
    if constexpr (su3_checks_narrower_width) {
      Lattice<Matrix, Su3NarrowerWidth> in_narrow(geometry), on_narrow(geometry);
      make(in_narrow);
      assign<backend::Default>(on_narrow, statement(in_narrow), AssignSet{});
      check(in, on_narrow, "16-byte vectors");
    }
  }
  template <class WI, class WO, class Site>
  void each_site(const Lattice<Matrix, WI>& in, const Lattice<Matrix, WO>& out, Site site) {
    for_each_coordinate(geometry, [&](const Coordinate& c) { site(to_long(peek(in, c)), to_long(peek(out, c)), c); });
  }
};
using Su3Precisions = ::testing::Types<double, float>;
TYPED_TEST_SUITE(Su3Algebra, Su3Precisions);

TYPED_TEST(Su3Algebra, ExponentialIsThePowerSeriesUnitaryWithDeterminantOne) {
  const long double tolerance = this->is_double ? 1e-14L : 4e-6L;
  this->on_every_path([&](auto& x) { this->algebra_field(x, 11); }, [](auto& x) { return su3_exp(x); },
                      [&](const auto& in, const auto& out, const char* path) {
                        long double worst = 0, worst_unitarity = 0, worst_det = 0;
                        this->each_site(in, out, [&](const MatrixL& x, const MatrixL& e, const Coordinate&) {
                          worst = std::max(worst, distance(e, exp_by_series(x)));
                          worst_unitarity = std::max(worst_unitarity, distance(times(e, dagger(e)), unit()));
                          worst_det = std::max(worst_det, std::abs(det(e) - 1.0L));
                        });
                        EXPECT_LT(worst, tolerance) << path;
                        EXPECT_LT(worst_unitarity, tolerance) << path;
                        EXPECT_LT(worst_det, 2 * tolerance) << path;
                      });
}

TYPED_TEST(Su3Algebra, ExponentialOfZeroAndOfDiagonalElementsWithBothSignsOfTheDeterminant) {
  // X = i diag(a, b, -a-b): det Q = -a b (a + b) takes both signs, and at
  // a = b the eigenvalues are degenerate (w = 0).
  using Real = TypeParam;
  const long double tolerance = this->is_double ? 1e-14L : 4e-6L;
  const double values[][2] = {{0.0, 0.0}, {0.7, 0.7}, {-0.7, -0.7}, {1.3, -0.4}, {-2.9, 0.8}, {1e-7, 2e-7}, {2.5, 2.5}};
  for (const auto& ab : values) {
    Lattice<ColourMatrix<Real>, VectorWidth> x(this->geometry), e(this->geometry);
    ColourMatrix<Real> site{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) site(i, j) = Complex<Real>(Real(0), Real(0));
    site(0, 0).im = Real(ab[0]);
    site(1, 1).im = Real(ab[1]);
    site(2, 2).im = Real(-ab[0] - ab[1]);
    x = site;
    e = su3_exp(x);
    const MatrixL got = to_long(peek(e, Coordinate{1, 2, 3, 0}));
    MatrixL expected{};
    expected[0][0] = std::exp(ComplexL(0, static_cast<Real>(ab[0])));
    expected[1][1] = std::exp(ComplexL(0, static_cast<Real>(ab[1])));
    expected[2][2] = std::exp(ComplexL(0, static_cast<Real>(-ab[0] - ab[1])));
    EXPECT_LT(distance(got, expected), tolerance) << "a = " << ab[0] << ", b = " << ab[1];
  }
}

TYPED_TEST(Su3Algebra, TracelessAntihermitianIsTheOrthogonalProjectionOntoTheAlgebra) {
  const long double tolerance = this->is_double ? 1e-14L : 4e-6L;
  Lattice<ColourMatrix<TypeParam>, VectorWidth> y(this->geometry);
  this->algebra_field(y, 5);
  this->on_every_path([&](auto& m) { this->general_field(m, 12); },
                      [](auto& m) { return traceless_antihermitian(m); },
                      [&](const auto& in, const auto& out, const char* path) {
                        long double worst_form = 0, worst_pairing = 0;
                        this->each_site(in, out, [&](const MatrixL& m, const MatrixL& a, const Coordinate& c) {
                          // (M - M^+)/2 - tr(M - M^+)/6, from its definition
                          MatrixL expected;
                          const ComplexL t = (m[0][0] - std::conj(m[0][0]) + m[1][1] - std::conj(m[1][1]) +
                                              m[2][2] - std::conj(m[2][2])) / 6.0L;
                          for (int i = 0; i < 3; ++i)
                            for (int j = 0; j < 3; ++j)
                              expected[i][j] = (m[i][j] - std::conj(m[j][i])) / 2.0L - (i == j ? t : 0.0L);
                          worst_form = std::max(worst_form, distance(a, expected));
                          // Re tr(Y M) = tr(Y Ta(M)) for every Y in su(3).
                          const MatrixL yy = to_long(peek(y, c));
                          worst_pairing = std::max(worst_pairing,
                                                   std::abs(re_trace(times(yy, m)) - times(yy, a)[0][0].real() -
                                                            times(yy, a)[1][1].real() - times(yy, a)[2][2].real()));
                        });
                        EXPECT_LT(worst_form, tolerance) << path;
                        EXPECT_LT(worst_pairing, 20 * tolerance) << path;
                      });
}

TYPED_TEST(Su3Algebra, ReunitarisationAndProjectionGiveSu3AndTheProjectionMaximisesTheOverlap) {
  const long double tolerance = this->is_double ? 1e-13L : 3e-5L;
  // M: an SU(3) matrix plus a sizeable general perturbation, as a smeared
  // link is (APE: U + rho * staples).
  const auto make = [&](auto& m) {
    auto v = m;
    ParallelRng rng(31);
    rng.fill(v, [](SiteRandomStream& random) {
      return transform_leaves<ColourMatrix<TypeParam>>([](double x) { return static_cast<TypeParam>(x); },
                                                       random_su3(random));
    });
    this->general_field(m, 32);
    m = v + 0.4 * m;
  };
  const auto check = [&](auto statement, bool maximal) {
    this->on_every_path(make, statement, [&](const auto& in, const auto& out, const char* path) {
      long double worst_unitarity = 0, worst_det = 0, worst_stationarity = 0;
      this->each_site(in, out, [&](const MatrixL& m, const MatrixL& v, const Coordinate&) {
        worst_unitarity = std::max(worst_unitarity, distance(times(v, dagger(v)), unit()));
        worst_det = std::max(worst_det, std::abs(det(v) - 1.0L));
        // At the maximum of Re tr(V M^+) over SU(3), V M^+ has no
        // traceless anti-hermitian part: every direction X is stationary.
        const MatrixL a = times(v, dagger(m));
        MatrixL ta;
        const ComplexL t = (a[0][0] - std::conj(a[0][0]) + a[1][1] - std::conj(a[1][1]) + a[2][2] -
                            std::conj(a[2][2])) / 6.0L;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) ta[i][j] = (a[i][j] - std::conj(a[j][i])) / 2.0L - (i == j ? t : 0.0L);
        worst_stationarity = std::max(worst_stationarity, distance(ta, MatrixL{}));
      });
      EXPECT_LT(worst_unitarity, tolerance) << path;
      EXPECT_LT(worst_det, 2 * tolerance) << path;
      if (maximal) {
        EXPECT_LT(worst_stationarity, 50 * tolerance) << path << ": not the maximum";
      }
    });
  };
  check([](auto& m) { return su3_project(m); }, true);
  check([](auto& m) { return su3_reunitarise(m); }, false);
}

TYPED_TEST(Su3Algebra, ProjectionIsIdempotentAndBeatsNearbySu3Matrices) {
  using Matrix = ColourMatrix<TypeParam>;
  const long double tolerance = this->is_double ? 1e-13L : 3e-5L;
  Lattice<Matrix, VectorWidth> m(this->geometry), v(this->geometry), vv(this->geometry), x(this->geometry);
  this->general_field(m, 40);
  v = su3_project(m);
  vv = su3_project(v);
  EXPECT_TRUE(fields_near(v, vv, static_cast<double>(tolerance)));
  // Any SU(3) matrix exp(X) V near V overlaps less with M.
  this->algebra_field(x, 41);
  Lattice<Matrix, VectorWidth> w(this->geometry);
  w = su3_exp(0.05 * x) * v;
  int worse = 0, sites = 0;
  for_each_coordinate(this->geometry, [&](const Coordinate& c) {
    const MatrixL mm = to_long(peek(m, c));
    const long double at_v = re_trace(times(to_long(peek(v, c)), dagger(mm)));
    const long double at_w = re_trace(times(to_long(peek(w, c)), dagger(mm)));
    worse += at_w <= at_v + tolerance;
    ++sites;
  });
  EXPECT_EQ(worse, sites);
}

TEST(Su3AlgebraElements, GaussianMomentaHaveUnitComponentsAndSu2SubgroupsEmbed) {
  // 8 components per site, each N(0, 1), and -tr(X X) = 1/2 sum_a x_a^2.
  long double mean = 0, second = 0, worst_identity = 0, worst_form = 0;
  const int samples = 20000;
  for (int s = 0; s < samples; ++s) {
    SiteRandomStream random(2026, static_cast<std::uint64_t>(s), 0);
    const ColourMatrix<double> x = su3::gaussian_algebra_element(random);
    double a[8];
    su3::algebra_components(x, a);
    long double half_square = 0;
    for (double v : a) {
      mean += v;
      second += v * v;
      half_square += 0.5L * v * v;
    }
    const MatrixL xl = to_long(x);
    worst_identity = std::max(worst_identity, std::abs(-re_trace(times(xl, xl)) - half_square));
    // anti-hermitian and traceless
    worst_form = std::max({worst_form, distance(xl, [&] {
                             MatrixL m = dagger(xl);
                             for (auto& row : m)
                               for (auto& v : row) v = -v;
                             return m;
                           }()), std::abs(xl[0][0] + xl[1][1] + xl[2][2])});
  }
  mean /= 8.0L * samples;
  second /= 8.0L * samples;
  EXPECT_LT(std::abs(mean), 4.0 / std::sqrt(8.0 * samples));  // four standard errors
  EXPECT_LT(std::abs(second - 1.0L), 4.0 * std::sqrt(2.0 / (8.0 * samples)));
  EXPECT_LT(worst_identity, 1e-13L);
  EXPECT_LT(worst_form, 1e-15L);

  // A unit quaternion embeds as an SU(3) matrix and is recovered from it, in each subgroup.
  for (int k = 0; k < su3::su2_subgroups; ++k) {
    const double n = std::sqrt(0.3 * 0.3 + 0.4 * 0.4 + 0.5 * 0.5 + 0.1 * 0.1);
    const su3::Quaternion<double> q{0.3 / n, -0.4 / n, 0.5 / n, 0.1 / n};
    const ColourMatrix<double> g = su3::su2_embed(q, k);
    const MatrixL gl = to_long(g);
    EXPECT_LT(distance(times(gl, dagger(gl)), unit()), 1e-15L) << "subgroup " << k;
    EXPECT_LT(std::abs(det(gl) - 1.0L), 1e-15L) << "subgroup " << k;
    const su3::Quaternion<double> back = su3::su2_part(g, k);
    EXPECT_NEAR(back.a0, q.a0, 1e-16);
    EXPECT_NEAR(back.a1, q.a1, 1e-16);
    EXPECT_NEAR(back.a2, q.a2, 1e-16);
    EXPECT_NEAR(back.a3, q.a3, 1e-16);
    // g M touching two rows equals the full product.
    SiteRandomStream random(7, static_cast<std::uint64_t>(k), 1);
    const ColourMatrix<double> m = random_su3(random);
    EXPECT_LT(distance(to_long(su3::su2_multiply(q, k, m)), times(gl, to_long(m))), 1e-15L);
  }
}

}  // namespace
}  // namespace latte::testing
