#pragma once
// One lattice-Boltzmann update as one fused statement, composed of three
// independent parts:
//   a streaming pattern (accessor): PullStreaming (two lattices,
//     solvers/lbm/streaming/stream_collide.hpp), AaPushStep and AaLocalStep (in place,
//     solvers/lbm/streaming/in_place_streaming.hpp): where the colliding populations come from and
//     how the result is stored;
//   a site rule (site_rules.hpp): what one site does with the populations
//     that reach it and one operand read at the site itself. FlowCollision
//     collides a flow's populations with a collision model
//     (solvers/lbm/collision/collision.hpp) and the body force as operand;
//     ScalarTransport relaxes a transported scalar's populations
//     (solvers/lbm/thermal/advection_diffusion.hpp) with the fluid velocity
//     as operand. A new kind of lattice (a free surface's, a LES flow's) is
//     a new rule;
//   a wall rule: NoWalls, HalfWayWalls, CurvedWalls (solvers/lbm/walls/wall_rules.hpp), or a
//     scalar's ThermalWalls and ThermalCurvedWalls (solvers/lbm/thermal/).
// The site functor below is written once for all of them: it replaces each
// population whose upstream cell is solid by the wall's, applies the site
// rule, keeps a solid cell's record as the pattern says, and stores.
//
//   update<VS, Pattern, Backend>(f, next, rule, operand, walls)
//
// issues the statement (next is the second lattice, unused in place).

#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/streaming/in_place_streaming.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/update/site_rules.hpp"
#include "solvers/lbm/walls/wall_rules.hpp"

namespace latte::lbm {
namespace functors {

template <class VS, class Pattern, class Walls, SiteRule Rule>
struct LatticeUpdate {
  static constexpr const char* name = Rule::statement_names[Pattern::in_place ? 1 : 0][Walls::operands];
  Rule rule;

  // A periodic lattice: (incoming, operand).
  template <class V, class Operand>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& incoming, const Operand& operand) const {
    return Pattern::template stored<VS>(rule.template apply<VS>(incoming, operand));
  }

  // With walls: (incoming, operand, beside, upstream boundary records, the
  // wall rule's fields...).
  template <class V, class Operand, class W, class... WallData>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& incoming, const Operand& operand,
                                                const Populations<V, VS::q>& beside,
                                                const Vec<W, VS::q, GenericIndex>& upstream,
                                                const WallData&... data) const {
    const auto& previous = Pattern::template previous<VS>(incoming, beside);
    const auto in = walled<VS, Walls>(incoming, previous, upstream, data...);
    const auto out = rule.template apply<VS>(in, operand);
    return Pattern::template stored<VS>(kept_on_solid(Pattern::template solid<VS>(incoming, beside), out, upstream));
  }
};

}  // namespace functors

// The right-hand side of one update: walls without fields of their own
// (none, or a rule with a boundary field only), or with their link field.
template <class VS, class Pattern, SiteRule Rule, class F, class Operand, class Walls>
auto lattice_update(const F& f, const Rule& rule, const Operand& operand, const Walls& walls) {
  using Update = functors::LatticeUpdate<VS, Pattern, Walls, Rule>;
  if constexpr (Walls::operands == 0) {
    return map(Update{rule}, Pattern::template incoming<VS>(f), operand);
  } else if constexpr (Walls::operands == 1) {
    return map(Update{rule}, Pattern::template incoming<VS>(f), operand, Pattern::template beside<VS>(f),
               values_along_velocities<VS, -1>(walls.boundary));
  } else {
    static_assert(!Pattern::in_place, "lbm: curved walls need the two-lattice scheme");
    return map(Update{rule}, Pattern::template incoming<VS>(f), operand, Pattern::template beside<VS>(f),
               values_along_velocities<VS, -1>(walls.boundary), walls.links);
  }
}

// One update of f (into next with two lattices, in place otherwise).
template <class VS, class Pattern, class Backend, SiteRule Rule, class F, class Operand, class Walls>
void update(F& f, F* next, const Rule& rule, const Operand& operand, const Walls& walls) {
  Pattern::template write<Backend, VS, (Walls::operands > 0)>(f, next,
                                                               lattice_update<VS, Pattern>(f, rule, operand, walls));
}

}  // namespace latte::lbm
