// The Wilson-clover operator (solvers/qcd/fermions/clover_action.hpp, clover_term.hpp)
// against Wilson and against physics: c_sw = 0 and F = 0 give the Wilson
// operator bit for bit, the clover term equals an explicit formula written
// here from the gamma matrices and the plaquettes, gamma_5-hermiticity, the
// blocks' inverse, even-odd and mixed-precision solves, gauge covariance;
// and with a fermion boundary (antiperiodic in time): Wilson's operator
// again at c_sw = 0, the even-odd solves against the unpreconditioned one,
// gauge covariance of the propagator and a batch of right-hand sides.
// Everything in double but the mixed-precision solves, to keep this
// file's instantiations few.

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <vector>

#include "eigen_conversions.hpp"
#include "solvers/qcd/fermions/boundary_links.hpp"
#include "solvers/qcd/solves/clover_solve.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
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
  // Counted from the functors' code (dsl/expr/flop_count.hpp) against the
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
    const CloverEvenOdd<float, MatchingSingleWidth<DefaultWidth>> single(M.action().single_precision());
    Lattice<Spinor<double>> x(geometry), Mx(geometry);
    x = zero;
    const SolverReport report = solve_clover_even_odd_mixed(schur, single, M, x, psi, SolverControl{1e-11, 10000});
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

// With a fermion boundary. The quarks of the tests below are antiperiodic
// in time, the usual choice.
const FermionBoundary antiperiodic = FermionBoundary::antiperiodic_in_time();

std::string clover_text(double mass, double csw) {
  return "m = " + std::to_string(mass) + ", c_sw = " + std::to_string(csw);
}

TEST_F(Clover, CswZeroWithABoundaryIsWilsonBitForBit) {
  // Both hopping terms read the same phased links, and T = 4 + m is applied
  // with the products Wilson's (4 + m) psi makes, zeros added exactly.
  const CloverDirac<double> clover(U, clover_mass, 0.0, antiperiodic);
  const WilsonDirac<double> wilson(U, clover_mass, antiperiodic);
  Lattice<Spinor<double>> a(geometry), b(geometry);
  clover.apply(a, psi);
  wilson.apply(b, psi);
  EXPECT_TRUE(identical_fields(a, b)) << "M";
  clover.apply_dagger(a, psi);
  wilson.apply_dagger(b, psi);
  EXPECT_TRUE(identical_fields(a, b)) << "M^+";
  // The boundary is there: the periodic operator is another one.
  const CloverDirac<double> periodic(U, clover_mass, 0.0);
  clover.apply(a, psi);
  periodic.apply(b, psi);
  EXPECT_GT(norm2(a - b), 1e-3 * norm2(b));
  EXPECT_EQ(clover.boundary(), antiperiodic);
  EXPECT_EQ(&clover.gauge(), &U);
  EXPECT_NE(&clover.links(), &U);   // the phased copy
  EXPECT_EQ(&periodic.links(), &U);  // no copy
  EXPECT_EQ(clover.action().describe(), clover_text(clover_mass, 0.0) + ", antiperiodic in time");
  EXPECT_EQ(periodic.action().describe(), clover_text(clover_mass, 0.0));
}

TEST_F(Clover, UnitGaugeWithABoundaryIsWilsonForAnyCsw) {
  // F = 0 exactly on the unit field (every plaquette is the product of unit
  // matrices), so T = 4 + m and M is Wilson's to the bit.
  U.set_unit();
  const WilsonDirac<double> wilson(U, clover_mass, antiperiodic);
  Lattice<Spinor<double>> a(geometry), b(geometry);
  wilson.apply(b, psi);
  for (const double csw : {1.0, 1.9}) {
    const CloverDirac<double> clover(U, clover_mass, csw, antiperiodic);
    clover.apply(a, psi);
    EXPECT_TRUE(identical_fields(a, b)) << "c_sw = " << csw;
  }
}

TEST_F(Clover, TermOfThePhasedLinksIsTheSameToRounding) {
  // Every plaquette that crosses the boundary forward in mu crosses it
  // backward too: the phases cancel in F, so computing T from the unphased
  // links (as the operator does) loses nothing. A twist in every direction.
  const FermionBoundary twisted = FermionBoundary::twisted(0.3, -0.7, 0.5, 1);
  const BoundaryLinks<double> phased(U, twisted);
  ASSERT_TRUE(phased.phased());
  const CloverTerm<double> term(U, clover_mass, c_sw), term_phased(phased.links(), clover_mass, c_sw);
  EXPECT_TRUE(fields_near(term_phased.term(), term.term(), 1e-14));
  EXPECT_TRUE(fields_near(term_phased.inverse(), term.inverse(), 1e-13));
}

