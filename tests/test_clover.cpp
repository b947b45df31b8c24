// The Wilson-clover operator (solvers/qcd/clover_action.hpp, clover_term.hpp)
// against Wilson and against physics: c_sw = 0 and F = 0 give the Wilson
// operator bit for bit, the clover term equals an explicit formula written
// here from the gamma matrices and the plaquettes, gamma_5-hermiticity, the
// blocks' inverse, even-odd and mixed-precision solves, gauge covariance.
// Everything in double but the one mixed-precision solve, to keep this
// file's instantiations few.

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "eigen_conversions.hpp"
#include "solvers/qcd/clover_action.hpp"
#include "solvers/qcd/gauge_observables.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

constexpr double clover_mass = 0.1;
constexpr double c_sw = 1.3;

// Every site of a and b holds the same bytes.
template <class T>
::testing::AssertionResult identical_fields(const Lattice<T>& a, const Lattice<T>& b) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool ok = true;
  for_each_coordinate(a.geometry(), [&](const Coordinate& x) {
    if (!ok) return;
    const T va = peek(a, x), vb = peek(b, x);
    if (std::memcmp(&va, &vb, sizeof(T)) != 0) {
      ok = false;
      result = ::testing::AssertionFailure() << "the bits differ at site " << to_string(x);
    }
  });
  return result;
}

using Matrix12 = Eigen::Matrix<std::complex<double>, 12, 12>;
using Vector12 = Eigen::Matrix<std::complex<double>, 12, 1>;

Eigen::Matrix4cd dense_gamma_matrix(int mu) {
  return to_eigen(mu == 0 ? gamma_matrix<0>() : mu == 1 ? gamma_matrix<1>() : mu == 2 ? gamma_matrix<2>()
                                                                                      : gamma_matrix<3>());
}

Vector12 to_vector12(const Spinor<double>& psi) {
  Vector12 v;
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 3; ++c) v(3 * s + c) = to_std(psi(s)(c));
  return v;
}

// The 12x12 matrix (row 3 s + c) a stored site of the clover term holds.
Matrix12 unpack(const CloverSite<double>& site) {
  Matrix12 m = Matrix12::Zero();
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 6; ++i) {
      m(6 * b + i, 6 * b + i) = site.v[b].v[i];
      for (int j = 0; j < i; ++j) {
        const int k = 6 + 2 * (i * (i - 1) / 2 + j);
        const std::complex<double> z(site.v[b].v[k], site.v[b].v[k + 1]);
        m(6 * b + i, 6 * b + j) = z;
        m(6 * b + j, 6 * b + i) = std::conj(z);
      }
    }
  return m;
}

class Clover : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  Lattice<Spinor<double>> psi{geometry}, chi{geometry};
  void SetUp() override {
    ParallelRng rng(71);
    U.set_random(rng);
    rng.gaussian(psi);
    rng.gaussian(chi);
  }

  Eigen::Matrix3cd link(int mu, const Coordinate& x) const { return to_eigen(peek(U[mu], x)); }
  Coordinate step(const Coordinate& x, int mu, int s) const {
    return displaced(x, unit_displacement(4, mu, s), geometry.dims());
  }
  // F_{mu nu}(x) = (Q - Q^+)/8, Q the four plaquettes at x in the (mu, nu)
  // plane, each run mu first, then nu: written out link by link.
  Eigen::Matrix3cd field_strength(const Coordinate& x, int mu, int nu) const {
    const Coordinate xm = step(x, mu, +1), xn = step(x, nu, +1), xmb = step(x, mu, -1), xnb = step(x, nu, -1);
    const Coordinate xmb_n = step(xmb, nu, +1), xmb_nb = step(xmb, nu, -1), xm_nb = step(xm, nu, -1);
    const Eigen::Matrix3cd q =
        link(mu, x) * link(nu, xm) * link(mu, xn).adjoint() * link(nu, x).adjoint() +
        link(nu, x) * link(mu, xmb_n).adjoint() * link(nu, xmb).adjoint() * link(mu, xmb) +
        link(mu, xmb).adjoint() * link(nu, xmb_nb).adjoint() * link(mu, xmb_nb) * link(nu, xnb) +
        link(nu, xnb).adjoint() * link(mu, xnb) * link(nu, xm_nb) * link(mu, x).adjoint();
    return (q - q.adjoint()) / 8.0;
  }
  // 4 + m + c_sw sum_{mu<nu} (i/2) sigma_{mu nu} (x) F_{mu nu},
  // sigma_{mu nu} = (i/2) [gamma_mu, gamma_nu].
  Matrix12 explicit_term(const Coordinate& x, double mass, double csw) const {
    const std::complex<double> i(0, 1);
    Matrix12 t = (4 + mass) * Matrix12::Identity();
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        const Eigen::Matrix4cd sigma = 0.5 * i * (dense_gamma_matrix(mu) * dense_gamma_matrix(nu) -
                                                  dense_gamma_matrix(nu) * dense_gamma_matrix(mu));
        const Eigen::Matrix3cd F = field_strength(x, mu, nu);
        for (int s = 0; s < 4; ++s)
          for (int sp = 0; sp < 4; ++sp) t.block<3, 3>(3 * s, 3 * sp) += csw * 0.5 * i * sigma(s, sp) * F;
      }
    return t;
  }
};

