// Fermion boundary conditions (solvers/qcd/fermions/fermion_boundary.hpp,
// boundary_links.hpp): the phased links site by site, the Wilson operator
// against a reference written here from the definition, the free-field
// propagator against its momentum sum over the shifted momenta
// p_mu = (2 pi n_mu + pi theta_mu) / L_mu, the periodic default unchanged to
// the bit, the even-odd, mixed-precision and multi-right-hand-side solves
// with a boundary, and the parser's errors.

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "eigen_conversions.hpp"
#include "solvers/qcd/fermions/boundary_links.hpp"
#include "solvers/qcd/fermions/fermion_boundary.hpp"
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
#include "solvers/qcd/measure/hadron_correlators.hpp"
#include "solvers/qcd/measure/propagator.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"
#include "test_support.hpp"

namespace latte::testing::fermion_boundary {
namespace {

using Complex = std::complex<double>;

// e^{i pi theta}, written without the library's exact cases.
Complex phase_of(double theta) { return std::polar(1.0, std::numbers::pi * theta); }

Eigen::Matrix4cd gamma_matrix_of(int mu) {
  return to_eigen(mu == 0 ? gamma_matrix<0>() : mu == 1 ? gamma_matrix<1>() : mu == 2 ? gamma_matrix<2>()
                                                                                      : gamma_matrix<3>());
}

// (M psi)(x) from the definition, site by site: the hop that leaves the
// lattice forward in mu (x_mu = L_mu - 1) picks up e^{i pi theta_mu}, the
// one that leaves it backward (x_mu = 0) e^{-i pi theta_mu}:
//   M psi(x) = (4 + m) psi(x) - 1/2 sum_mu [ (1 - gamma_mu) U_mu(x) psi(x + mu)
//                                          + (1 + gamma_mu) U_mu(x - mu)^+ psi(x - mu) ].
SpinColour reference_M(const GaugeField<double>& U, const Lattice<Spinor<double>>& psi, double mass,
                       const std::array<double, 4>& theta, const Coordinate& x) {
  const Coordinate& dims = U.geometry().dims();
  const Eigen::Matrix4cd one = Eigen::Matrix4cd::Identity();
  SpinColour out = (4 + mass) * to_eigen(peek(psi, x));
  for (int mu = 0; mu < 4; ++mu) {
    Coordinate step(4, 0);
    step[mu] = 1;
    const Coordinate forward = displaced(x, step, dims);
    step[mu] = -1;
    const Coordinate backward = displaced(x, step, dims);
    const Complex forward_phase = x[mu] == dims[mu] - 1 ? phase_of(theta[mu]) : Complex(1);
    const Complex backward_phase = x[mu] == 0 ? std::conj(phase_of(theta[mu])) : Complex(1);
    const Eigen::Matrix3cd U_here = to_eigen(peek(U[mu], x)), U_back = to_eigen(peek(U[mu], backward));
    const Eigen::Matrix4cd g = gamma_matrix_of(mu);
    out -= 0.5 * forward_phase * (one - g) * to_eigen(peek(psi, forward)) * U_here.transpose();
    out -= 0.5 * backward_phase * (one + g) * to_eigen(peek(psi, backward)) * U_back.conjugate();
  }
  return out;
}

double largest_difference(const SpinColour& a, const SpinColour& b) { return (a - b).cwiseAbs().maxCoeff(); }

class FermionBoundaryTest : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  Lattice<Spinor<double>> psi{geometry}, out{geometry};
  const double mass = 0.1;
  void SetUp() override {
    ParallelRng rng(73);
    U.set_random(rng);
    rng.gaussian(psi);
  }
};

TEST(FermionBoundaryText, ParsesTheThreeKinds) {
  EXPECT_EQ(parse_fermion_boundary("periodic"), FermionBoundary::periodic());
  EXPECT_EQ(parse_fermion_boundary("antiperiodic"), FermionBoundary::antiperiodic_in_time());
  const FermionBoundary twisted = parse_fermion_boundary("twisted:0.5,0,-0.25,1");
  EXPECT_EQ(twisted, FermionBoundary::twisted(0.5, 0, -0.25, 1));
  EXPECT_EQ(twisted.theta[2], -0.25);
  EXPECT_EQ(FermionBoundary::antiperiodic_in_time().theta, (std::array<double, 4>{0, 0, 0, 1}));
  EXPECT_EQ(FermionBoundary::periodic().describe(), "periodic");
  EXPECT_EQ(FermionBoundary::antiperiodic_in_time().describe(), "antiperiodic in time");
  EXPECT_EQ(twisted.describe(), "twisted: theta = (0.5, 0, -0.25, 1) pi");
  EXPECT_EQ(FermionBoundary::twisted(0.1, 0, 0, 0).describe(), "twisted: theta = (0.1, 0, 0, 0) pi");
  // A whole turn is no twist.
  EXPECT_TRUE(FermionBoundary::twisted(2, 0, -2, 4).is_periodic());
  EXPECT_EQ(FermionBoundary::twisted(0, 0, 0, -1).describe(), "antiperiodic in time");
}

TEST(FermionBoundaryText, BadTextIsNamed) {
  for (const std::string text : {"anti", "", "twisted", "twisted:1,2,3", "twisted:1,x,0,0", "twisted:1,0,0,0,0",
                                 "twisted:1,0,0,0.5e", "twisted:nan,0,0,0", "Periodic"}) {
    const std::string message = error_of<std::invalid_argument>([&] { parse_fermion_boundary(text); });
    EXPECT_NE(message.find("fermion boundary '" + text + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("expected periodic, antiperiodic or twisted:a,b,c,d"), std::string::npos) << message;
  }
  const std::string three = error_of<std::invalid_argument>([] { parse_fermion_boundary("twisted:1,2,3"); });
  EXPECT_NE(three.find("has 3 angles, not 4"), std::string::npos) << three;
  const std::string word = error_of<std::invalid_argument>([] { parse_fermion_boundary("twisted:1,x,0,0"); });
  EXPECT_NE(word.find("has 'x' where a number belongs"), std::string::npos) << word;
}

TEST(FermionBoundaryText, PhasesAreExactAtQuarterTurns) {
  const FermionBoundary b = FermionBoundary::twisted(1, 0.5, -0.5, 3);
  EXPECT_EQ(b.phase(0), (std::array<double, 2>{-1.0, 0.0}));
  EXPECT_EQ(b.phase(1), (std::array<double, 2>{0.0, 1.0}));
  EXPECT_EQ(b.phase(2), (std::array<double, 2>{0.0, -1.0}));
  EXPECT_EQ(b.phase(3), (std::array<double, 2>{-1.0, 0.0}));
  const auto [c, s] = FermionBoundary::twisted(0.3, 0, 0, 0).phase(0);
  EXPECT_NEAR(c, std::cos(0.3 * std::numbers::pi), 1e-16);
  EXPECT_NEAR(s, std::sin(0.3 * std::numbers::pi), 1e-16);
}

TEST_F(FermionBoundaryTest, PhasedLinksDifferOnlyOnTheLastSliceOfEachTwistedDirection) {
  const std::array<double, 4> theta{0.3, 0, -0.5, 1};
  const BoundaryLinks<double> links(U, FermionBoundary::twisted(theta[0], theta[1], theta[2], theta[3]));
  ASSERT_TRUE(links.phased());
  const Coordinate& dims = geometry.dims();
  int phased_sites = 0;
  for (int mu = 0; mu < 4; ++mu)
    for_each_coordinate(geometry, [&](const Coordinate& x) {
      const ColourMatrix<double> original = peek(U[mu], x), got = peek(links.links()[mu], x);
      if (x[mu] == dims[mu] - 1 && theta[mu] != 0) {
        ++phased_sites;
        const Eigen::Matrix3cd expected = phase_of(theta[mu]) * to_eigen(original);
        EXPECT_LT((to_eigen(got) - expected).cwiseAbs().maxCoeff(), 1e-15) << "mu " << mu << " at " << to_string(x);
      } else {
        EXPECT_EQ(max_abs_difference(got, original), 0.0) << "mu " << mu << " at " << to_string(x);
      }
    });
  EXPECT_EQ(phased_sites, 4 * 4 * 8 + 4 * 4 * 8 + 4 * 4 * 4);
}

TEST_F(FermionBoundaryTest, PeriodicDefaultReadsTheGaugeFieldItselfWithTheSameBits) {
  const WilsonDirac<double> by_default(U, mass), periodic(U, mass, FermionBoundary::periodic()),
      whole_turns(U, mass, FermionBoundary::twisted(2, 0, -2, 0));
  EXPECT_EQ(&by_default.links(), &U);  // no copy
  EXPECT_EQ(&whole_turns.links(), &U);
  EXPECT_EQ(by_default.boundary(), FermionBoundary::periodic());
  EXPECT_EQ(by_default.action().describe(), "m = " + std::to_string(mass));
  // Reading U itself, M runs the statement it ran before boundaries existed;
  // the operators that name a periodic boundary give those bits too. (The
  // statement is not written out here: that would compile the Wilson
  // operator's loop once more in this file, for a comparison the address
  // check above already makes.)
  Lattice<Spinor<double>> other(geometry);
  by_default.apply(out, psi);
  periodic.apply(other, psi);
  EXPECT_TRUE(fields_near(other, out, 0.0));
  whole_turns.apply(other, psi);
  EXPECT_TRUE(fields_near(other, out, 0.0));
  // and the definition (the site-by-site reference below, with no phase).
  double worst = 0;
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    worst = std::max(worst, largest_difference(to_eigen(peek(out, x)), reference_M(U, psi, mass, {0, 0, 0, 0}, x)));
  });
  EXPECT_LT(worst, 1e-13);
  // The even-odd operator too: its parameters are those of M.
  const WilsonEvenOdd<double> schur(U, mass);
  EXPECT_EQ(schur.action().parameters(), by_default.action().parameters());
}

