#pragma once
// Wall rules: which population a wall sends into a fluid site in place of
// the one that would have streamed from a solid cell. Each rule is a host
// descriptor (the fields it reads, as extra operands of the update) and a
// site rule, value<VS, i>(previous, incoming, upstream, data...), that
// solvers/lbm/update/lattice_update.hpp calls for every population whose upstream cell x - c_i
// is solid. `previous` is f*(x), the post-collision populations of x from
// the previous step in natural order (the streaming pattern finds them,
// solvers/lbm/streaming/stream_collide.hpp and solvers/lbm/streaming/in_place_streaming.hpp), `incoming` what streamed
// into x, and upstream[i] the boundary record {solid, u_w...} at x - c_i.
//
// Half-way bounce-back: the population that left x towards the wall in the
// previous step comes back reversed, with Ladd's moving-wall correction
// (reference density rho_w = 1):
//   f_i(x, t + 1) = f*_opp(i)(x, t) + 2 w_i rho_w (c_i.u_w) / c_s^2
// so the wall lies half-way between the fluid and the solid cell. The
// boundary field holds per site {solid, u_w[0], ..., u_w[d-1]}: solid = 1
// on solid cells, 0 on fluid, and the velocity of a moving wall on solid
// cells (boundaries.hpp builds it).
//
// Interpolated bounce-back on curved walls: curved_walls.hpp, whose link
// field of wall fractions is one more operand.
//
// Every update that has walls (the flow's and the scalar's,
// solvers/lbm/update/lattice_update.hpp, and the mixture's,
// solvers/lbm/multiphase/shan_chen_mixture.hpp) applies a rule the same way,
// written once at the end of this file: walled() puts the wall's value in
// place of each population whose upstream cell is solid (the rest
// population never streams), and kept_on_solid() keeps a solid cell's own
// record instead of what the site's collision computed.

#include <type_traits>

#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/walls/curved_walls.hpp"

namespace latte::lbm {

// No walls: a periodic lattice.
struct NoWalls {
  static constexpr int operands = 0;
};

// Half-way bounce-back on the solid cells of a boundary field.
template <class Boundary>
struct HalfWayWalls {
  static constexpr int operands = 1;
  const Boundary& boundary;

  template <class VS, int I, class P, class U>
  LATTE_INLINE static auto value(const P& previous, const P&, const U& upstream) {
    using V = std::remove_cvref_t<decltype(previous.v[0])>;
    constexpr double weight = VS::w[I];  // a constant: device code cannot read the host table
    return V(previous.v[VS::opposite[I]] + V(6.0 * weight) * dot_c<VS, I, V>(&upstream.v[I].v[1]));  // 6 w_i = 2 w_i / c_s^2
  }
};

// Interpolated bounce-back on the links whose fractions `links` holds,
// half-way bounce-back on the other solid cells of the boundary field.
template <class Boundary, class Links>
struct CurvedWalls {
  static constexpr int operands = 2;
  const Boundary& boundary;
  const Links& links;

  template <class VS, int I, class P, class U, class L>
  LATTE_INLINE static auto value(const P& previous, const P& incoming, const U& upstream, const L& fractions) {
    return detail::bounced_back<VS, I>(previous, incoming, fractions.v[I], upstream);
  }
};

// The populations site x collides: incoming, with the wall's value
// (Walls::value) for each i whose upstream cell x - c_i is solid
// (upstream[i] = {solid, u_w...}). data: the rule's own fields at x.
template <class VS, class Walls, class P, class U, class... WallData>
LATTE_INLINE P walled(const P& incoming, const P& previous, const U& upstream, const WallData&... data) {
  using latte::functors::as_mask;
  using latte::functors::select_leaf;
  P in;
  static_for<VS::q>([&](auto i) LATTE_LAMBDA {
    if constexpr (is_rest_velocity<VS, i>())
      in.v[i] = incoming.v[i];
    else
      in.v[i] = select_leaf(as_mask(upstream.v[i].v[0]), Walls::template value<VS, i>(previous, incoming, upstream, data...),
                            incoming.v[i]);
  });
  return in;
}

// On a solid cell (upstream[0], c_0 = 0, is the site itself) the record
// `kept`, elsewhere `computed`.
template <class P, class U>
LATTE_INLINE P kept_on_solid(const P& kept, const P& computed, const U& upstream) {
  using latte::functors::as_mask;
  using latte::functors::select_leaf;
  const auto solid_here = as_mask(upstream.v[0].v[0]);
  return transform_leaves<P>(
      [&](const auto& k, const auto& c) LATTE_LAMBDA { return select_leaf(solid_here, k, c); }, kept, computed);
}

}  // namespace latte::lbm