TEST_F(Clover, EvenOddSolvesWithABoundaryAgreeWithTheUnpreconditionedOne) {
  const CloverDirac<double> M(U, clover_mass, c_sw, antiperiodic);
  const SolverControl control{1e-11, 10000};
  Lattice<Spinor<double>> x_plain(geometry), x(geometry);
  x_plain = zero;
  const SolverReport plain = solve_wilson(M, x_plain, psi, control);  // CG on M^+ M, any operator
  EXPECT_LE(relative_residual(M, x_plain, psi), control.tolerance);
  // The solution is that of the antiperiodic operator, not the periodic one.
  EXPECT_GT(relative_residual(CloverDirac<double>(U, M.shared_clover_term()), x_plain, psi), 1e-3);
  const CloverEvenOdd<double> schur(M);
  EXPECT_EQ(schur.boundary(), antiperiodic);
  EXPECT_EQ(schur.action().parameters(), M.action().parameters());
  const auto check = [&](const char* name) {
    EXPECT_LE(relative_residual(M, x, psi), control.tolerance) << name;
    EXPECT_TRUE(fields_near(x, x_plain, 1e-8)) << name;
  };
  x = zero;
  const SolverReport even_odd = solve_clover_even_odd(schur, M, x, psi, control);
  check("even-odd");
  std::printf("clover, antiperiodic: even-odd %d iterations, unpreconditioned %d, |x - x_plain| / |x_plain| = %.1e\n",
              even_odd.iterations, plain.iterations, std::sqrt(norm2(x - x_plain) / norm2(x_plain)));
  if constexpr (mixed_precision_available<DefaultWidth>) {
    const CloverEvenOdd<float, MatchingSingleWidth<DefaultWidth>> single(M.action().single_precision());
    EXPECT_EQ(single.boundary(), antiperiodic);
    x = zero;
    solve_clover_even_odd_mixed(schur, single, M, x, psi, control);
    check("even-odd mixed");
    x = zero;
    solve_clover_even_odd_mixed(schur, M, x, psi, control);  // the twin made by the solve
    check("even-odd mixed, twin from M");
  }
}

TEST_F(Clover, SchurOperatorOfAnotherBoundaryIsRefused) {
  const CloverDirac<double> M(U, clover_mass, c_sw, antiperiodic);
  const CloverDirac<double> M_periodic(U, M.shared_clover_term());
  const CloverEvenOdd<double> periodic_schur(M_periodic), schur(M);
  Lattice<Spinor<double>> x(geometry);
  x = zero;
  const SolverControl control{1e-8, 100};
  const std::string message =
      error_of<GeometryMismatch>([&] { solve_clover_even_odd(periodic_schur, M, x, psi, control); });
  EXPECT_NE(message.find("(" + clover_text(clover_mass, c_sw) + ", "), std::string::npos) << message;
  EXPECT_NE(message.find("does not belong to M (" + clover_text(clover_mass, c_sw) + ", antiperiodic in time)"),
            std::string::npos)
      << message;
  error_of<GeometryMismatch>([&] { solve_clover_even_odd(schur, M_periodic, x, psi, control); });
  if constexpr (mixed_precision_available<DefaultWidth>) {
    // A single-precision twin of another boundary is no twin.
    const CloverEvenOdd<float, MatchingSingleWidth<DefaultWidth>> periodic_single(
        M_periodic.action().single_precision());
    const std::string twin = error_of<GeometryMismatch>(
        [&] { solve_clover_even_odd_mixed(schur, periodic_single, M, x, psi, control); });
    EXPECT_NE(twin.find("is not the twin"), std::string::npos) << twin;
  }
}