TEST_F(FermionBoundaryTest, WilsonOperatorMatchesTheDefinitionSiteBySite) {
  for (const std::array<double, 4> theta :
       {std::array<double, 4>{0, 0, 0, 1}, std::array<double, 4>{0.3, 0, -0.5, 1}, std::array<double, 4>{0, 0, 0, 0}}) {
    const WilsonDirac<double> M(U, mass, FermionBoundary::twisted(theta[0], theta[1], theta[2], theta[3]));
    M.apply(out, psi);
    double worst = 0;
    for_each_coordinate(geometry, [&](const Coordinate& x) {
      worst = std::max(worst, largest_difference(to_eigen(peek(out, x)), reference_M(U, psi, mass, theta, x)));
    });
    EXPECT_LT(worst, 1e-13) << M.action().describe();
  }
}

TEST_F(FermionBoundaryTest, GammaFiveHermiticityHoldsWithATwist) {
  // <chi, M psi> = <M^+ chi, psi>, M^+ = gamma_5 M gamma_5 holds for any U(1) phase.
  const WilsonDirac<double> M(U, mass, FermionBoundary::twisted(0.3, 0.7, 0, 1));
  Lattice<Spinor<double>> chi(geometry), Mdag_chi(geometry);
  ParallelRng rng(79);
  rng.gaussian(chi);
  M.apply(out, psi);
  M.apply_dagger(Mdag_chi, chi);
  const ComplexD left = innerProduct(chi, out), right = innerProduct(Mdag_chi, psi);
  EXPECT_NEAR(left.re, right.re, 1e-10 * std::abs(left.re));
  EXPECT_NEAR(left.im, right.im, 1e-10 * std::abs(left.re));
}

