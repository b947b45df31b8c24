#pragma once
// Walls for the transported scalar (advection_diffusion.hpp) on the solid
// cells of a boundary field, half-way between the last fluid cell and the
// first solid one, as the flow's half-way bounce-back (solvers/lbm/walls/wall_rules.hpp). The
// field holds per site {solid, fixed, value}: solid = 1 on solid cells, 0 on
// fluid; on solid cells fixed = 1 holds the wall at the temperature
// T_w = value, and fixed = 0 lets the heat flux q_w = value (per unit of
// wall area and time, positive into the fluid) through it: q_w = 0 is an
// adiabatic wall. Mark the flow's solid cells here too: the two fields are
// separate because a wall's thermal kind is not a property of the flow.
//
// The population g_i that would stream into the fluid cell x from the solid
// cell x - c_i is replaced, from the one that left x towards the wall in
// the previous step, g*_opp(i)(x):
//   fixed temperature (anti-bounce-back): g_i(x) = -g*_opp(i)(x) + 2 w_i T_w
//     2 w_i T_w is twice the even part of g^eq at the wall (the same at
//     rest and for a wall moving along itself), and the sum of the two
//     links' populations fixes the wall's temperature at second order;
//   fixed heat flux (bounce-back with a source): g_i(x) = g*_opp(i)(x) + q_w
//     what crosses the wall on the link is g_i(x) - g*_opp(i)(x) = q_w per
//     step. D2Q5 and D3Q7 move along the axes only, so each wall link is
//     one unit face of the wall; adiabatic (q_w = 0) is plain bounce-back:
//     what leaves comes back, no heat crosses.
// For a linear profile at rest the bulk populations are exactly
// w_i (T - tau_T c_i.grad T), and both rules return them exactly when T_w
// is the profile's value at the wall, or q_w = -alpha n.grad T (n the
// wall's normal into the fluid; alpha = cs2 (tau_T - 1/2) = w_i (2 tau_T - 1)
// since cs2 = 2 w_i on these sets): conduction through a slab is linear to
// round-off (tests).

#include <array>
#include <cstdint>
#include <type_traits>

#include "dsl/latte.hpp"
#include "lattice/layout/site_walk.hpp"
#include "solvers/lbm/collision/equilibrium.hpp"

namespace latte::lbm {

// {solid, fixed, T_w} per site (top of this file).
template <class R, class W = DefaultWidth>
using ThermalBoundaryField = Lattice<RealVector<R, 3>, W>;

namespace detail {
template <class R, class W, class Solid, class Record>
void mark_thermal_wall(Lattice<RealVector<R, 3>, W>& b, Solid solid, Record record) {
  const auto view = b.host_view(Access::read_write);
  for_each_site(b.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    if (solid(x)) view.store(LaneSite<R>{o, l}, record(x));
  });
}
}  // namespace detail

// Marks every site where solid(x) holds as a wall at temperature
// temperature(x) (a function of the coordinate, for walls that are not
// isothermal); other sites are left as they are.
template <class R, class W, class Solid, class Temperature>
void mark_fixed_temperature(Lattice<RealVector<R, 3>, W>& b, Solid solid, Temperature temperature) {
  detail::mark_thermal_wall(b, solid, [&](const Coordinate& x) {
    return RealVector<R, 3>{{R(1), R(1), static_cast<R>(temperature(x))}};
  });
}
template <class R, class W, class Solid>
void mark_fixed_temperature(Lattice<RealVector<R, 3>, W>& b, Solid solid, double temperature) {
  mark_fixed_temperature(b, solid, [temperature](const Coordinate&) { return temperature; });
}

// Marks every site where solid(x) holds as a wall that lets the heat flux
// heat_flux(x) into the fluid (a function of the coordinate, or a number);
// other sites are left as they are.
template <class R, class W, class Solid, class HeatFlux>
void mark_heat_flux(Lattice<RealVector<R, 3>, W>& b, Solid solid, HeatFlux heat_flux) {
  detail::mark_thermal_wall(b, solid, [&](const Coordinate& x) {
    return RealVector<R, 3>{{R(1), R(0), static_cast<R>(heat_flux(x))}};
  });
}
template <class R, class W, class Solid>
void mark_heat_flux(Lattice<RealVector<R, 3>, W>& b, Solid solid, double heat_flux) {
  mark_heat_flux(b, solid, [heat_flux](const Coordinate&) { return heat_flux; });
}

// Marks every site where solid(x) holds as an adiabatic wall (no flux).
template <class R, class W, class Solid>
void mark_adiabatic(Lattice<RealVector<R, 3>, W>& b, Solid solid) {
  mark_heat_flux(b, solid, 0.0);
}

// The wall rule: the site rule value<VS, i>(previous, incoming, upstream)
// gives the population entering x from the wall cell x - c_i, from f*(x)
// of the previous step in natural order and the wall's record
// upstream[i] (what streamed into x, `incoming`, is for the curved rule).
template <class Boundary>
struct ThermalWalls {
  static constexpr int operands = 1;
  const Boundary& boundary;

  template <class VS, int I, class P, class U>
  LATTE_INLINE static auto value(const P& previous, const P&, const U& upstream) {
    static_assert(VS::q == 2 * VS::d + 1, "lbm: thermal walls take one unit face per link: D2Q5 or D3Q7");
    using V = std::remove_cvref_t<decltype(previous.v[0])>;
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    constexpr double weight = VS::w[I];  // a constant: device code cannot read the host table
    const V bounced = previous.v[VS::opposite[I]];
    const V wall_value = V(upstream.v[I].v[2]);
    return select_leaf(as_mask(upstream.v[I].v[1]), V(2.0 * weight) * wall_value - bounced, bounced + wall_value);
  }
};

}  // namespace latte::lbm
