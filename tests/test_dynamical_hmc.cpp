// Hybrid Monte Carlo with two flavours of dynamical quarks
// (solvers/qcd/update/pseudofermion_monomial.hpp) on nested time scales: the
// integrator is reversible with the pseudofermion forces, the energy
// violation scales as the step squared, and <exp(-dH)> = 1 in equilibrium.
// Heavy quarks on 4^4 keep the solves short.

#include <cmath>
#include <vector>

#include "hmc_test_support.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

void copy_links(GaugeField<double>& to, const GaugeField<double>& from) {
  for (int mu = 0; mu < 4; ++mu) to[mu] = from[mu];
}

class DynamicalHmc : public ::testing::Test {
 protected:
  // Near equilibrium of the quenched action at beta = 5.6 (hmc_test_support.hpp).
  void thermalised_quenched() { thermalise_quenched(U, gauge); }

  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
  GaugeMonomial<double> gauge{GaugeAction::wilson(5.6)};
  PseudofermionSolves tight{{1e-12, 100000, false}, {1e-12, 100000, false}};
  WilsonParameters wilson{0.4, FermionBoundary::antiperiodic_in_time()};
  CloverParameters clover{0.4, 1.2, FermionBoundary::antiperiodic_in_time()};
};

TEST_F(DynamicalHmc, NestedIntegratorWithPseudofermionsIsReversible) {
  thermalised_quenched();
  TwoFlavourMonomial<WilsonAction<double>> wilson_quarks(geometry, wilson, true, tight);
  TwoFlavourMonomial<CloverAction<double>> clover_quarks(geometry, clover, true, tight);
  CloverDeterminantMonomial<double> clover_det(clover);
  struct Case {
    const char* name;
    Monomial<double>* quarks;
    std::vector<Monomial<double>*> inner;
  };
  for (const Case& c : {Case{"Wilson", &wilson_quarks, {&gauge}}, Case{"clover", &clover_quarks, {&gauge, &clover_det}}}) {
    GaugeField<double> start(geometry);
    copy_links(start, U);
    AlgebraField<double> P(geometry), P_start(geometry);
    refresh_momenta(P, 11);
    copy_links(P_start, P);
    c.quarks->refresh(U, 12);
    MolecularDynamics<double> md({{IntegratorScheme::omelyan, 2, {c.quarks}}, {IntegratorScheme::leapfrog, 3, c.inner}});
    md.integrate(U, P, 0.5);
    EXPECT_GT(largest_link_difference(U, start), 0.05) << c.name << ": the links should move";
    for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
    md.integrate(U, P, 0.5);
    EXPECT_LT(largest_link_difference(U, start), 1e-9) << c.name;
    for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
    EXPECT_LT(largest_link_difference(P, P_start), 1e-8) << c.name;
    copy_links(U, start);
  }
}

TEST_F(DynamicalHmc, EnergyViolationScalesAsTheStepSquared) {
  thermalised_quenched();
  GaugeField<double> start(geometry);
  copy_links(start, U);
  TwoFlavourMonomial<CloverAction<double>> quarks(geometry, clover, true, tight);
  CloverDeterminantMonomial<double> clover_det(clover);
  std::vector<double> steps, violations;
  for (const int n : {10, 20, 40}) {
    copy_links(U, start);
    // Every term on one level: the step of all forces is 1 / n.
    MolecularDynamics<double> md({{IntegratorScheme::leapfrog, n, {&quarks, &clover_det, &gauge}}});
    HybridMonteCarlo<double> hmc(U, md, {&quarks, &clover_det, &gauge}, {1.0, 21, false});
    violations.push_back(hmc.trajectory().delta_h);
    steps.push_back(1.0 / n);
  }
  EXPECT_NEAR(log_log_slope(steps, violations), 2.0, 0.25)
      << "|dH| = " << violations[0] << ", " << violations[1] << ", " << violations[2];
}

TEST_F(DynamicalHmc, ExpMinusDeltaHAveragesToOneInEquilibrium) {
  thermalised_quenched();
  TwoFlavourMonomial<WilsonAction<double>> quarks(geometry, wilson, true);
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 3, {&quarks}}, {IntegratorScheme::omelyan, 2, {&gauge}}});
  HybridMonteCarlo<double> hmc(U, md, {&quarks, &gauge}, {1.0, 2029, true});
  for (int i = 0; i < 5; ++i) hmc.trajectory();  // the quarks' equilibrium
  const int n = 40;
  const ChainAverages a = run_and_average(hmc, n);
  EXPECT_NEAR(a.exp_minus_delta_h, 1.0, 2.5 * a.error + 0.01) << "<exp(-dH)> = " << a.exp_minus_delta_h << " +- " << a.error;
  EXPECT_GT(a.accepted, n / 2);
  EXPECT_GT(quarks.tally().iterations, 0);
}

}  // namespace
}  // namespace latte::testing