// The free propagator from the origin, S(x) = (1/V) sum_p e^{ipx} M(p)^{-1}
// (times the colour identity), with the momenta of the boundary:
// p_mu = (2 pi n_mu + pi theta_mu) / L_mu, n_mu = 0 .. L_mu - 1, and
//   M(p) = m + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu.
// For x inside the lattice e^{ipx} is what the twisted plane waves are, so
// this is the inverse of the operator with the phased links.
std::vector<Eigen::Matrix4cd> free_propagator(const Coordinate& dims, double mass, const std::array<double, 4>& theta) {
  const double volume = static_cast<double>(dims[0]) * dims[1] * dims[2] * dims[3];
  std::vector<std::array<double, 4>> momenta;
  std::vector<Eigen::Matrix4cd> inverses;
  for (int n0 = 0; n0 < dims[0]; ++n0)
    for (int n1 = 0; n1 < dims[1]; ++n1)
      for (int n2 = 0; n2 < dims[2]; ++n2)
        for (int n3 = 0; n3 < dims[3]; ++n3) {
          const int n[4] = {n0, n1, n2, n3};
          std::array<double, 4> p;
          Eigen::Matrix4cd Mp = Eigen::Matrix4cd::Identity() * mass;
          for (int mu = 0; mu < 4; ++mu) {
            p[mu] = (2 * std::numbers::pi * n[mu] + std::numbers::pi * theta[mu]) / dims[mu];
            Mp += Eigen::Matrix4cd::Identity() * (1 - std::cos(p[mu]));
            Mp += Complex(0, std::sin(p[mu])) * gamma_matrix_of(mu);
          }
          momenta.push_back(p);
          inverses.push_back(Mp.inverse());
        }
  std::vector<Eigen::Matrix4cd> S(static_cast<std::size_t>(volume), Eigen::Matrix4cd::Zero());
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(volume); ++i) {
    const Coordinate x = coordinate_from_index(i, dims);
    for (std::size_t k = 0; k < momenta.size(); ++k) {
      double px = 0;
      for (int mu = 0; mu < 4; ++mu) px += momenta[k][mu] * x[mu];
      S[i] += std::polar(1.0 / volume, px) * inverses[k];
    }
  }
  return S;
}

