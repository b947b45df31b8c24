#pragma once
// One lattice-Boltzmann update as one fused statement, composed of three
// independent parts:
//   a streaming pattern (accessor): PullStreaming (two lattices,
//     solvers/lbm/streaming/stream_collide.hpp), AaPushStep and AaLocalStep (in place,
//     solvers/lbm/streaming/in_place_streaming.hpp): where the colliding populations come from and
//     how the result is stored;
//   a collision model object with its rates: Bgk, Trt, Mrt (solvers/lbm/collision/collision.hpp),
//     or any type with their interface;
//   a wall rule: NoWalls, HalfWayWalls, CurvedWalls (solvers/lbm/walls/wall_rules.hpp).
// The site functor below is written once for all of them: it replaces each
// population whose upstream cell is solid by the wall's, collides, keeps a
// solid cell's record as the pattern says, and stores. The body force is an
// operand (a constant RealVector<double, d> for a uniform force, or a field
// of them), read when Forced.
//
//   update<VS, Pattern, Forced, Backend>(f, next, model, force, walls)
//
// issues the statement (next is the second lattice, unused in place).

#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/collision.hpp"
#include "solvers/lbm/streaming/in_place_streaming.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/walls/wall_rules.hpp"

namespace latte::lbm {
namespace functors {

template <class VS, class Pattern, class Walls, CollisionModel Model, bool Forced>
struct LatticeUpdate {
  static constexpr const char* name = Walls::operands == 0   ? (Pattern::in_place ? "collide_in_place" : "collide")
                                      : Walls::operands == 1 ? (Pattern::in_place ? "collide_in_place_with_walls"
                                                                                  : "collide_with_walls")
                                                             : "collide_with_curved_walls";
  Model model;

  // A periodic lattice: (incoming, force).
  template <class V>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& incoming,
                                                const RealVector<V, VS::d>& force) const {
    return Pattern::template stored<VS>(collide<VS, Forced>(model, incoming, force.v));
  }

  // With walls: (incoming, force, beside, upstream boundary records, the rule's fields...).
  template <class V, class W, class... WallData>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& incoming,
                                                const RealVector<V, VS::d>& force,
                                                const Populations<V, VS::q>& beside,
                                                const Vec<W, VS::q, GenericIndex>& upstream,
                                                const WallData&... data) const {
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    using P = Populations<V, VS::q>;
    const auto& previous = Pattern::template previous<VS>(incoming, beside);
    P in;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      if constexpr (is_rest_velocity<VS, i>())
        in.v[i] = incoming.v[i];
      else
        in.v[i] = select_leaf(as_mask(upstream.v[i].v[0]),
                              Walls::template value<VS, i>(previous, incoming, upstream, data...), incoming.v[i]);
    });
    const P out = collide<VS, Forced>(model, in, force.v);
    const auto& keep = Pattern::template solid<VS>(incoming, beside);
    const auto solid_here = as_mask(upstream.v[0].v[0]);  // c_0 = 0: the site itself
    return Pattern::template stored<VS>(transform_leaves<P>(
        [&](const V& kept, const V& next) LATTE_LAMBDA { return select_leaf(solid_here, kept, next); }, keep, out));
  }
};

}  // namespace functors

// The right-hand side of one update.
template <class VS, class Pattern, bool Forced, CollisionModel Model, class F, class Force>
auto lattice_update(const F& f, const Model& model, const Force& force, const NoWalls&) {
  return map(functors::LatticeUpdate<VS, Pattern, NoWalls, Model, Forced>{model},
             Pattern::template incoming<VS>(f), force);
}
template <class VS, class Pattern, bool Forced, CollisionModel Model, class F, class Force, class B>
auto lattice_update(const F& f, const Model& model, const Force& force, const HalfWayWalls<B>& walls) {
  return map(functors::LatticeUpdate<VS, Pattern, HalfWayWalls<B>, Model, Forced>{model},
             Pattern::template incoming<VS>(f), force, Pattern::template beside<VS>(f),
             values_along_velocities<VS, -1>(walls.boundary));
}
template <class VS, class Pattern, bool Forced, CollisionModel Model, class F, class Force, class B, class L>
auto lattice_update(const F& f, const Model& model, const Force& force, const CurvedWalls<B, L>& walls) {
  static_assert(!Pattern::in_place, "lbm: curved walls need the two-lattice scheme");
  return map(functors::LatticeUpdate<VS, Pattern, CurvedWalls<B, L>, Model, Forced>{model},
             Pattern::template incoming<VS>(f), force, Pattern::template beside<VS>(f),
             values_along_velocities<VS, -1>(walls.boundary), walls.links);
}

// One update of f (into next with two lattices, in place otherwise).
template <class VS, class Pattern, bool Forced, class Backend, CollisionModel Model, class F, class Force, class Walls>
void update(F& f, F* next, const Model& model, const Force& force, const Walls& walls) {
  Pattern::template write<Backend, VS, (Walls::operands > 0)>(f, next,
                                                               lattice_update<VS, Pattern, Forced>(f, model, force, walls));
}

}  // namespace latte::lbm
