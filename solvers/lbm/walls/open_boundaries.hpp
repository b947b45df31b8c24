#pragma once
// Velocity inlet and pressure outlet for a channel along x by
// non-equilibrium extrapolation (Guo, Zheng & Shi 2002), as one DSL
// statement applied after each stream-collide step.
//
// On the periodic lattice, column x = 0 and column x = L - 1 are ghost
// columns: the fluid columns 1 .. L-2 pull their populations from them. A
// ghost takes the equilibrium of the boundary state plus the
// non-equilibrium part of its fluid neighbour n:
//   inlet  (x = 0,     n = x + 1):  f = f^eq(rho_n, u_in) + f_n - f^eq(rho_n, u_n)
//   outlet (x = L - 1, n = x - 1):  f = f^eq(rho_out, u_n) + f_n - f^eq(rho_n, u_n)
// (A pure equilibrium ghost, f = f^eq, drops the viscous stress at the
// boundary and goes unstable at tau close to 1/2.) The statement reads the
// neighbouring columns of the field it writes; the DSL's aliasing rule
// evaluates it into fresh storage, so it stays correct.

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/macroscopic.hpp"

namespace latte::lbm {
namespace functors {

// kind 0: velocity inlet (boundary value = u_b), kind 1: pressure outlet
// (boundary value = rho_b in its first entry).
template <class VS, int Kind>
struct NonEquilibriumExtrapolation {
  template <class V, class B>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& fn, const B& boundary) const {
    const Moments<V, VS::d> m = moments<VS>(fn);
    const V inv_rho = V(1.0) / m.rho;
    V un[VS::d], ub[VS::d];
    for (int d = 0; d < VS::d; ++d) un[d] = m.j[d] * inv_rho;
    V rho_b = m.rho;
    if constexpr (Kind == 0) {
      for (int d = 0; d < VS::d; ++d) ub[d] = boundary.v[d];
    } else {
      rho_b = boundary.v[0];
      for (int d = 0; d < VS::d; ++d) ub[d] = un[d];
    }
    const Populations<V, VS::q> eq_b = equilibrium<VS>(rho_b, ub), eq_n = equilibrium<VS>(m.rho, un);
    Populations<V, VS::q> out;
    for (int i = 0; i < VS::q; ++i) out.v[i] = eq_b.v[i] + (fn.v[i] - eq_n.v[i]);
    return out;
  }
};

}  // namespace functors

// The right-hand side: inlet_mask and outlet_mask are 1 on the fluid sites
// of the ghost columns; u_in holds the inflow velocity (read at the inlet
// only); rho_out a vector field whose first entry is the outlet density.
template <class VS, class F, class M, class U>
auto velocity_inlet_pressure_outlet(const F& f, const M& inlet_mask, const U& u_in, const M& outlet_mask,
                                    const U& rho_out) {
  Coordinate next(VS::d, 0), previous(VS::d, 0);
  next[0] = 1;
  previous[0] = -1;
  return where(inlet_mask, map<functors::NonEquilibriumExtrapolation<VS, 0>>(shift(f, next), u_in),
               where(outlet_mask, map<functors::NonEquilibriumExtrapolation<VS, 1>>(shift(f, previous), rho_out), f));
}

}  // namespace latte::lbm
