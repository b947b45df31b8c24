// The monomials of 2+1-flavour hybrid Monte Carlo: the rational
// pseudofermion (solvers/qcd/update/rational_monomial.hpp), the Hasenbusch
// ratio (hasenbusch_monomial.hpp) and the clover log det of one flavour.
// - the heatbath draws what the action weighs: right after the refresh the
//   rational action, computed by multi-shift solves, equals eta^+ eta to the
//   approximations' errors (1, 2 and 3 flavours, Wilson and clover);
// - every force is the numerical derivative of its action;
// - a 2+1 trajectory on three time scales is reversible: forward, momenta
//   flipped, backward returns links to 1e-9 and H to 1e-9;
// - <exp(-dH)> = 1 on a short 2+1 chain (Wilson).
// Heavy quarks on 4^4 keep the solves short.

#include <cmath>
#include <type_traits>
#include <vector>

#include "hmc_test_support.hpp"
#include "rational_test_approximations.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hasenbusch_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/rational_monomial.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

class RationalHmc : public ::testing::Test {
 protected:
  // Near equilibrium of the quenched action at beta = 5.6 (hmc_test_support.hpp).
  void thermalised_quenched() { thermalise_quenched(U, gauge); }
  // The approximations of f flavours in n pseudofermions on [0.2, 80], an
  // interval that holds every spectrum of these tests' heavy quarks
  // (checked below), to 1e-10: read from tests/rational_cache
  // (rational_test_approximations.hpp).
  static RationalPseudofermionApproximations approximations(int flavours, int pseudofermions) {
    return rational_test_approximations(flavours, pseudofermions);
  }

  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
  GaugeMonomial<double> gauge{GaugeAction::wilson(5.6)};
  PseudofermionSolves tight{{1e-13, 100000, false}, {1e-13, 100000, false}};
  WilsonParameters wilson{0.4, FermionBoundary::antiperiodic_in_time()};
  CloverParameters clover{0.4, 1.2, FermionBoundary::antiperiodic_in_time()};
};

// phi^+ r_action(A) phi = eta^+ r_heatbath(A) r_action(A) r_heatbath(A) eta,
// and each factor's relative error is below its approximation's error on
// the spectrum, so the action after the refresh is eta^+ eta within
// 2 error(heatbath) + error(action) (plus the solves' 1e-13).
template <class Action>
void expect_heatbath_matches_action(RationalMonomial<Action>& quarks, const GaugeField<double>& U, const char* name) {
  const SpectralBounds bounds = quarks.spectral_bounds(U);
  const RationalPseudofermionApproximations& r = quarks.approximations();
  ASSERT_GT(bounds.smallest - bounds.smallest_error, r.action.lower) << name << ": the spectrum leaves the interval";
  ASSERT_LT(bounds.largest + bounds.largest_error, r.action.upper) << name << ": the spectrum leaves the interval";
  quarks.refresh(U, 99);
  const double drawn = quarks.action(U);  // eta^+ eta
  const double computed = quarks.action(U);
  const double bound = 2 * r.heatbath.error + r.action.error + 1e-11;
  EXPECT_LT(std::abs(computed / drawn - 1), bound) << name << ": eta^+ eta = " << drawn << ", S = " << computed;
  EXPECT_GT(quarks.tally().iterations, 0);
}

TEST_F(RationalHmc, HeatbathDrawsWhatTheActionWeighs) {
  thermalised_quenched();
  RationalMonomial<WilsonAction<double>> one(geometry, wilson, true, approximations(1, 1), 1, tight);
  expect_heatbath_matches_action(one, U, "one Wilson flavour, even-odd");
  EXPECT_EQ(one.flavours(), 1.0);
  RationalMonomial<WilsonAction<double>> two(geometry, wilson, true, approximations(2, 2), 2, tight);
  expect_heatbath_matches_action(two, U, "two Wilson flavours in two pseudofermions, even-odd");
  EXPECT_EQ(two.flavours(), 2.0);
  RationalMonomial<CloverAction<double>> three(geometry, clover, true, approximations(3, 2), 2, tight);
  expect_heatbath_matches_action(three, U, "three clover flavours in two pseudofermions, even-odd");
  EXPECT_EQ(three.flavours(), 3.0);
  RationalMonomial<WilsonAction<double>> whole(geometry, wilson, false, approximations(1, 1), 1, tight);
  expect_heatbath_matches_action(whole, U, "one Wilson flavour, unpreconditioned");
}

