#pragma once
// The force of a pseudofermion term, written once for every monomial
// (two flavours, rational, Hasenbusch ratio) and every action.
//
// A pseudofermion action varies as dS = -2 Re(Y^+ dM X) for two spinor
// fields X, Y on the whole lattice (solvers/qcd/fermions/fermion_force.hpp);
// the blocks' add_hopping_force and add_diagonal_force turn such a term
// into momentum steps. P -= eps F is P += (eps / 2) Ta(O) for each part
// (solvers/qcd/fermions/fermion_action.hpp, "Forces").
//
// Even-odd: a term dS = -2 Re(Y_e^+ dMhat X_e) of the Schur complement
// Mhat = Mee - Meo Moo^-1 Moe (X_e, Y_e any two even fields) is the same
// formula on the whole lattice with
//   X_o = -Moo^-1 Moe X_e,      Y_o = -(Moo^+)^-1 (Meo)^+ Y_e,
// since dMhat = dMee - dMeo Moo^-1 Moe + Meo Moo^-1 dMoo Moo^-1 Moe
// - Meo Moo^-1 dMoe: the four blocks' variations sandwiched between the
// extended fields. A sum of such terms (the poles of a rational function,
// the two operators of a ratio) is a sum of calls with their weights.

#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/update/molecular_dynamics.hpp"

namespace latte {

// P -= eps F for the term dS = -2 weight Re(Y^+ dM X) (X, Y on the whole lattice).
template <class Blocks, class Field, class R, class W>
void add_pseudofermion_force(const Blocks& blocks, const Field& X, const Field& Y, AlgebraField<R, W>& P, double eps) {
  blocks.add_hopping_force(X, Y, P, 0.5 * eps);
  blocks.add_diagonal_force(X, Y, P, 0.5 * eps);
}

// P -= eps F for dS = -2 Re(Y_e^+ dMhat X_e), X_e and Y_e on the even sites.
template <class Schur, class Field, class R, class W>
void add_even_odd_pseudofermion_force(const Schur& schur, const Field& X_even, const Field& Y_even,
                                      AlgebraField<R, W>& P, double eps) {
  const Geometry& whole = P.geometry();
  Field X(whole, Uninitialized{}), Y(whole, Uninitialized{});
  Field X_odd(schur.odd_geometry(), Uninitialized{}), Y_odd(schur.odd_geometry(), Uninitialized{});
  X_odd = -schur.template MooInv<+1>(schur.template Moe<+1>(X_even));
  Y_odd = -schur.template MooInv<-1>(schur.template Moe<-1>(Y_even));
  X = merge(X_even, X_odd);
  Y = merge(Y_even, Y_odd);
  add_pseudofermion_force(schur.action(), X, Y, P, eps);
}

}  // namespace latte
