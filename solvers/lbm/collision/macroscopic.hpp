#pragma once
// Macroscopic fields as DSL expressions over the populations:
//   density(f)                 rho = sum_i f_i
//   momentum(f)                j = sum_i c_i f_i
//   velocity(f, force)         u = (j - F/2) / rho from the stored
//                              (post-collision) populations of the pull
//                              scheme: Guo's collision adds F to j, and the
//                              physical velocity is the mean of before and
//                              after, (j_in + F/2)/rho = (j_out - F/2)/rho.
//   vorticity(u)               dx u_y - dy u_x by central differences (2-D)
// Each is lazy: assign it to a field or reduce it, in one pass.

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/collision.hpp"

namespace latte::lbm {
namespace functors {

template <class VS> struct Density {
  template <class V> LATTE_INLINE V operator()(const Populations<V, VS::q>& f) const { return moments<VS>(f).rho; }
};
template <class VS> struct Momentum {
  template <class V> LATTE_INLINE RealVector<V, VS::d> operator()(const Populations<V, VS::q>& f) const {
    const auto m = moments<VS>(f);
    RealVector<V, VS::d> j;
    for (int d = 0; d < VS::d; ++d) j.v[d] = m.j[d];
    return j;
  }
};
template <class VS> struct Velocity {
  template <class V>
  LATTE_INLINE RealVector<V, VS::d> operator()(const Populations<V, VS::q>& f, const RealVector<V, VS::d>& force) const {
    const auto m = moments<VS>(f);
    const V inv_rho = V(1.0) / m.rho;
    RealVector<V, VS::d> u;
    for (int d = 0; d < VS::d; ++d) u.v[d] = (m.j[d] - V(0.5) * force.v[d]) * inv_rho;
    return u;
  }
};
template <class VS> struct Equilibrium {
  template <class V>
  LATTE_INLINE Populations<V, VS::q> operator()(const V& rho, const RealVector<V, VS::d>& u) const {
    return equilibrium<VS>(rho, u.v);
  }
};

}  // namespace functors

template <class VS, class F> auto density(const F& f) { return map<functors::Density<VS>>(f); }
template <class VS, class F> auto momentum(const F& f) { return map<functors::Momentum<VS>>(f); }
// The body force: a constant RealVector<double, d> or a field of them.
template <class VS, class F, class Force>
auto velocity(const F& f, const Force& force) {
  return map<functors::Velocity<VS>>(f, force);
}
template <class VS, class F>
auto velocity(const F& f) {
  return velocity<VS>(f, RealVector<double, VS::d>{});
}
// f^eq(rho(x), u(x)) from a density and a velocity expression or field.
template <class VS, class Rho, class U> auto equilibrium_of(const Rho& rho, const U& u) {
  return map<functors::Equilibrium<VS>>(rho, u);
}

// The vorticity of a 2-D velocity field.
template <class U>
auto vorticity(const U& u) {
  return 0.5 * (shift(element<1>(u), Coordinate{1, 0}) - shift(element<1>(u), Coordinate{-1, 0}) -
                shift(element<0>(u), Coordinate{0, 1}) + shift(element<0>(u), Coordinate{0, -1}));
}

}  // namespace latte::lbm
