// Twisted-mass Wilson and clover quarks (solvers/qcd/fermions/twisted_mass.hpp):
// - gamma_5-hermiticity: M(-mu) = gamma_5 M(mu)^+ gamma_5, and on the whole
//   lattice M(mu)^+ M(mu) = M^+ M + mu^2;
// - the blocks: the twisted diagonal's inverse undoes it (both parities and
//   signs), and the Schur complement is the whole operator with the odd
//   sites eliminated;
// - in hybrid Monte Carlo: the doublet's pseudofermion force (even-odd and
//   not) and the twisted clover log det's force against the numerical
//   derivative of their actions; a nested trajectory is reversible.

#include <cmath>

#include "hmc_test_support.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/fermions/twisted_mass.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using Field = Lattice<Spinor<double>>;
using TwistedWilson = TwistedMass<WilsonAction<double>>;
using TwistedClover = TwistedMass<CloverAction<double>>;

double relative_difference(const Field& a, const Field& b) { return std::sqrt(norm2(a - b) / norm2(b)); }

class TwistedMassTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rough_gauge_field(U, 23, 0.3);
    ParallelRng rng(31);
    rng.gaussian(psi);
  }
  // The whole-lattice identities for one action type.
  template <class Twisted>
  void expect_gamma5_hermiticity(const typename Twisted::Parameters& plus, const char* name) {
    typename Twisted::Parameters minus = plus, untwisted = plus;
    minus.mu = -plus.mu;
    untwisted.mu = 0;
    const FermionOperator<Twisted> M_plus{Twisted(U, plus)}, M_minus{Twisted(U, minus)}, M{Twisted(U, untwisted)};
    Field a(geometry), b(geometry), c(geometry);
    // M(-mu) psi = gamma_5 M(mu)^+ gamma_5 psi
    c = gamma5(psi);
    M_plus.apply_dagger(b, c);
    c = gamma5(b);
    M_minus.apply(a, psi);
    EXPECT_LT(relative_difference(a, c), 1e-13) << name;
    // M(mu)^+ M(mu) psi = M^+ M psi + mu^2 psi
    M_plus.apply(b, psi);
    M_plus.apply_dagger(a, b);
    M.apply(b, psi);
    M.apply_dagger(c, b);
    c = c + (plus.mu * plus.mu) * psi;
    EXPECT_LT(relative_difference(a, c), 1e-13) << name;
    M_plus.apply(b, psi);
    M.apply(c, psi);
    EXPECT_GT(relative_difference(b, c), 1e-3) << name << ": the twist should change M";
  }
  // The blocks against the whole operator, for one action type.
  template <class Twisted> void expect_blocks_match(const typename Twisted::Parameters& parameters, const char* name) {
    const Twisted action(U, parameters);
    const EvenOddOperator<typename Twisted::EvenOddAction> schur{typename Twisted::EvenOddAction(action)};
    const Geometry& even = schur.geometry();
    const Geometry& odd = schur.odd_geometry();
    Field e(even), o(odd), back(odd);
    e = pick(Parity::even, psi);
    o = pick(Parity::odd, psi);
    back = schur.template MooInv<+1>(schur.template Moo<+1>(o));
    EXPECT_LT(relative_difference(back, o), 1e-13) << name << ": Moo^-1 Moo";
    back = schur.template MooInv<-1>(schur.template Moo<-1>(o));
    EXPECT_LT(relative_difference(back, o), 1e-13) << name << ": (Moo^+)^-1 Moo^+";
    Field e_back(even);
    e_back = schur.template MeeInv<+1>(schur.template Mee<+1>(e));
    EXPECT_LT(relative_difference(e_back, e), 1e-13) << name << ": Mee^-1 Mee";
    // x = (x_e, -Moo^-1 Moe x_e) gives M x = (Mhat x_e, 0).
    Field x_odd(odd), x(geometry), Mx(geometry), Mhat_e(even), Mx_even(even), Mx_odd(odd);
    x_odd = -schur.template MooInv<+1>(schur.template Moe<+1>(e));
    x = merge(e, x_odd);
    FermionOperator<Twisted>(action).apply(Mx, x);
    schur.apply(Mhat_e, e);
    Mx_even = pick(Parity::even, Mx);
    Mx_odd = pick(Parity::odd, Mx);
    EXPECT_LT(relative_difference(Mx_even, Mhat_e), 1e-13) << name << ": Mhat";
    EXPECT_LT(std::sqrt(norm2(Mx_odd) / norm2(e)), 1e-13) << name << ": the odd sites eliminated";
  }

  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  Field psi{geometry};
  TwistedMassParameters<WilsonParameters> wilson{{0.1, FermionBoundary::antiperiodic_in_time()}, 0.25};
  TwistedMassParameters<CloverParameters> clover{{0.1, 1.3, FermionBoundary::antiperiodic_in_time()}, 0.25};
};

