// Hybrid Monte Carlo (solvers/qcd/update/hmc.hpp): the integrators' reversibility
// and their dH ~ h^2 scaling, <exp(-dH)> = 1 in equilibrium, the weak-coupling
// plaquette 1 - <P> = 2/beta + O(1/beta^2) derived below, the Metropolis
// step restoring the links on rejection, and a checkpoint restart that
// continues with the same bits.

#include <filesystem>

#include "hmc_test_support.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// A rough field: exp(0.5 X) with gaussian X on every link.
void rough_field(GaugeField<double>& U, std::uint64_t seed) { rough_gauge_field(U, seed, 0.5); }

class Hmc : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
};

TEST_F(Hmc, IntegratorsAreReversible) {
  // Forward, flip the momenta, forward again: back at the start (1e-10).
  GaugeMonomial<double> half_a(GaugeAction::wilson(3.0)), half_b(GaugeAction::wilson(3.0)),
      iwasaki(GaugeAction::iwasaki(2.5));
  struct Case {
    const char* name;
    std::vector<IntegratorLevel<double>> levels;
  };
  const std::vector<Case> cases = {
      {"leapfrog", {{IntegratorScheme::leapfrog, 7, {&iwasaki}}}},
      {"omelyan", {{IntegratorScheme::omelyan, 4, {&iwasaki}}}},
      {"nested omelyan over leapfrog", {{IntegratorScheme::omelyan, 2, {&half_a}}, {IntegratorScheme::leapfrog, 3, {&half_b}}}},
  };
  for (const Case& c : cases) {
    rough_field(U, 5);
    GaugeField<double> start(geometry);
    AlgebraField<double> P(geometry), P_start(geometry);
    for (int mu = 0; mu < 4; ++mu) start[mu] = U[mu];
    refresh_momenta(P, 6);
    for (int mu = 0; mu < 4; ++mu) P_start[mu] = P[mu];
    MolecularDynamics<double> md(c.levels);
    md.integrate(U, P, 1.0);
    EXPECT_GT(largest_link_difference(U, start), 0.1) << c.name << ": the links should move";
    for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
    md.integrate(U, P, 1.0);
    EXPECT_LT(largest_link_difference(U, start), 1e-10) << c.name;
    for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
    EXPECT_LT(largest_link_difference(P, P_start), 1e-10) << c.name;
  }
}

TEST_F(Hmc, EnergyViolationScalesAsTheStepSquared) {
  GaugeMonomial<double> wilson(GaugeAction::wilson(5.5));
  // An equilibrium configuration: a few trajectories from the unit field.
  U.set_unit();
  {
    MolecularDynamics<double> md({{IntegratorScheme::omelyan, 4, {&wilson}}});
    HybridMonteCarlo<double> hmc(U, md, {&wilson}, {1.0, 15, true});
    for (int i = 0; i < 10; ++i) hmc.trajectory();
  }
  GaugeField<double> thermalised(geometry);
  for (int mu = 0; mu < 4; ++mu) thermalised[mu] = U[mu];
  double coefficient[2] = {0, 0};
  for (const IntegratorScheme scheme : {IntegratorScheme::leapfrog, IntegratorScheme::omelyan}) {
    std::vector<double> steps, violations;
    for (const int n : {5, 10, 20, 40}) {
      for (int mu = 0; mu < 4; ++mu) U[mu] = thermalised[mu];
      MolecularDynamics<double> md({{scheme, n, {&wilson}}});
      HybridMonteCarlo<double> hmc(U, md, {&wilson}, {1.0, 12, false});
      violations.push_back(hmc.trajectory().delta_h);
      steps.push_back(1.0 / n);
    }
    const double slope = log_log_slope(steps, violations);
    EXPECT_NEAR(slope, 2.0, 0.2) << to_string(scheme) << ": |dH| = " << violations[0] << " ... " << violations[3];
    coefficient[scheme == IntegratorScheme::omelyan] = std::abs(violations[3]) * 40 * 40;
  }
  // Omelyan's minimum-norm scheme has the smaller error at equal steps.
  EXPECT_LT(coefficient[1], 0.5 * coefficient[0]);
}

TEST_F(Hmc, ExpMinusDeltaHAveragesToOneInEquilibrium) {
  GaugeMonomial<double> wilson(GaugeAction::wilson(5.7));
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 3, {&wilson}}});
  U.set_unit();
  HybridMonteCarlo<double> hmc(U, md, {&wilson}, {1.0, 2027, true});
  for (int i = 0; i < 20; ++i) hmc.trajectory();  // thermalise
  const int n = 60;
  const ChainAverages a = run_and_average(hmc, n);
  EXPECT_NEAR(a.exp_minus_delta_h, 1.0, 2 * a.error)
      << "<exp(-dH)> = " << a.exp_minus_delta_h << " +- " << a.error << ", <dH> = " << a.delta_h;
  EXPECT_GT(a.delta_h, 0.0);  // <dH> >= 0 by Jensen's inequality
  EXPECT_GT(a.accepted, n / 2);
}

