#pragma once
// The force of the fluid on an obstacle by momentum exchange (Ladd 1994),
// as one DSL reduction over the links that cross the obstacle's surface.
//
// With half-way bounce-back, a population f*_i(x) that leaves fluid site x
// towards an obstacle cell x + c_i after collision comes back as
// f_opp(i)(x) = f*_i(x) at the next step (resting wall): the obstacle takes
// momentum 2 c_i f*_i(x) per link and time step. The stored populations of
// the pull scheme after a step are exactly these post-collision f*, so
//   F = sum_x fluid(x) sum_i obstacle(x + c_i) 2 c_i f*_i(x)
// where `fluid` is 1 on fluid sites and `obstacle` 1 on the obstacle's
// solid cells (other walls, e.g. a channel's, are left out of the sum).

#include <utility>

#include "dsl/latte.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"

namespace latte::lbm {

namespace functors {

template <class VS>
struct MomentumExchange {
  template <class V, class W>
  LATTE_INLINE RealVector<V, VS::d> operator()(const Populations<V, VS::q>& f, const V& fluid,
                                               const Vec<W, VS::q, GenericIndex>& obstacle) const {
    RealVector<V, VS::d> force;
    for (int d = 0; d < VS::d; ++d) force.v[d] = V(0.0);
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      if constexpr (!is_rest_velocity<VS, i>()) {
        const V crossing = V(2.0) * fluid * obstacle.v[i] * f.v[i];  // masks are exactly 0 or 1
        static_for<VS::d>([&](auto d) LATTE_LAMBDA {
          if constexpr (VS::c[i][d] == 1) force.v[d] = force.v[d] + crossing;
          else if constexpr (VS::c[i][d] == -1) force.v[d] = force.v[d] - crossing;
        });
      }
    });
    return force;
  }
};

}  // namespace functors

// The per-site contributions; sum(...) of it is the force on the obstacle.
template <class VS, class F, class Fluid, class Obstacle>
auto momentum_exchange(const F& f, const Fluid& fluid, const Obstacle& obstacle) {
  return map<functors::MomentumExchange<VS>>(f, fluid, values_along_velocities<VS, +1>(obstacle));
}

}  // namespace latte::lbm
