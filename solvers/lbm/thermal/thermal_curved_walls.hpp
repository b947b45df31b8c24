#pragma once
// Curved thermal walls: the temperature's walls of thermal_walls.hpp
// (fixed temperature, fixed heat flux, adiabatic) placed where a curved
// obstacle really cuts each link, not half-way, as solvers/lbm/walls/curved_walls.hpp does
// for the flow.
//
// A wall link joins a fluid site x to a solid site x - c_k; the wall cuts
// it at the fraction q in (0, 1] of its length from x, and n is the wall's
// unit normal there, pointing into the fluid. g* are the post-collision
// populations (what the pull scheme stores), o = opp(k), w = w_k.
//
// Fixed temperature T_w (interpolated anti-bounce-back):
//   q <  1/2:  g_k(x) = -2q g*_o(x) + (2q - 1) g*_o(x + c_k) + 2 w T_w
//   q >= 1/2:  g_k(x) = [-g*_o(x) + (2q - 1) g*_k(x) + 2 w T_w] / (2q)
// Why: at rest the populations of a linear profile are, with G = c_k.grad T,
//   g*_k(x) = w (T(x) - (tau_T - 1) G),   g*_o(x) = w (T(x) + (tau_T - 1) G),
//   g*_o(x + c_k) = w (T(x) + tau_T G),   and the wanted g_k(x) = w (T(x) - tau_T G),
// while T_w = T(x) - q G. Asking a combination of the three and of 2 w T_w
// to give g_k(x) for every T(x), G and tau_T leaves one free coefficient;
// the two branches drop g*_k(x) (q < 1/2) or g*_o(x + c_k) (q >= 1/2), so
// that the coefficients' magnitudes sum to one (no amplification) and
// both meet at q = 1/2 in the half-way anti-bounce-back
// -g*_o(x) + 2 w T_w. The wall then sits at its true place to second
// order, for any tau_T. Where x + c_k is solid too (a gap one cell wide),
// the link falls back to the half-way rule.
//
// Fixed heat flux q_w (per unit wall area and time, into the fluid):
//   g_k(x) = g*_o(x) + (c_k.n) q_w
// What crosses a link is g_k(x) - g*_o(x) = -alpha c_k.grad T for any q
// when the profile is linear, so the wall's position does not enter; the
// link's share of the wall's flux is -alpha c_k.grad T with grad T along
// n, i.e. (c_k.n) q_w. Over a wall of area A cut by the axis links, the
// links along axis d number |n_d| A, so the shares add up to q_w A: the
// heat through the wall is right. The tangential part of the gradient is
// left out link by link (it cancels between the links of a wall, but not
// at each one): the rule is exact where the heat flows along the normal
// (concentric cylinders) and first order in the lattice spacing where it
// runs along the wall (an insulated cylinder in a gradient). q_w = 0 is
// the adiabatic wall: plain bounce-back.
//
// A solid cell's kind and value are in the thermal boundary field
// (thermal_walls.hpp: {solid, fixed, value}); the link field holds per
// fluid site 2Q reals: q_k(x) for k < Q and c_k.n for k >= Q, on the wall
// links (0 elsewhere). A solid cell without fractions on its links (a
// straight wall of the same boundary field) stays a half-way wall, and a
// link with q = 1/2 and c_k.n = 1 gives the half-way rule's bits. Two
// lattices only, as the flow's curved walls.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "dsl/latte.hpp"
#include "lattice/layout/site_walk.hpp"
#include "solvers/lbm/thermal/thermal_walls.hpp"
#include "solvers/lbm/walls/curved_walls.hpp"

namespace latte::lbm {

// q_k and c_k.n per site (the top of this file).
template <class VS, class R = double, class W = DefaultWidth>
using ThermalWallLinkField = Lattice<RealVector<R, 2 * VS::q>, W>;

namespace detail {

// Marks {x : distance(x) < 0} solid in the thermal boundary field b with
// the record record(x), and adds the fractions and normals of the links
// that end in it to `links` (other links are left as they are, so
// several obstacles, each with its own kind of wall, can be marked one
// after another). distance as for mark_curved_obstacle: negative inside,
// continuous, called with coordinates in lattice units; the normal is its
// normalised gradient at the wall point (central differences).
template <class VS, class R, class W, class Distance, class Record>
void mark_curved_thermal_wall(Lattice<RealVector<R, 3>, W>& b, ThermalWallLinkField<VS, R, W>& links,
                              Distance distance, Record record) {
  constexpr int D = VS::d, Q = VS::q;
  static_assert(Q == 2 * D + 1, "lbm: thermal walls take one unit face per link: D2Q5 or D3Q7");
  if (!b.layout().same_as(links.layout()))
    throw GeometryMismatch("lbm: curved thermal walls: the boundary field lies on " + b.layout().describe() +
                           ", the wall-link field on " + links.layout().describe());
  auto value_at = [&](const std::array<double, D>& p) { return static_cast<double>(distance(p)); };
  auto along = [&](const Coordinate& x, int k, double t) {
    std::array<double, D> p;
    for (int d = 0; d < D; ++d) p[d] = x[d] - t * VS::c[k][d];
    return p;
  };
  const auto bv = b.host_view(Access::read_write);
  const auto lv = links.host_view(Access::read_write);
  for_each_site(b.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    const LaneSite<R> site{o, l};
    if (value_at(along(x, 0, 0.0)) < 0) {
      bv.store(site, record(x));
      return;
    }
    RealVector<R, 2 * Q> link = lv.load(site);
    for (int k = 1; k < Q; ++k) {
      if (!(value_at(along(x, k, 1.0)) < 0)) continue;
      const double q = wall_fraction([&](double t) { return value_at(along(x, k, t)); });
      const std::array<double, D> wall = along(x, k, q);
      std::array<double, D> gradient;
      double length = 0;
      for (int d = 0; d < D; ++d) {
        const double h = 1e-6;
        std::array<double, D> ahead = wall, behind = wall;
        ahead[d] += h;
        behind[d] -= h;
        gradient[d] = (value_at(ahead) - value_at(behind)) / (2 * h);
        length += gradient[d] * gradient[d];
      }
      length = std::sqrt(length);
      if (!(length > 0))
        throw std::invalid_argument("lbm: curved thermal walls: the distance function has no gradient at a wall point");
      double share = 0;  // c_k.n
      for (int d = 0; d < D; ++d) share += VS::c[k][d] * gradient[d] / length;
      link.v[k] = static_cast<R>(q);
      link.v[Q + k] = static_cast<R>(share);
    }
    lv.store(site, link);
  });
}

}  // namespace detail

