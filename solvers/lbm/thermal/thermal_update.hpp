#pragma once
// One update of the transported scalar (advection_diffusion.hpp) as one
// fused statement: streaming, walls and BGK collision in a single pass, as
// the flow's update (solvers/lbm/update/lattice_update.hpp), and with the same pieces: a
// streaming accessor (PullStreaming of solvers/lbm/streaming/stream_collide.hpp: each incoming
// population a shift of one element of g by -c_i, packed once), the wall
// rule of thermal_walls.hpp (or of thermal_curved_walls.hpp) and the
// collision object. The fluid velocity is
// an operand read at the site itself: a constant RealVector<double, d>, a
// field, or an expression such as the flow's velocity() (which then fuses
// into this statement: the flow's populations are read at x, no velocity
// field is stored).
//
//   scalar_update<VS, Pattern, Backend>(g, next, model, velocity, walls)

#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/thermal/advection_diffusion.hpp"
#include "solvers/lbm/thermal/thermal_curved_walls.hpp"
#include "solvers/lbm/thermal/thermal_walls.hpp"
#include "solvers/lbm/walls/wall_rules.hpp"

namespace latte::lbm {
namespace functors {

template <class VS, class Pattern, class Walls, class Model>
struct ScalarUpdate {
  static constexpr const char* name = Walls::operands == 0   ? "scalar_collide"
                                      : Walls::operands == 1 ? "scalar_collide_with_walls"
                                                             : "scalar_collide_with_curved_walls";
  Model model;

  // A periodic lattice: (incoming, velocity).
  template <class V>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& incoming,
                                                const RealVector<V, VS::d>& u) const {
    return Pattern::template stored<VS>(model.template relax<VS>(incoming, u.v));
  }

  // With walls: (incoming, velocity, beside, upstream wall records, the
  // rule's fields...). A population whose upstream cell is solid comes
  // from the wall rule; a solid cell keeps its record as the pattern says.
  template <class V, class W, class... WallData>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& incoming, const RealVector<V, VS::d>& u,
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
        in.v[i] = select_leaf(as_mask(upstream.v[i].v[0]), Walls::template value<VS, i>(previous, incoming, upstream, data...),
                              incoming.v[i]);
    });
    const P out = model.template relax<VS>(in, u.v);
    const auto& keep = Pattern::template solid<VS>(incoming, beside);
    const auto solid_here = as_mask(upstream.v[0].v[0]);  // c_0 = 0: the site itself
    return Pattern::template stored<VS>(transform_leaves<P>(
        [&](const V& kept, const V& next) LATTE_LAMBDA { return select_leaf(solid_here, kept, next); }, keep, out));
  }
};

}  // namespace functors

// The right-hand side of one update.
template <class VS, class Pattern, class Model, class G, class Velocity>
auto scalar_update_rhs(const G& g, const Model& model, const Velocity& u, const NoWalls&) {
  return map(functors::ScalarUpdate<VS, Pattern, NoWalls, Model>{model}, Pattern::template incoming<VS>(g), u);
}
template <class VS, class Pattern, class Model, class G, class Velocity, class B>
auto scalar_update_rhs(const G& g, const Model& model, const Velocity& u, const ThermalWalls<B>& walls) {
  return map(functors::ScalarUpdate<VS, Pattern, ThermalWalls<B>, Model>{model}, Pattern::template incoming<VS>(g), u,
             Pattern::template beside<VS>(g), values_along_velocities<VS, -1>(walls.boundary));
}

template <class VS, class Pattern, class Model, class G, class Velocity, class B, class L>
auto scalar_update_rhs(const G& g, const Model& model, const Velocity& u, const ThermalCurvedWalls<B, L>& walls) {
  static_assert(!Pattern::in_place, "lbm: curved thermal walls need the two-lattice scheme");
  return map(functors::ScalarUpdate<VS, Pattern, ThermalCurvedWalls<B, L>, Model>{model},
             Pattern::template incoming<VS>(g), u, Pattern::template beside<VS>(g),
             values_along_velocities<VS, -1>(walls.boundary), walls.links);
}

// One update of g (into next with two lattices, in place otherwise).
template <class VS, class Pattern, class Backend, class Model, class G, class Velocity, class Walls>
void scalar_update(G& g, G* next, const Model& model, const Velocity& u, const Walls& walls) {
  Pattern::template write<Backend, VS, (Walls::operands > 0)>(g, next,
                                                               scalar_update_rhs<VS, Pattern>(g, model, u, walls));
}

}  // namespace latte::lbm