// Weak coupling: expand S about the classical vacuum. Of the 8 x 4V link
// coordinates, 8(V - 1) are gauge directions (no action) and 8 x 4 the
// constant modes, whose action is quartic; the remaining 24(V - 1) are
// gaussian, each carrying 1/2 to <S> (equipartition). So
// <S> = beta * 6V (1 - <P>) = 12 (V - 1) + O(1): 1 - <P> = 2/beta + O(1/beta^2)
// (the O(1/V) parts are below 0.5 % on 4^4). The next order, 1.22/beta^2 in
// infinite volume, is 1.2 % of 2/beta at beta = 100.
TEST_F(Hmc, WeakCouplingPlaquetteApproachesTwoOverBeta) {
  for (const double beta : {50.0, 100.0}) {
    GaugeMonomial<double> wilson(GaugeAction::wilson(beta));
    // The highest modes oscillate with omega ~ sqrt(8 beta): steps of
    // h = 0.03 keep h omega below one (a leapfrog-type scheme is unstable
    // beyond about 2, and a chain that rejects everything stays cold).
    // From the cold start the plaquette settles within some ten unit
    // trajectories.
    MolecularDynamics<double> md({{IntegratorScheme::omelyan, 30, {&wilson}}});
    U.set_unit();
    HybridMonteCarlo<double> hmc(U, md, {&wilson}, {1.0, 99, true});
    for (int i = 0; i < 15; ++i) hmc.trajectory();
    double mean = 0, square = 0;
    const int n = 25;
    int accepted = 0;
    for (int i = 0; i < n; ++i) {
      const TrajectoryRecord r = hmc.trajectory();
      const double x = beta * (1.0 - r.plaquette);
      accepted += r.accepted;
      mean += x;
      square += x * x;
    }
    EXPECT_GT(accepted, n * 3 / 4) << "beta = " << beta;
    mean /= n;
    const double error = std::sqrt((square / n - mean * mean) / (n - 1));
    const double expected = 2.0 + 1.22 / beta;
    EXPECT_NEAR(mean, expected, 3 * error + 0.01) << "beta = " << beta << ": beta (1 - <P>) = " << mean << " +- " << error;
    EXPECT_LT(error, 0.03);
  }
}

TEST_F(Hmc, RejectedTrajectoryRestoresTheLinksAndTheChainRestartsWithTheSameBits) {
  GaugeMonomial<double> wilson(GaugeAction::wilson(6.0));
  // One leapfrog step over a whole unit of time: dH of order 100, rejected.
  {
    MolecularDynamics<double> coarse({{IntegratorScheme::leapfrog, 1, {&wilson}}});
    rough_field(U, 3);
    GaugeField<double> start(geometry);
    for (int mu = 0; mu < 4; ++mu) start[mu] = U[mu];
    HybridMonteCarlo<double> hmc(U, coarse, {&wilson}, {2.0, 4, true});
    const TrajectoryRecord r = hmc.trajectory();
    EXPECT_GT(r.delta_h, 50.0);
    EXPECT_FALSE(r.accepted);
    EXPECT_EQ(largest_link_difference(U, start), 0.0);
  }
  // Four trajectories straight, and two + checkpoint + two from the file.
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 3, {&wilson}}});
  const std::string prefix = (std::filesystem::temp_directory_path() / "latte_hmc_checkpoint_test").string();
  std::vector<TrajectoryRecord> straight, resumed;
  GaugeField<double> V(geometry);
  rough_field(U, 21);
  for (int mu = 0; mu < 4; ++mu) V[mu] = U[mu];
  {
    HybridMonteCarlo<double> hmc(U, md, {&wilson}, {1.0, 77, true});
    for (int i = 0; i < 4; ++i) straight.push_back(hmc.trajectory());
  }
  {
    HybridMonteCarlo<double> hmc(V, md, {&wilson}, {1.0, 77, true});
    for (int i = 0; i < 2; ++i) resumed.push_back(hmc.trajectory());
    hmc.save_checkpoint(prefix);
  }
  GaugeField<double> W(geometry);
  W.set_unit();
  HybridMonteCarlo<double> hmc(W, md, {&wilson}, {1.0, 77, true});
  hmc.restore_checkpoint(prefix);
  EXPECT_EQ(hmc.next_trajectory(), 2u);
  for (int i = 0; i < 2; ++i) resumed.push_back(hmc.trajectory());
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(resumed[i].trajectory, straight[i].trajectory);
    EXPECT_EQ(resumed[i].delta_h, straight[i].delta_h) << "trajectory " << i;
    EXPECT_EQ(resumed[i].accepted, straight[i].accepted) << "trajectory " << i;
    EXPECT_EQ(resumed[i].plaquette, straight[i].plaquette) << "trajectory " << i;
  }
  EXPECT_EQ(largest_link_difference(U, W), 0.0);
  // A checkpoint of another chain is refused, naming the file.
  HybridMonteCarlo<double> other(W, md, {&wilson}, {1.0, 78, true});
  EXPECT_NE(error_of<GaugeFileError>([&] { other.restore_checkpoint(prefix); }).find("seed 77"), std::string::npos);
  std::filesystem::remove(prefix + ".hmc");
  std::filesystem::remove(prefix + ".nersc");
}

}  // namespace
}  // namespace latte::testing
