#pragma once
// The fermion-action interface: what a lattice Dirac operator supplies so
// that its operators, its even-odd Schur complement, its solves (double and
// mixed precision) and its two-flavour pseudofermion in hybrid Monte Carlo
// are written once (solvers/qcd/fermions/fermion_operator.hpp,
// even_odd_operator.hpp, solvers/qcd/solves/even_odd_solve.hpp,
// defect_correction.hpp, solvers/qcd/update/pseudofermion_monomial.hpp).
// A new action (clover, twisted mass, a test's toy) writes only the members
// below, each returning a DSL expression or running a few statements;
// Wilson is solvers/qcd/fermions/wilson_dirac.hpp (whole lattice) and
// wilson_even_odd.hpp (blocks), clover clover_action.hpp.
//
// Conventions. Every member template takes Sign: +1 for M, -1 for its adjoint
// M^+. Ordering the sites by parity,
//       M = [ Mee  Meo ]      Meo = kappa H_eo,   Moe = kappa H_oe,
//           [ Moe  Moo ]
// where H is the action's hopping term (it joins neighbours, which have
// opposite parities), kappa a real number (Wilson: -1/2) and Mee, Moo the
// site-diagonal part: anything invertible site by site, a number (Wilson:
// 4 + m) or a matrix field that differs from site to site (clover). The
// blocks of M^+ are (M^+)_ee = Mee^+, (M^+)_eo = (Moe)^+ = kappa (H^+)_eo,
// so the action's Sign = -1 members give the blocks of M^+, and every
// formula written with Sign holds for M^+ with Sign = -1.
//
// kappa is kept apart from H, instead of the action returning Meo whole,
// so that a constant diagonal can be folded into one coefficient: Wilson's
// Schur complement stays A - kappa^2 / A H_eo H_oe, one multiplication per
// site fewer, with the statements (and so the bits) it always had.
//
// Forces. Links move as U_mu(x) -> exp(s w) U_mu(x), w in su(3)
// (solvers/qcd/update/molecular_dynamics.hpp). A pseudofermion's action
// varies as dS = -2 Re(Y^+ dM X) for two spinor fields X, Y on the whole
// lattice (solvers/qcd/fermions/fermion_force.hpp derives it), and
// dM = kappa dH + d(diagonal): the blocks supply the two parts. A part
// with dS = sum_{x,mu} Re tr(w_mu(x) O_mu(x)) adds
//       P_mu += coefficient Ta(O_mu)
// to a momentum field P (coefficient = eps / 2 is the momentum step
// P -= eps F). A diagonal that does not depend on the links (Wilson's
// 4 + m, a twisted mass i mu gamma_5 tau_3, the toy's fixed matrices) has
// a diagonal part that does nothing.

#include <concepts>
#include <string>
#include <vector>

#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

// An action on the whole lattice: M and M^+ as expressions.
//   real_type, width_type     the precision and SIMD width of its fields
//   flops_per_site            of M psi, per right-hand side
//   profile_name, adjoint_profile_name   the profile regions of M and M^+
//   geometry()                the lattice M acts on
//   M<Sign>(psi)              M psi (Sign = +1) or M^+ psi (-1); psi may be a
//                             batch of right-hand sides (MultiSpinor)
//   parameters(), describe()  the numbers that define it besides its fields
//                             (compared exactly to check that two operators
//                             belong together) and their text for messages
template <class A>
concept FermionAction = requires(const A& action, const Lattice<Spinor<typename A::real_type>, typename A::width_type>& psi) {
  { A::flops_per_site } -> std::convertible_to<double>;
  { A::profile_name } -> std::convertible_to<const char*>;
  { A::adjoint_profile_name } -> std::convertible_to<const char*>;
  { action.geometry() } -> std::convertible_to<const Geometry&>;
  action.template M<+1>(psi);
  action.template M<-1>(psi);
  { action.parameters() } -> std::convertible_to<std::vector<double>>;
  { action.describe() } -> std::convertible_to<std::string>;
};