// Largest |S(x) - S_reference(x)| over the sites and the 12 x 12 entries.
double largest_propagator_difference(const Lattice<PropagatorSite<double>>& S, const std::vector<Eigen::Matrix4cd>& expected) {
  const Coordinate& dims = S.geometry().dims();
  double worst = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Coordinate x = coordinate_from_index(static_cast<std::int64_t>(i), dims);
    const PropagatorSite<double> site = peek(S, x);
    for (int s = 0; s < spins; ++s)
      for (int c = 0; c < colours; ++c)
        for (int s2 = 0; s2 < spins; ++s2)
          for (int c2 = 0; c2 < colours; ++c2) {
            const Complex want = c2 == c ? expected[i](s2, s) : Complex(0);
            worst = std::max(worst, std::abs(to_std(site(colours * s + c)(s2)(c2)) - want));
          }
  }
  return worst;
}

class FreePropagator : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  const double mass = 0.2;
  void SetUp() override { U.set_unit(); }

  void expect_momentum_sum(const std::array<double, 4>& theta) {
    const WilsonDirac<double> M(U, mass, FermionBoundary::twisted(theta[0], theta[1], theta[2], theta[3]));
    const auto [S, report] = point_propagator(M, {0, 0, 0, 0}, SolverControl{1e-13, 10000});
    const std::vector<Eigen::Matrix4cd> expected = free_propagator(geometry.dims(), mass, theta);
    EXPECT_LT(largest_propagator_difference(S, expected), 1e-10) << M.action().describe();
    // The pion correlator of it: 3 sum_{x_s} tr[S S^+] of the reference.
    std::vector<double> C_expected(geometry.dims()[3], 0.0);
    for (std::size_t i = 0; i < expected.size(); ++i)
      C_expected[coordinate_from_index(static_cast<std::int64_t>(i), geometry.dims())[3]] +=
          3 * (expected[i] * expected[i].adjoint()).trace().real();
    const std::vector<double> C = pion_correlator(S);
    for (std::size_t t = 0; t < C.size(); ++t) EXPECT_NEAR(C[t], C_expected[t], 1e-10 * C_expected[t]) << "t = " << t;
  }
};

TEST_F(FreePropagator, AntiperiodicInTimeEqualsTheSumOverOddMultiplesOfPiOverT) {
  expect_momentum_sum({0, 0, 0, 1});
}

TEST_F(FreePropagator, TwistedEqualsTheSumOverShiftedMomenta) { expect_momentum_sum({0.5, 0, -0.25, 1}); }

TEST_F(FreePropagator, AntiperiodicDiffersFromPeriodic) {
  // The boundary is not a no-op: the two free correlators differ visibly.
  const SolverControl control{1e-12, 10000};
  const auto periodic = point_propagator(WilsonDirac<double>(U, mass), {0, 0, 0, 0}, control);
  const auto antiperiodic =
      point_propagator(WilsonDirac<double>(U, mass, FermionBoundary::antiperiodic_in_time()), {0, 0, 0, 0}, control);
  const std::vector<double> C_periodic = pion_correlator(periodic.field), C_antiperiodic = pion_correlator(antiperiodic.field);
  for (int t : {0, 4}) EXPECT_GT(std::abs(C_periodic[t] - C_antiperiodic[t]), 1e-3 * C_periodic[t]) << "t = " << t;
}