TEST_F(Clover, CswZeroIsWilsonBitForBit) {
  const CloverDirac<double> clover(U, clover_mass, 0.0);
  const WilsonDirac<double> wilson(U, clover_mass);
  Lattice<Spinor<double>> a(geometry), b(geometry);
  clover.apply(a, psi);
  wilson.apply(b, psi);
  EXPECT_TRUE(identical_fields(a, b)) << "M";
  clover.apply_dagger(a, psi);
  wilson.apply_dagger(b, psi);
  EXPECT_TRUE(identical_fields(a, b)) << "M^+";
}

TEST_F(Clover, UnitGaugeIsWilsonForAnyCsw) {
  U.set_unit();
  const WilsonDirac<double> wilson(U, clover_mass);
  Lattice<Spinor<double>> a(geometry), b(geometry);
  wilson.apply(b, psi);
  for (const double csw : {1.0, 1.9}) {
    const CloverDirac<double> clover(U, clover_mass, csw);
    clover.apply(a, psi);
    EXPECT_TRUE(identical_fields(a, b)) << "c_sw = " << csw;
  }
}

TEST_F(Clover, TermEqualsTheExplicitFormula) {
  const CloverDirac<double> M(U, clover_mass, c_sw);
  Lattice<Spinor<double>> term_psi(geometry);
  term_psi = clover_times(M.clover_term().term(), psi);
  for (const Coordinate& x : {Coordinate{0, 0, 0, 0}, Coordinate{1, 2, 3, 5}, Coordinate{3, 0, 2, 7},
                              Coordinate{2, 3, 1, 4}}) {
    const Matrix12 expected = explicit_term(x, clover_mass, c_sw);
    // The formula's term is hermitian and commutes with gamma_5: the two
    // chiral blocks are all there is.
    EXPECT_LT((expected - expected.adjoint()).norm(), 1e-14);
    EXPECT_LT((expected.block<6, 6>(0, 6).norm()), 1e-14);
    EXPECT_GT((expected.block<6, 6>(0, 0).imag().norm()), 0.1) << "the field is not trivial";
    EXPECT_LT((unpack(peek(M.clover_term().term(), x)) - expected).norm(), 1e-13) << to_string(x);
    EXPECT_LT((to_vector12(peek(term_psi, x)) - expected * to_vector12(peek(psi, x))).norm(), 1e-13) << to_string(x);
  }
}

TEST_F(Clover, Gamma5Hermiticity) {
  // M^+ = gamma_5 M gamma_5, and <chi, M psi> = <M^+ chi, psi>.
  const CloverDirac<double> M(U, clover_mass, c_sw);
  Lattice<Spinor<double>> g5psi(geometry), Mg5psi(geometry), dagger_psi(geometry), Mpsi(geometry),
      Mdag_chi(geometry);
  g5psi = gamma5(psi);
  M.apply(Mg5psi, g5psi);
  M.apply_dagger(dagger_psi, psi);
  Lattice<Spinor<double>> g5Mg5psi(geometry);
  g5Mg5psi = gamma5(Mg5psi);
  EXPECT_LT(std::sqrt(norm2(g5Mg5psi - dagger_psi) / norm2(dagger_psi)), 1e-14);
  M.apply(Mpsi, psi);
  M.apply_dagger(Mdag_chi, chi);
  const auto left = innerProduct(chi, Mpsi), right = innerProduct(Mdag_chi, psi);
  EXPECT_NEAR(left.re, right.re, 1e-10 * std::abs(left.re));
  EXPECT_NEAR(left.im, right.im, 1e-10 * std::abs(left.re));
}

TEST_F(Clover, BlockInverseTimesBlockIsOne) {
  const CloverTerm<double> term(U, clover_mass, c_sw);
  for (const Coordinate& x : {Coordinate{0, 0, 0, 0}, Coordinate{1, 3, 2, 6}}) {
    const Matrix12 product = unpack(peek(term.inverse(), x)) * unpack(peek(term.term(), x));
    EXPECT_LT((product - Matrix12::Identity()).norm(), 1e-13) << to_string(x);
  }
  Lattice<Spinor<double>> back(geometry);
  back = clover_times(term.inverse(), clover_times(term.term(), psi));
  EXPECT_LT(std::sqrt(norm2(back - psi) / norm2(psi)), 1e-14);
}

TEST_F(Clover, NotPositiveDefiniteNamesSiteParityBlockAndPivot) {
  // 4 + m < 0: every block's first pivot is negative, the first site fails.
  const std::string message =
      error_of<CloverTermNotPositiveDefinite>([&] { CloverTerm<double> term(U, -5.0, c_sw); });
  EXPECT_NE(message.find("not positive definite at site [0 0 0 0] (even parity): block 0 (spins 0, 1) has pivot 0"),
            std::string::npos)
      << message;
}