// The even-odd blocks of an action (fields live on one checkerboard).
//   even_geometry(), odd_geometry()     the two checkerboards
//   hopping_coefficient()               kappa
//   hopping_to_even<Sign>(odd_field)    H_eo (Sign = -1: (H^+)_eo)
//   hopping_to_odd<Sign>(even_field)    H_oe (Sign = -1: (H^+)_oe)
//   diagonal<Sign>(parity, psi)         Mee psi or Moo psi (Sign = -1: their adjoints)
//   diagonal_inverse<Sign>(parity, psi) Mee^-1 psi or Moo^-1 psi (Sign = -1:
//                                       (Mee^+)^-1 psi ...), e.g. a site-by-
//                                       site product with a precomputed inverse
//   add_hopping_force(X, Y, P, c)       P += c Ta(O) for the hopping part of
//                                       dS = -2 Re(Y^+ dM X), -2 kappa Re(Y^+ dH X)
//   add_diagonal_force(X, Y, P, c)      the same for the diagonal part,
//                                       -2 Re(Y^+ d(diagonal) X): nothing where
//                                       the diagonal does not depend on the links
//                                       (X, Y on the whole lattice; "Forces" above)
//   hopping_flops_per_site, diagonal_flops_per_site
//                                       per site of its parity and right-hand
//                                       side, for the solvers' flop counts
//   parameters(), describe()            as for FermionAction
// psi may be an expression, and may be a batch of right-hand sides.
template <class A>
concept EvenOddFermionAction = requires(const A& action,
                                        const Lattice<Spinor<typename A::real_type>, typename A::width_type>& psi,
                                        GaugeField<typename A::real_type, typename A::width_type>& P) {
  { A::hopping_flops_per_site } -> std::convertible_to<double>;
  { A::diagonal_flops_per_site } -> std::convertible_to<double>;
  { action.even_geometry() } -> std::convertible_to<const Geometry&>;
  { action.odd_geometry() } -> std::convertible_to<const Geometry&>;
  { action.hopping_coefficient() } -> std::convertible_to<double>;
  action.template hopping_to_even<+1>(psi);
  action.template hopping_to_even<-1>(psi);
  action.template hopping_to_odd<+1>(psi);
  action.template hopping_to_odd<-1>(psi);
  action.template diagonal<+1>(Parity::even, psi);
  action.template diagonal<-1>(Parity::even, psi);
  action.template diagonal_inverse<+1>(Parity::odd, psi);
  action.template diagonal_inverse<-1>(Parity::odd, psi);
  action.add_hopping_force(psi, psi, P, 0.5);
  action.add_diagonal_force(psi, psi, P, 0.5);
  { action.parameters() } -> std::convertible_to<std::vector<double>>;
  { action.describe() } -> std::convertible_to<std::string>;
};

// An action whose diagonal is one real number A on every site (Wilson's
// 4 + m): constant_diagonal() returns it, and diagonal / diagonal_inverse
// must be A psi and (1 / A) psi. The generic code then folds 1 / A into the
// hopping coefficient instead of applying Moo^-1 to a field.
template <class A>
concept ConstantDiagonal = EvenOddFermionAction<A> && requires(const A& action) {
  { action.constant_diagonal() } -> std::convertible_to<double>;
};

// An action that hybrid Monte Carlo can evolve: made again from the links
// at every step of the molecular dynamics, with its even-odd blocks made
// from it (solvers/qcd/update/pseudofermion_monomial.hpp).
//   Parameters                 the numbers that define it besides the links
//                              (WilsonParameters: m and the boundary), with
//                              describe() for messages
//   A(U, parameters)           the action on gauge field U (kept by
//                              reference: U must outlive it)
//   name                       "Wilson", "Wilson-clover", ...
//   EvenOddAction              its blocks, EvenOddAction(action): the same
//                              operator, and its forces
template <class A>
concept DynamicalFermionAction =
    FermionAction<A> && EvenOddFermionAction<typename A::EvenOddAction> &&
    std::constructible_from<A, const GaugeField<typename A::real_type, typename A::width_type>&,
                            const typename A::Parameters&> &&
    std::constructible_from<typename A::EvenOddAction, const A&> && requires(const typename A::Parameters& parameters) {
      { A::name } -> std::convertible_to<const char*>;
      { parameters.describe() } -> std::convertible_to<std::string>;
    };

// An action with a single-precision twin: single_precision() returns the
// float action on the same lanes (MatchingSingleWidth), with the same
// parameters, its fields rounded from the double ones (it owns them). The
// mixed-precision solves (solvers/qcd/solves/defect_correction.hpp,
// even_odd_solve.hpp) take their inner operators from it, and the even-odd
// twin is the twin's EvenOddAction.
template <class A>
concept SinglePrecisionTwin = requires(const A& action) {
  { action.single_precision() } -> FermionAction;
};

}  // namespace latte