TEST_F(Clover, PropagatorWithABoundaryIsGaugeCovariant) {
  // U'_mu(x) = g(x) U_mu(x) g^+(x + mu): the boundary phases are numbers and
  // commute with g, so M' = g M g^+ with the boundary too, and the point
  // propagator transforms as S'(x, 0) = g(x) S(x, 0) g^+(0); the pion
  // correlator sum_x |S(x, 0)|^2 per timeslice does not change.
  GaugeField<double> transformed(geometry);
  for (int mu = 0; mu < 4; ++mu) transformed[mu] = U[mu];
  Lattice<ColourMatrix<double>> g(geometry);
  ParallelRng rng(29);
  set_random_gauge_transformation(g, rng);
  gauge_transform(transformed, g);
  ASSERT_GT(norm2(transformed[3] - U[3]), 1.0);

  const CloverDirac<double> M(U, clover_mass, c_sw, antiperiodic),
      M_transformed(transformed, clover_mass, c_sw, antiperiodic);
  const CloverEvenOdd<double> schur(M), schur_transformed(M_transformed);
  const SolverControl control{1e-12, 10000};
  const Coordinate source{0, 0, 0, 0};
  // The 12 columns of S and S', each from its own solve.
  std::vector<Lattice<Spinor<double>>> S, S_transformed;
  Lattice<Spinor<double>> eta(geometry);
  for (int k = 0; k < 12; ++k) {
    Spinor<double> unit = zero_value<Spinor<double>>();
    unit.v[k / 3].v[k % 3] = ComplexD(1.0, 0.0);
    eta = zero;
    poke(eta, source, unit);
    S.emplace_back(geometry);
    S.back() = zero;
    solve_clover_even_odd(schur, M, S.back(), eta, control);
    S_transformed.emplace_back(geometry);
    S_transformed.back() = zero;
    solve_clover_even_odd(schur_transformed, M_transformed, S_transformed.back(), eta, control);
  }
  // g acts on colour alone: 1_spin (x) g in the 12 x 12 spin-colour matrices.
  const auto spin_colour = [](const Eigen::Matrix3cd& colour) {
    Matrix12 m = Matrix12::Zero();
    for (int s = 0; s < 4; ++s) m.block<3, 3>(3 * s, 3 * s) = colour;
    return m;
  };
  const Matrix12 g_source_dagger = spin_colour(to_eigen(peek(g, source)).adjoint());
  const int T = geometry.dims()[3];
  std::vector<double> before(T, 0.0), after(T, 0.0);
  double difference = 0, total = 0;
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    Matrix12 s, s_transformed;
    for (int k = 0; k < 12; ++k) {
      s.col(k) = to_vector12(peek(S[k], x));
      s_transformed.col(k) = to_vector12(peek(S_transformed[k], x));
    }
    const Matrix12 expected = spin_colour(to_eigen(peek(g, x))) * s * g_source_dagger;
    difference += (s_transformed - expected).squaredNorm();
    total += expected.squaredNorm();
    before[x[3]] += s.squaredNorm();
    after[x[3]] += s_transformed.squaredNorm();
  });
  EXPECT_LT(std::sqrt(difference / total), 1e-9);
  double largest_change = 0;
  for (int t = 0; t < T; ++t) {
    EXPECT_NEAR(after[t], before[t], 1e-8 * before[t]) << "t = " << t;
    largest_change = std::max(largest_change, std::abs(after[t] - before[t]) / before[t]);
  }
  std::printf("clover, antiperiodic: |S' - g S g^+(0)| / |S'| = %.1e, pion correlator changed by %.1e at most\n",
              std::sqrt(difference / total), largest_change);
}

TEST_F(Clover, BatchEvenOddSolveWithABoundaryMatchesSingleSolves) {
  constexpr int N = 3;  // the batch size of the other multi-right-hand-side tests
  const CloverDirac<double> M(U, clover_mass, c_sw, antiperiodic);
  const CloverEvenOdd<double> schur(M);
  Lattice<Spinor<double>> eta(geometry), single(geometry), out(geometry);
  ParallelRng rng(89);
  rng.gaussian(eta);
  Lattice<MultiSpinor<double, N>> batch(geometry), batch_out(geometry), x(geometry);
  batch = pack<MultiSpinor<double, N>>(psi, chi, eta);
  // M on the batch is M on each right-hand side, to the bit.
  M.apply(batch_out, batch);
  Lattice<Spinor<double>> columns[N] = {Lattice<Spinor<double>>(geometry), Lattice<Spinor<double>>(geometry),
                                        Lattice<Spinor<double>>(geometry)};
  columns[0] = element<0>(batch_out);
  columns[1] = element<1>(batch_out);
  columns[2] = element<2>(batch_out);
  const Lattice<Spinor<double>>* rhs[N] = {&psi, &chi, &eta};
  for (int k = 0; k < N; ++k) {
    M.apply(out, *rhs[k]);
    EXPECT_TRUE(identical_fields(columns[k], out)) << "right-hand side " << k;
  }
  // One CG for the three: each right-hand side meets its tolerance with M
  // and, as for Wilson's batches, takes the iterations of its single solve
  // within one (the fused batch statements may round differently) and
  // ends at its solution.
  const SolverControl control{1e-10, 10000, false};
  x = zero;
  const SolverReport report = solve_clover_even_odd(schur, M, x, batch, control);
  const std::vector<double> residuals = relative_residuals(M, x, batch);
  ASSERT_EQ(residuals.size(), static_cast<std::size_t>(N));
  ASSERT_EQ(report.rhs_iterations.size(), static_cast<std::size_t>(N));
  EXPECT_EQ(report.rhs_true_residuals, residuals);
  columns[0] = element<0>(x);
  columns[1] = element<1>(x);
  columns[2] = element<2>(x);
  for (int k = 0; k < N; ++k) {
    EXPECT_LE(residuals[k], control.tolerance) << "right-hand side " << k;
    single = zero;
    const SolverReport alone = solve_clover_even_odd(schur, M, single, *rhs[k], control);
    EXPECT_NEAR(report.rhs_iterations[k], alone.iterations, 1) << "right-hand side " << k;
    const double difference = std::sqrt(norm2(columns[k] - single) / norm2(single));
    EXPECT_LT(difference, 10 * control.tolerance) << "right-hand side " << k;
    std::printf("clover, antiperiodic, batch of 3: right-hand side %d %d iterations (alone %d), |x_k - x| / |x| = %.1e\n",
                k, report.rhs_iterations[k], alone.iterations, difference);
  }
}

}  // namespace
}  // namespace latte::testing