TEST_F(TwistedMassTest, IsGammaFiveHermitianAndAddsMuSquaredToTheNormalOperator) {
  expect_gamma5_hermiticity<TwistedWilson>(wilson, "Wilson");
  expect_gamma5_hermiticity<TwistedClover>(clover, "clover");
}

TEST_F(TwistedMassTest, EvenOddBlocksAreTheWholeOperator) {
  expect_blocks_match<TwistedWilson>(wilson, "Wilson");
  expect_blocks_match<TwistedClover>(clover, "clover");
}

TEST_F(TwistedMassTest, DoubletForcesAreTheDerivativesOfTheirActions) {
  rough_gauge_field(U, 29, 0.35);
  const PseudofermionSolves tight{{1e-13, 100000, false}, {1e-13, 100000, false}};
  TwoFlavourMonomial<TwistedWilson> wilson_even_odd(geometry, wilson, true, tight);
  expect_force_is_derivative_of_action(wilson_even_odd, U, "twisted Wilson doublet, even-odd");
  TwoFlavourMonomial<TwistedWilson> wilson_whole(geometry, wilson, false, tight);
  expect_force_is_derivative_of_action(wilson_whole, U, "twisted Wilson doublet, unpreconditioned");
  TwoFlavourMonomial<TwistedClover> clover_even_odd(geometry, clover, true, tight);
  expect_force_is_derivative_of_action(clover_even_odd, U, "twisted clover doublet, even-odd");
  CloverDeterminantMonomial<double> twisted_det(clover.base, 2.0, clover.mu);
  // A log det's derivative is smaller than a pseudofermion's (0.42 here).
  expect_force_is_derivative_of_action(twisted_det, U, "twisted clover log det", 0.1);
  // Its action is -sum log det(T^2 + mu^2) over the odd sites: at mu = 0 the
  // untwisted -2 sum log det T.
  CloverDeterminantMonomial<double> untwisted(clover.base, 2.0), zero_twist(clover.base, 2.0, 1e-300);
  EXPECT_NEAR(zero_twist.action(U), untwisted.action(U), 1e-10 * std::abs(untwisted.action(U)));
}

TEST_F(TwistedMassTest, TwistedCloverTrajectoryIsReversible) {
  rough_gauge_field(U, 37, 0.2);
  const PseudofermionSolves tight{{1e-12, 100000, false}, {1e-12, 100000, false}};
  TwoFlavourMonomial<TwistedClover> doublet(geometry, clover, true, tight);
  CloverDeterminantMonomial<double> det(clover.base, 2.0, clover.mu);
  GaugeMonomial<double> gauge(GaugeAction::wilson(5.6));
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 2, {&doublet, &det}}, {IntegratorScheme::leapfrog, 2, {&gauge}}});
  GaugeField<double> start(geometry);
  AlgebraField<double> P(geometry);
  for (int mu = 0; mu < 4; ++mu) start[mu] = U[mu];
  refresh_momenta(P, 41);
  doublet.refresh(U, 43);
  md.integrate(U, P, 0.4);
  EXPECT_GT(largest_link_difference(U, start), 0.05);
  for (int mu = 0; mu < 4; ++mu) P[mu] = -P[mu];
  md.integrate(U, P, 0.4);
  EXPECT_LT(largest_link_difference(U, start), 1e-9);
}

}  // namespace
}  // namespace latte::testing
