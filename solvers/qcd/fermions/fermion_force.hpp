#pragma once
// The force of a pseudofermion action through the hopping term of a
// Wilson-type operator: the spinor outer products along every link.
//
// Conventions. Links move as U_mu(x) -> exp(s w) U_mu(x) with w in su(3)
// (solvers/qcd/update/molecular_dynamics.hpp); a term of the action S with
//   dS/ds = sum_{x,mu} Re tr(w_mu(x) O_mu(x))
// has the force F_mu = -1/2 Ta(O_mu) (Ta the traceless anti-hermitian
// part: Re tr(w O) = tr(w Ta(O)) = <w, -1/2 Ta(O)> with <X, Y> = -2 tr(X Y)),
// and the momentum step P -= eps F is P += (eps / 2) Ta(O).
//
// Two flavours. S = phi^+ (M^+ M)^-1 phi with X = (M^+ M)^-1 phi and
// Y = M X has dS = -X^+ d(M^+ M) X = -2 Re(Y^+ dM X). For
// M = T - 1/2 Dslash (Wilson: T = 4 + m; clover: solvers/qcd/fermions/clover_action.hpp)
// the hopping term gives dS = Re(Y^+ dDslash X), and with
//   Dslash psi(x) = sum_mu (1 - gamma_mu) U_mu(x) psi(x + mu)
//                        + (1 + gamma_mu) U_mu^+(x - mu) psi(x - mu)
// varying U_mu(x) alone (d U = w U, d U^+ = -U^+ w):
//   Re(Y^+ dDslash X) = Re tr(w O_mu(x)),
//   O_mu(x) = sum_spin [U_mu(x) X(x + mu)] (x) [(1 - gamma_mu) Y(x)]^+
//           - sum_spin X(x) (x) [U_mu(x) (1 + gamma_mu) Y(x + mu)]^+,
// with (a (x) b^+)_{ij} = a_i conj(b_j) the colour outer product. Since
// (1 + s gamma_mu) / 2 is a projector and (1 + s gamma_mu) psi =
// (h, s A_mu^+ h) with h = spin_project<mu, s>(psi) (lattice/tensors/gamma.hpp, A_mu
// unitary), sum_spin a (x) [(1 + s gamma_mu) b]^+ = sum over the two
// components of h_a (x) h_b^+: each outer product runs over half spinors.
//
// The boundary phases (solvers/qcd/fermions/fermion_boundary.hpp) enter through the
// links the operator reads: the same formula with the phased links, whose
// variation is w times themselves.

#include "dsl/expr/spin.hpp"
#include "dsl/expr/su3_functions.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {
namespace functors {

// sum over spin components s of a_s (x) b_s^+: a colour matrix from two
// (half) spinors.
struct SpinSummedOuter {
  static constexpr const char* name = "spin_outer";
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const {
    using T = real_of_t<A>;
    ColourMatrix<T> out;
    for (int r = 0; r < colours; ++r)
      for (int c = 0; c < colours; ++c) {
        Complex<T> z = a.v[0].v[r] * conj(b.v[0].v[c]);
        for (int s = 1; s < A::size; ++s) z = multiply_add(a.v[s].v[r], conj(b.v[s].v[c]), z);
        out(r, c) = z;
      }
    return out;
  }
};

}  // namespace functors

// sum_spin a (x) b^+ as an expression.
template <class A, class B> auto spin_outer(const A& a, const B& b) {
  return map(functors::SpinSummedOuter{}, a, b);
}

// O_mu above, for direction Mu, over half spinors.
template <int Mu, class Link, class Psi>
auto hopping_force_outer(const Link& U, const Psi& X, const Psi& Y) {
  return spin_outer(U * shift(spin_project<Mu, -1>(X), Mu, +1), spin_project<Mu, -1>(Y)) -
         spin_outer(spin_project<Mu, +1>(X), U * shift(spin_project<Mu, +1>(Y), Mu, +1));
}

// P_mu += coefficient Ta(O_mu) for every direction, one statement each: with
// coefficient = eps / 2 this is P -= eps F for dS = Re(Y^+ dDslash X).
// `links` are the links the operator reads (with its boundary phases); X, Y
// are on the whole lattice.
template <class Links, class R, class W, class Psi>
void add_hopping_force(const Links& links, const Psi& X, const Psi& Y, GaugeField<R, W>& P, double coefficient) {
  const profile::Region region("fermion force: hopping term");
  P[0] += coefficient * traceless_antihermitian(hopping_force_outer<0>(links[0], X, Y));
  P[1] += coefficient * traceless_antihermitian(hopping_force_outer<1>(links[1], X, Y));
  P[2] += coefficient * traceless_antihermitian(hopping_force_outer<2>(links[2], X, Y));
  P[3] += coefficient * traceless_antihermitian(hopping_force_outer<3>(links[3], X, Y));
}

}  // namespace latte
