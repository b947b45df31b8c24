#pragma once
// The fused stream-collide statement of the two-lattice pull scheme:
//
//   f_next(x) = collide( f_i(x - c_i) for every i )
//
// written as one DSL expression: each streamed population is a shift of one
// element of f by -c_i (diagonal displacements included), the Q of them are
// packed into one site value and handed ONCE to a site functor that computes
// moments, equilibrium and relaxation (expression nodes do not share common
// sub-expressions, so packing first is what keeps it to one evaluation).
// The statement reads f at each site's neighbours and writes f_next once:
// 2 x Q reals of memory traffic per cell update.
//
// Walls (half-way bounce-back). A boundary field b holds per site
// {solid, u_w[0], ..., u_w[d-1]}: solid = 1 on solid cells, 0 on fluid, and
// the velocity of a moving wall on solid cells. When x - c_i is solid, the
// population that left x towards the wall in the previous step comes back
// reversed, with Ladd's moving-wall correction (reference density rho_w = 1):
//   f_i(x, t + 1) = f*_opp(i)(x, t) + 2 w_i rho_w (c_i.u_w) / c_s^2
// so the wall lies half-way between the fluid and the solid cell. Solid
// cells keep their populations unchanged (they are never read as fluid).

#include <utility>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision.hpp"

namespace latte::lbm {

template <class VS, int I>
constexpr bool is_rest_velocity() {
  bool rest = true;
  for (int d = 0; d < VS::d; ++d) rest = rest && VS::c[I][d] == 0;
  return rest;
}

// Sign * c_I as a displacement: -c_I is upstream (where population I comes
// from in the pull scheme), +c_I downstream (where it goes).
// Made once: a time step then allocates nothing.
template <class VS, int I, int Sign>
const Coordinate& along_velocity() {
  static const Coordinate d = [] {
    Coordinate c(VS::d);
    for (int k = 0; k < VS::d; ++k) c[k] = Sign * VS::c[I][k];
    return c;
  }();
  return d;
}

// For every I, element I of f (element opp(I) where Opposite: a field that
// holds its populations swapped, in_place_streaming.hpp) at x + Sign c_I,
// as one Populations-valued expression.
template <class VS, int I, int Sign, bool Opposite, class F>
auto element_along(const F& f) {
  constexpr int slot = Opposite ? VS::opposite[I] : I;
  if constexpr (is_rest_velocity<VS, I>()) return element<slot>(f);
  else return shift(element<slot>(f), along_velocity<VS, I, Sign>());
}
template <class VS, int Sign, bool Opposite, class F>
auto populations_along(const F& f) {
  using P = Populations<typename F::real_type, VS::q>;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return pack<P>(element_along<VS, static_cast<int>(I), Sign, Opposite>(f)...);
  }(std::make_index_sequence<VS::q>{});
}

// All Q streamed populations f_I(x - c_I), the ones streamed into x.
template <class VS, class F>
auto streamed_populations(const F& f) {
  return populations_along<VS, -1, false>(f);
}

// The values of a field at x + Sign * c_i for every i, as one Vec of Q
// entries (boundary flags upstream, obstacle flags downstream).
template <class VS, int Sign, class B>
auto values_along_velocities(const B& b) {
  using Entry = typename B::value_type;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return pack<Vec<Entry, VS::q, GenericIndex>>(shift(b, along_velocity<VS, static_cast<int>(I), Sign>())...);
  }(std::make_index_sequence<VS::q>{});
}

namespace functors {

template <class VS, class Model, bool Forced>
struct StreamCollide {
  static constexpr const char* name = "collide";
  template <class V, class K>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& streamed, const K& params) const {
    return collide<VS, Model, Forced>(streamed, params);
  }
};

// The collision of a site whose incoming population i is wall_value(i)
// where x - c_i is solid (upstream[i] holds the boundary record there) and
// the streamed one elsewhere; a solid site keeps its populations `here`.
template <class VS, class Model, bool Forced, class V, class W, class K, class WallValue>
LATTE_INLINE Populations<V, VS::q> collide_beside_walls(const Populations<V, VS::q>& streamed,
                                                        const Populations<V, VS::q>& here,
                                                        const Vec<W, VS::q, GenericIndex>& upstream, const K& params,
                                                        WallValue wall_value) {
  using latte::functors::as_mask;
  using latte::functors::select_leaf;
  Populations<V, VS::q> in;
  static_for<VS::q>([&](auto i) LATTE_LAMBDA {
    if constexpr (is_rest_velocity<VS, i>()) in.v[i] = streamed.v[i];
    else in.v[i] = select_leaf(as_mask(upstream.v[i].v[0]), wall_value(i), streamed.v[i]);
  });
  const Populations<V, VS::q> out = collide<VS, Model, Forced>(in, params);
  const auto solid_here = as_mask(upstream.v[0].v[0]);  // c_0 = 0: the site itself
  return transform_leaves<Populations<V, VS::q>>(
      [&](const V& keep, const V& next) LATTE_LAMBDA { return select_leaf(solid_here, keep, next); }, here, out);
}

template <class VS, class Model, bool Forced>
struct StreamCollideWalls {
  static constexpr const char* name = "collide_with_walls";
  template <class V, class W, class K>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& streamed,
                                                const Populations<V, VS::q>& here,
                                                const Vec<W, VS::q, GenericIndex>& boundary, const K& params) const {
    return collide_beside_walls<VS, Model, Forced>(streamed, here, boundary, params, [&](auto i) LATTE_LAMBDA {
      constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
      return V(here.v[VS::opposite[i]] + V(6.0 * weight) * dot_c<VS, i, V>(&boundary.v[i].v[1]));  // 6 w_i = 2 w_i / c_s^2
    });
  }
};

}  // namespace functors

// The right-hand side of one time step on a periodic lattice.
template <class VS, class Model, bool Forced, class F, class K>
auto stream_collide(const F& f, const K& params) {
  return map<functors::StreamCollide<VS, Model, Forced>>(streamed_populations<VS>(f), params);
}

// The same with half-way bounce-back on the solid cells of `boundary`.
template <class VS, class Model, bool Forced, class F, class B, class K>
auto stream_collide(const F& f, const B& boundary, const K& params) {
  return map<functors::StreamCollideWalls<VS, Model, Forced>>(streamed_populations<VS>(f), f,
                                                              values_along_velocities<VS, -1>(boundary), params);
}

}  // namespace latte::lbm