TEST_F(FermionBoundaryTest, EvenOddAndMixedSolvesAgreeWithTheUnpreconditionedOne) {
  const WilsonDirac<double> M(U, mass, FermionBoundary::antiperiodic_in_time());
  const SolverControl control{1e-11, 10000};
  Lattice<Spinor<double>> x_plain(geometry), x(geometry);
  x_plain = zero;
  solve_wilson(M, x_plain, psi, control);
  EXPECT_LE(relative_residual(M, x_plain, psi), control.tolerance);
  // The solution is that of the antiperiodic operator, not the periodic one.
  EXPECT_GT(relative_residual(WilsonDirac<double>(U, mass), x_plain, psi), 1e-3);
  const auto check = [&](const char* name) {
    EXPECT_LE(relative_residual(M, x, psi), control.tolerance) << name;
    EXPECT_TRUE(fields_near(x, x_plain, 1e-8)) << name;
  };
  x = zero;
  solve_wilson_even_odd(M, x, psi, control);
  check("even-odd");
  if constexpr (mixed_precision_available<DefaultWidth>) {
    x = zero;
    solve_wilson_mixed(M, x, psi, control);
    check("mixed");
    x = zero;
    solve_wilson_even_odd_mixed(M, x, psi, control);
    check("even-odd mixed");
  }
}

TEST_F(FermionBoundaryTest, SchurOperatorOfAnotherBoundaryIsRefused) {
  const WilsonDirac<double> M(U, mass, FermionBoundary::antiperiodic_in_time());
  const WilsonEvenOdd<double> periodic_schur(U, mass);
  EXPECT_EQ(WilsonEvenOdd<double>(U, mass, M.boundary()).boundary(), M.boundary());
  Lattice<Spinor<double>> x(geometry);
  x = zero;
  const std::string message =
      error_of<GeometryMismatch>([&] { solve_wilson_even_odd(periodic_schur, M, x, psi, SolverControl{1e-8, 100}); });
  EXPECT_NE(message.find("does not belong to M (m = " + std::to_string(mass) + ", antiperiodic in time)"),
            std::string::npos)
      << message;
}

TEST_F(FermionBoundaryTest, BatchOfRightHandSidesWithABoundary) {
  constexpr int N = 3;  // the batch size of the other multi-right-hand-side tests: no new instances
  const WilsonDirac<double> M(U, mass, FermionBoundary::twisted(0.5, 0, 0, 1));
  Lattice<Spinor<double>> chi(geometry), eta(geometry), single(geometry);
  ParallelRng rng(83);
  rng.gaussian(chi);
  rng.gaussian(eta);
  Lattice<MultiSpinor<double, N>> batch(geometry), batch_out(geometry), x(geometry);
  batch = pack<MultiSpinor<double, N>>(psi, chi, eta);
  // One statement for all equals the single applications, to the bit.
  M.apply(batch_out, batch);
  M.apply(out, psi);
  single = element<0>(batch_out);
  EXPECT_TRUE(fields_near(single, out, 0.0));
  M.apply(out, chi);
  single = element<1>(batch_out);
  EXPECT_TRUE(fields_near(single, out, 0.0));
  M.apply(out, eta);
  single = element<2>(batch_out);
  EXPECT_TRUE(fields_near(single, out, 0.0));
  // The even-odd batch solve meets every right-hand side's tolerance with M.
  const SolverControl control{1e-10, 10000};
  x = zero;
  const SolverReport report = solve_wilson_even_odd(M, x, batch, control);
  const std::vector<double> residuals = relative_residuals(M, x, batch);
  ASSERT_EQ(residuals.size(), static_cast<std::size_t>(N));
  for (int k = 0; k < N; ++k) EXPECT_LE(residuals[k], control.tolerance) << "right-hand side " << k;
  EXPECT_EQ(report.rhs_true_residuals, residuals);
}

}  // namespace
}  // namespace latte::testing::fermion_boundary