TEST_F(RationalHmc, RationalForceIsTheDerivativeOfItsAction) {
  rough_gauge_field(U, 17, 0.35);
  // Lighter quarks than the other tests': one flavour's force is about half
  // a pair's, and the check wants a derivative well above rounding.
  const WilsonParameters wilson{0.2, this->wilson.boundary};
  const CloverParameters clover{0.2, 1.2, this->clover.boundary};
  RationalMonomial<WilsonAction<double>> wilson_one(geometry, wilson, true, approximations(1, 1), 1, tight);
  expect_force_is_derivative_of_action(wilson_one, U, "one Wilson flavour, even-odd");
  RationalMonomial<WilsonAction<double>> wilson_whole(geometry, wilson, false, approximations(1, 1), 1, tight);
  expect_force_is_derivative_of_action(wilson_whole, U, "one Wilson flavour, unpreconditioned");
  RationalMonomial<CloverAction<double>> clover_two(geometry, clover, true, approximations(1, 2), 2, tight);
  expect_force_is_derivative_of_action(clover_two, U, "one clover flavour in two pseudofermions, even-odd");
  CloverDeterminantMonomial<double> one_flavour_det(clover, 1.0);
  expect_force_is_derivative_of_action(one_flavour_det, U, "clover log det of one flavour");
}

TEST_F(RationalHmc, HasenbuschForceIsTheDerivativeOfItsAction) {
  rough_gauge_field(U, 19, 0.35);
  const WilsonParameters wilson_heavy{0.9, wilson.boundary};
  const CloverParameters clover_heavy{0.9, clover.c_sw, clover.boundary};
  HasenbuschRatioMonomial<WilsonAction<double>> wilson_ratio(geometry, wilson, wilson_heavy, true, tight);
  expect_force_is_derivative_of_action(wilson_ratio, U, "Wilson ratio, even-odd");
  HasenbuschRatioMonomial<WilsonAction<double>> wilson_whole(geometry, wilson, wilson_heavy, false, tight);
  expect_force_is_derivative_of_action(wilson_whole, U, "Wilson ratio, unpreconditioned");
  HasenbuschRatioMonomial<CloverAction<double>> clover_ratio(geometry, clover, clover_heavy, true, tight);
  expect_force_is_derivative_of_action(clover_ratio, U, "clover ratio, even-odd");
}

// A ratio's heatbath: S = eta^+ eta after the refresh, and the ratio of
// equal masses is no monomial at all (S = |phi|^2 for any links).
TEST_F(RationalHmc, HasenbuschHeatbathDrawsWhatTheActionWeighs) {
  thermalised_quenched();
  HasenbuschRatioMonomial<CloverAction<double>> ratio(geometry, clover, {0.9, clover.c_sw, clover.boundary}, true, tight);
  ratio.refresh(U, 5);
  const double drawn = ratio.action(U), computed = ratio.action(U);
  EXPECT_NEAR(computed / drawn, 1.0, 1e-10);
  HasenbuschRatioMonomial<WilsonAction<double>> equal(geometry, wilson, wilson, true, tight);
  equal.refresh(U, 6);
  equal.action(U);
  GaugeField<double> other(geometry);
  rough_gauge_field(other, 3, 0.3);
  EXPECT_NEAR(equal.action(other), equal.action(U), 1e-9 * equal.action(U));
}

TEST_F(RationalHmc, ApproximationsOfTheWrongPowerAreRefused) {
  EXPECT_THROW(approximations(2, 1), std::invalid_argument);  // x^-1: TwoFlavourMonomial
  EXPECT_THROW(approximations(0, 1), std::invalid_argument);
  RationalPseudofermionApproximations mismatched{approximations(1, 1).action, approximations(1, 2).heatbath};
  EXPECT_THROW(RationalMonomial<WilsonAction<double>>(geometry, wilson, true, mismatched), std::invalid_argument);
}

