#pragma once
// A scalar carried by the flow and diffusing (a temperature T, a
// concentration) as a second distribution g_i on its own velocity set,
// D2Q5 or D3Q7 (solvers/lbm/collision/velocity_sets.hpp), in lattice units (lattice spacing and
// time step 1):
//
//   T = sum_i g_i
//   g_i^eq = w_i T (1 + c_i.u / cs2)             (linear in u)
//   BGK:  g_i' = g_i - omega_T (g_i - g_i^eq),   omega_T = 1 / tau_T
//
// with u the fluid velocity at the site and cs2 the set's second moment
// (sum_i w_i c_ia c_ib = cs2 delta_ab: 1/3 for D2Q5, 1/4 for D3Q7). The
// moments of g^eq are T, T u and T cs2 I, and the Chapman-Enskog expansion
// gives, to second order in space,
//
//   dT/dt + div(u T) = div(alpha grad T),   alpha = cs2 (tau_T - 1/2).
//
// The equilibrium being linear in u, its second moment lacks the T u u
// that would make the expansion exact, which leaves an error term of order
// (tau_T - 1/2) grad grad : (T u u) in the equation: second order in the
// Mach number, as the flow's own compressibility error, and the reason u
// should stay well below the lattice speed (|u| < 0.1, say). tau_T must exceed 1/2 (positive
// diffusivity); near 1/2 the scheme is under-relaxed and oscillates, and
// large tau_T (alpha much above cs2/2) degrades the accuracy in time.
//
// The collision object carries its rate, as the flow's models do
// (solvers/lbm/collision/collision.hpp), so one compiled statement serves every tau_T.

#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/equilibrium.hpp"

namespace latte::lbm {

// alpha = cs2 (tau_T - 1/2) of the set VS, and back.
template <class VS> constexpr double diffusivity_from_tau(double tau) { return VS::cs2 * (tau - 0.5); }
template <class VS> constexpr double tau_from_diffusivity(double alpha) { return alpha / VS::cs2 + 0.5; }

// T = sum_i g_i, summed in index order (the same bits on every path).
template <class VS, class V>
LATTE_INLINE V scalar_of(const Populations<V, VS::q>& g) {
  V total = g.v[0];
  static_for<VS::q - 1>([&](auto k) LATTE_LAMBDA { total = total + g.v[k + 1]; });
  return total;
}

// g^eq(T, u) (top of this file).
template <class VS, class V>
LATTE_INLINE Populations<V, VS::q> scalar_equilibrium(const V& scalar, const V* u) {
  Populations<V, VS::q> geq;
  static_for<VS::q>([&](auto i) LATTE_LAMBDA {
    constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
    geq.v[i] = V(weight) * scalar * (V(1.0) + V(1.0 / VS::cs2) * dot_c<VS, i, V>(u));
  });
  return geq;
}

// BGK for the transported scalar: one rate, omega_T = 1 / tau_T.
struct AdvectionDiffusionBgk {
  static constexpr const char* name = "advection-diffusion BGK";
  double omega = 1.0;

  static AdvectionDiffusionBgk from_tau(double tau) {
    if (!(tau > 0.5))
      throw std::invalid_argument("lbm: tau_T must exceed 1/2 (positive diffusivity), got " + std::to_string(tau));
    return {1.0 / tau};
  }
  double tau() const { return 1.0 / omega; }

  // Pairs (i, opp i) share omega w_i T and c_i.u: the even part of
  // omega g^eq is omega w_i T, the odd part omega w_i T c_i.u / cs2.
  template <class VS, class V>
  LATTE_INLINE Populations<V, VS::q> relax(const Populations<V, VS::q>& g, const V* u) const {
    const V rate = V(omega);
    const V keep = V(1.0) - rate;
    const V omega_scalar = rate * scalar_of<VS>(g);
    Populations<V, VS::q> out;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int o = VS::opposite[i];
      constexpr int first = first_nonzero_component<VS, i>();
      constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
      if constexpr (i == o) {
        out.v[i] = keep * g.v[i] + V(weight) * omega_scalar;
      } else if constexpr (VS::c[i][first] == 1) {
        const V even = V(weight) * omega_scalar;
        const V odd = even * (V(1.0 / VS::cs2) * dot_c<VS, i, V>(u));
        out.v[i] = keep * g.v[i] + (even + odd);
        out.v[o] = keep * g.v[o] + (even - odd);
      }
    });
    return out;
  }
};

namespace functors {

template <class VS> struct TransportedScalar {
  static constexpr const char* name = "temperature";
  template <class V> LATTE_INLINE V operator()(const Populations<V, VS::q>& g) const { return scalar_of<VS>(g); }
};
template <class VS> struct ScalarEquilibrium {
  static constexpr const char* name = "scalar_equilibrium";
  template <class V>
  LATTE_INLINE Populations<V, VS::q> operator()(const V& scalar, const RealVector<V, VS::d>& u) const {
    return scalar_equilibrium<VS>(scalar, u.v);
  }
};

}  // namespace functors

// T(x) = sum_i g_i(x) as an expression.
template <class VS, class G> auto transported_scalar(const G& g) { return map<functors::TransportedScalar<VS>>(g); }
// g^eq(T(x), u(x)) from a scalar and a velocity (fields, expressions or constants).
template <class VS, class T, class U> auto scalar_equilibrium_of(const T& scalar, const U& u) {
  return map<functors::ScalarEquilibrium<VS>>(scalar, u);
}

}  // namespace latte::lbm