TEST_F(Clover, FlopCountsAreThoseOfTheCode) {
  // Counted from the functors' code (dsl/flop_count.hpp) against the
  // figures written beside it.
  const CloverDirac<double> M(U, clover_mass, c_sw);
  using Term = decltype(clover_times(M.clover_term().term(), psi));
  using WholeM = decltype(M.M(psi));
  EXPECT_EQ(Term::flops_per_site(), CloverTerm<double>::flops_per_site);
  EXPECT_EQ(WholeM::flops_per_site(), CloverAction<double>::flops_per_site);
  EXPECT_EQ(CloverEvenOdd<double>::flops_per_site, 3696);
}

TEST_F(Clover, EvenOddSolveSolvesTheWholeSystem) {
  const CloverDirac<double> M(U, clover_mass, c_sw);
  const CloverEvenOdd<double> schur(M);
  Lattice<Spinor<double>> x(geometry), Mx(geometry);
  x = zero;
  const SolverReport report = solve_clover_even_odd(schur, M, x, psi, SolverControl{1e-11, 10000});
  EXPECT_LE(report.true_residual, 1e-11);
  EXPECT_GT(report.iterations, 10);
  // Checked apart from the solve: the whole operator on the solution.
  M.apply(Mx, x);
  EXPECT_LT(std::sqrt(norm2(Mx - psi) / norm2(psi)), 1e-11);
}

TEST_F(Clover, MixedPrecisionEvenOddSolve) {
  if constexpr (!mixed_precision_available<DefaultWidth>) GTEST_SKIP() << "no single-precision vectors of half width";
  else {
    const CloverDirac<double> M(U, clover_mass, c_sw);
    const CloverEvenOdd<double> schur(M);
    const SingleCloverEvenOdd<DefaultWidth> single(M);
    Lattice<Spinor<double>> x(geometry), Mx(geometry);
    x = zero;
    const SolverReport report =
        solve_clover_even_odd_mixed(schur, single.schur(), M, x, psi, SolverControl{1e-11, 10000});
    EXPECT_LE(report.true_residual, 1e-11);
    M.apply(Mx, x);
    EXPECT_LT(std::sqrt(norm2(Mx - psi) / norm2(psi)), 1e-11);
  }
}

TEST_F(Clover, PropagatorIsGaugeCovariantAndPionCorrelatorInvariant) {
  // U -> g U g^+: M' = g M g^+, so M' (g psi) = g eta for M psi = eta, and
  // the pion correlator sum_x |S(x)|^2 per timeslice does not change.
  GaugeField<double> transformed(geometry);
  for (int mu = 0; mu < 4; ++mu) transformed[mu] = U[mu];
  Lattice<ColourMatrix<double>> g(geometry);
  ParallelRng rng(17);
  set_random_gauge_transformation(g, rng);
  gauge_transform(transformed, g);
  ASSERT_GT(norm2(transformed[3] - U[3]), 1.0);

  const CloverDirac<double> M(U, clover_mass, c_sw), M_transformed(transformed, clover_mass, c_sw);
  const CloverEvenOdd<double> schur(M), schur_transformed(M_transformed);
  const SolverControl control{1e-13, 10000};
  const Coordinate source{1, 2, 0, 3};
  const int T = geometry.dims()[3];
  std::vector<double> before(T, 0.0), after(T, 0.0);
  Lattice<Spinor<double>> eta(geometry), x(geometry), gx(geometry), g_eta(geometry);
  auto add_to_correlator = [&](const Lattice<Spinor<double>>& s, std::vector<double>& C) {
    for_each_coordinate(geometry, [&](const Coordinate& y) { C[y[3]] += to_vector12(peek(s, y)).squaredNorm(); });
  };
  for (int k = 0; k < 12; ++k) {
    Spinor<double> unit = zero_value<Spinor<double>>();
    unit.v[k / 3].v[k % 3] = ComplexD(1.0, 0.0);
    eta = zero;
    poke(eta, source, unit);
    x = zero;
    solve_clover_even_odd(schur, M, x, eta, control);
    add_to_correlator(x, before);
    x = zero;
    solve_clover_even_odd(schur_transformed, M_transformed, x, eta, control);
    add_to_correlator(x, after);
    if (k == 4) {  // covariance of one column: M' (g psi) = g eta
      x = zero;
      solve_clover_even_odd(schur, M, x, eta, control);
      gx = g * x;
      g_eta = g * eta;
      Lattice<Spinor<double>> y(geometry);
      y = zero;
      solve_clover_even_odd(schur_transformed, M_transformed, y, g_eta, control);
      EXPECT_LT(std::sqrt(norm2(y - gx) / norm2(gx)), 1e-11);
    }
  }
  for (int t = 0; t < T; ++t) EXPECT_NEAR(after[t], before[t], 1e-11 * before[t]) << "t = " << t;
}

}  // namespace
}  // namespace latte::testing