// The light pair as a Hasenbusch ratio and a heavier pair, the strange
// quark by one rational pseudofermion, on three time scales; for clover with
// the log dets of the light and strange masses beside them.
template <class Action> struct TwoPlusOne {
  using Parameters = typename Action::Parameters;
  static constexpr bool clover = std::is_same_v<Action, CloverAction<double>>;
  static Parameters at(double mass) {
    if constexpr (clover) return {mass, 1.0, FermionBoundary::antiperiodic_in_time()};
    else return {mass, FermionBoundary::antiperiodic_in_time()};
  }
  TwoPlusOne(const Geometry& geometry, const PseudofermionSolves& solves, const RationalPseudofermionApproximations& r)
      : ratio(geometry, light, heavy, true, solves), heavy_pair(geometry, heavy, true, solves),
        strange_quark(geometry, strange, true, r, 1, solves) {}
  Parameters light = at(0.3), heavy = at(0.8), strange = at(0.5);
  GaugeMonomial<double> gauge{GaugeAction::wilson(5.6)};
  HasenbuschRatioMonomial<Action> ratio;
  TwoFlavourMonomial<Action> heavy_pair;
  RationalMonomial<Action> strange_quark;
  CloverDeterminantMonomial<double> light_det{CloverParameters{0.3, 1.0, {}}, 2.0}, strange_det{CloverParameters{0.5, 1.0, {}}, 1.0};
  std::vector<Monomial<double>*> fermions() {
    if constexpr (clover) return {&heavy_pair, &strange_quark, &light_det, &strange_det};
    else return {&heavy_pair, &strange_quark};
  }
  std::vector<Monomial<double>*> all() {
    std::vector<Monomial<double>*> m = fermions();
    m.push_back(&ratio);
    m.push_back(&gauge);
    return m;
  }
  MolecularDynamics<double> integrator() {
    return MolecularDynamics<double>({{IntegratorScheme::omelyan, 2, {&ratio}},
                                      {IntegratorScheme::omelyan, 1, fermions()},
                                      {IntegratorScheme::leapfrog, 3, {&gauge}}});
  }
};

TEST_F(RationalHmc, TwoPlusOneTrajectoryIsReversibleInLinksAndEnergy) {
  thermalised_quenched();
  TwoPlusOne<CloverAction<double>> action(geometry, tight, approximations(1, 1));
  MolecularDynamics<double> md = action.integrator();
  GaugeField<double> start(geometry);
  AlgebraField<double> P(geometry), P_start(geometry);
  for (int mu = 0; mu < 4; ++mu) start[mu] = U[mu];
  refresh_momenta(P, 11);
  for (int mu = 0; mu < 4; ++mu) P_start[mu] = P[mu];
  std::uint64_t key = 12;
  for (Monomial<double>* m : action.all()) {
    m->refresh(U, key++);
    m->action(U);  // the heatbath's eta^+ eta: every H below comes from solves
  }
  auto hamiltonian = [&] {
    double h = kinetic_energy(P);
    for (Monomial<double>* m : action.all()) h += m->action(U);
    return h;
  };
  const double h_start = hamiltonian();
  md.integrate(U, P, 0.5);
  const double h_end = hamiltonian();
  EXPECT_GT(largest_link_difference(U, start), 0.05) << "the links should move";
  for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
  md.integrate(U, P, 0.5);
  const double h_back = hamiltonian();
  for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
  EXPECT_LT(largest_link_difference(U, start), 1e-9);
  EXPECT_LT(largest_link_difference(P, P_start), 1e-8);
  EXPECT_GT(std::abs(h_end - h_start), 1e-6) << "a trajectory should violate H";
  EXPECT_LT(std::abs((h_end - h_start) + (h_back - h_end)), 1e-9)
      << "forward dH = " << h_end - h_start << ", backward dH = " << h_back - h_end;
}

TEST_F(RationalHmc, ExpMinusDeltaHAveragesToOneOnATwoPlusOneChain) {
  thermalised_quenched();
  // Wilson quarks: the clover parts are in the reversibility test above and
  // the decomposition test's chain, and Wilson's chain is cheaper.
  TwoPlusOne<WilsonAction<double>> action(geometry, {}, approximations(1, 1));
  MolecularDynamics<double> md = action.integrator();
  HybridMonteCarlo<double> hmc(U, md, action.all(), {1.0, 2031, true});
  for (int i = 0; i < 3; ++i) hmc.trajectory();  // the quarks' equilibrium
  const int n = 16;
  const ChainAverages a = run_and_average(hmc, n);
  EXPECT_NEAR(a.exp_minus_delta_h, 1.0, 2.5 * a.error + 0.01) << "<exp(-dH)> = " << a.exp_minus_delta_h << " +- " << a.error;
  EXPECT_GT(a.accepted, n / 2);
  EXPECT_GT(action.strange_quark.tally().iterations, 0);
  EXPECT_GT(action.ratio.tally().iterations, 0);
}

}  // namespace
}  // namespace latte::testing