// Marks the obstacle {x : distance(x) < 0} as a curved wall at the
// temperature `temperature` (a number, or a function of the solid cell's
// Coordinate for a wall that is not isothermal).
template <class VS, class R, class W, class Distance, class Temperature>
void mark_curved_fixed_temperature(Lattice<RealVector<R, 3>, W>& b, ThermalWallLinkField<VS, R, W>& links,
                                   Distance distance, Temperature temperature) {
  detail::mark_curved_thermal_wall<VS>(b, links, distance, [&](const Coordinate& x) {
    if constexpr (std::is_arithmetic_v<Temperature>) return RealVector<R, 3>{{R(1), R(1), static_cast<R>(temperature)}};
    else return RealVector<R, 3>{{R(1), R(1), static_cast<R>(temperature(x))}};
  });
}

// Marks the obstacle as a curved wall letting the heat flux `heat_flux`
// (per unit wall area and time, into the fluid; a number or a function of
// the solid cell's Coordinate) through it.
template <class VS, class R, class W, class Distance, class HeatFlux>
void mark_curved_heat_flux(Lattice<RealVector<R, 3>, W>& b, ThermalWallLinkField<VS, R, W>& links, Distance distance,
                           HeatFlux heat_flux) {
  detail::mark_curved_thermal_wall<VS>(b, links, distance, [&](const Coordinate& x) {
    if constexpr (std::is_arithmetic_v<HeatFlux>) return RealVector<R, 3>{{R(1), R(0), static_cast<R>(heat_flux)}};
    else return RealVector<R, 3>{{R(1), R(0), static_cast<R>(heat_flux(x))}};
  });
}

// Marks the obstacle as a curved adiabatic wall (no heat through it).
template <class VS, class R, class W, class Distance>
void mark_curved_adiabatic(Lattice<RealVector<R, 3>, W>& b, ThermalWallLinkField<VS, R, W>& links, Distance distance) {
  mark_curved_heat_flux<VS>(b, links, distance, 0.0);
}

// The wall rule (value<VS, k>(previous, incoming, upstream, links) as in
// thermal_walls.hpp, with the link field as one more operand).
template <class Boundary, class Links>
struct ThermalCurvedWalls {
  static constexpr int operands = 2;
  const Boundary& boundary;
  const Links& links;

  template <class VS, int K, class P, class U, class L>
  LATTE_INLINE static auto value(const P& previous, const P& incoming, const U& upstream, const L& link) {
    static_assert(VS::q == 2 * VS::d + 1, "lbm: thermal walls take one unit face per link: D2Q5 or D3Q7");
    using V = std::remove_cvref_t<decltype(previous.v[0])>;
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    constexpr int o = VS::opposite[K];
    constexpr double weight = VS::w[K];  // a constant: device code cannot read the host table
    const V q = link.v[K];
    const V bounced = previous.v[o];
    const V wall_value = V(upstream.v[K].v[2]);
    // Heat flux: the link's share c_k.n of q_w; a half-way link's share is 1.
    const V share = select_leaf(q > V(0.0), V(link.v[VS::q + K]), V(1.0));
    const V with_flux = bounced + share * wall_value;
    // Fixed temperature.
    const V twice_even = V(2.0 * weight) * wall_value;
    const V half_way = twice_even - bounced;
    const V two_q = q + q;
    const V lower = (twice_even - two_q * bounced) + (two_q - V(1.0)) * incoming.v[o];
    const V upper_times_two_q = half_way + (two_q - V(1.0)) * previous.v[K];
    const V fixed = detail::interpolated_link(q, as_mask(upstream.v[o].v[0]), half_way, lower,
                                              upper_times_two_q);  // x - c_o = x + c_k
    return select_leaf(as_mask(upstream.v[K].v[1]), fixed, with_flux);
  }
};

}  // namespace latte::lbm
