#pragma once
// Curved walls: interpolated bounce-back (Bouzidi, Firdaouss & Lallemand,
// Phys. Fluids 13, 2001, 3452) and the momentum-exchange force that goes
// with it, so that a cylinder or a sphere is not a staircase.
//
// A wall link joins a fluid site x to a solid site x - c_k; the wall cuts
// it at the fraction q in (0, 1] of its length, measured from x. Population
// k arrives at x from the wall side; it is rebuilt from post-collision
// populations f* (what the pull scheme stores) with o = opp(k):
//   q <  1/2:  f_k(x) = 2q f*_o(x) + (1 - 2q) f*_o(x + c_k)
//   q >= 1/2:  f_k(x) = [f*_o(x) + (2q - 1) f*_k(x)] / (2q)
// plus the moving-wall term 2 w_k rho_w (c_k.u_w) / c_s^2, divided by 2q on
// the second branch. q = 1/2 is the half-way bounce-back of
// solvers/lbm/streaming/stream_collide.hpp. f*_o(x + c_k) is population o streamed into x, which
// the pull scheme reads anyway; where x + c_k is solid too (a gap one cell
// wide) the link falls back to half-way bounce-back. The scheme is second
// order in the wall position for any q.
//
// The fractions live in a link field, per site Q reals: q_k(x) on the wall
// links, 0 elsewhere. A solid site of the boundary field without fractions
// on its links (a straight channel wall) stays a half-way wall.

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "lattice/layout/site_walk.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"

namespace latte::lbm {

template <class VS, class R = double, class W = DefaultWidth>
using WallLinkField = Lattice<RealVector<R, VS::q>, W>;

namespace detail {
// Where the wall cuts a link: along(t) is the distance function at the
// fraction t of the link from its fluid end, >= 0 at t = 0 and < 0 at
// t = 1; the wall is found by bisection to 1e-12 of the link's length.
template <class Along>
double wall_fraction(Along along) {
  double fluid_end = 0.0, solid_end = 1.0;
  for (int step = 0; step < 60 && solid_end - fluid_end > 1e-12; ++step) {
    const double middle = 0.5 * (fluid_end + solid_end), value = along(middle);
    if (value == 0) {  // on the wall: exact (a wall half-way gives q = 1/2, the half-way bounce-back)
      fluid_end = solid_end = middle;
      break;
    }
    (value < 0 ? solid_end : fluid_end) = middle;
  }
  return std::max(0.5 * (fluid_end + solid_end), 1e-6);
}
}  // namespace detail

// mark_curved_obstacle<VS>(b, links, distance): marks the obstacle
// {x : distance(x) < 0} solid in the boundary field b
// (resting) and stores the wall fractions of its links in `links`. distance
// is a signed distance, or any continuous function negative inside and
// positive outside, called with the coordinates (std::array<double, D>) in
// lattice units, a site's coordinates being its integer indices. The wall
// is located on each link by bisection to 1e-12 of the link's length.
// Neighbours are taken at unwrapped coordinates (x - c_k may lie outside
// the lattice): an obstacle across the periodic boundary needs a periodic
// distance, so that it is solid on both sides of the wrap.
template <class VS, class R, int N, class W, class Distance>
void mark_curved_obstacle(Lattice<Vec<R, N, GenericIndex>, W>& b, WallLinkField<VS, R, W>& links, Distance distance) {
  constexpr int D = VS::d;
  static_assert(N == D + 1, "lbm: the boundary field holds {solid, u_w} for this velocity set's dimension");
  if (b.geometry().dims() != links.geometry().dims())
    throw std::invalid_argument("lbm: the boundary field and the wall-link field have different lattices");
  auto at = [&](const Coordinate& x, int k, double t) {
    std::array<double, D> p;
    for (int d = 0; d < D; ++d) p[d] = x[d] - t * VS::c[k][d];
    return static_cast<double>(distance(p));
  };
  const auto bv = b.host_view(Access::read_write);
  const auto lv = links.host_view(Access::read_write);
  for_each_site(b.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    const LaneSite<R> site{o, l};
    if (at(x, 0, 0.0) < 0) {
      RealVector<R, N> solid{};
      solid.v[0] = R(1);
      bv.store(site, solid);
      return;
    }
    RealVector<R, VS::q> q{};
    for (int k = 1; k < VS::q; ++k)
      if (at(x, k, 1.0) < 0) q.v[k] = static_cast<R>(detail::wall_fraction([&](double t) { return at(x, k, t); }));
    lv.store(site, q);
  });
}

namespace detail {

// Which rule a wall link takes, by its fraction q (0: no fraction, a
// half-way wall): the half-way value at q = 0, the lower branch below 1/2
// (half-way where x + c_k is solid too: the lower branch reads the
// population streamed from there), the upper branch, given times 2q, from
// 1/2 on. The flow's interpolated bounce-back and the temperature's
// interpolated anti-bounce-back (solvers/lbm/thermal/thermal_curved_walls.hpp) both place
// their walls through it.
template <class V, class Mask>
LATTE_INLINE V interpolated_link(const V& q, const Mask& beyond_is_solid, const V& half_way, const V& lower,
                                 const V& upper_times_two_q) {
  using latte::functors::select_leaf;
  const V divisor = select_leaf(q > V(0.0), q + q, V(1.0));
  const V upper = upper_times_two_q / divisor;
  const V curved = select_leaf(q < V(0.5), select_leaf(beyond_is_solid, half_way, lower), upper);
  return select_leaf(q > V(0.0), curved, half_way);
}

// Population K arriving at a fluid site from the wall side, by interpolated
// bounce-back (the formulas at the top of this file). q is its link's
// fraction (0: a half-way wall); `upstream` holds the boundary records at
// x - c_i for every i.
template <class VS, int K, class V, class Wb>
LATTE_INLINE V bounced_back(const Populations<V, VS::q>& here, const Populations<V, VS::q>& streamed, const V& q,
                            const Vec<Wb, VS::q, GenericIndex>& upstream) {
  using latte::functors::as_mask;
  constexpr int o = VS::opposite[K];
  constexpr double weight = VS::w[K];  // a constant: device code cannot read the host table
  const V moving = V(6.0 * weight) * dot_c<VS, K, V>(&upstream.v[K].v[1]);  // 2 w_k / c_s^2 = 6 w_k
  const V half_way = here.v[o] + moving;
  const V two_q = q + q;
  const V lower = two_q * here.v[o] + (V(1.0) - two_q) * streamed.v[o] + moving;
  const V upper_times_two_q = here.v[o] + moving + (two_q - V(1.0)) * here.v[K];
  return interpolated_link(q, as_mask(upstream.v[o].v[0]), half_way, lower, upper_times_two_q);  // x - c_o = x + c_K
}

}  // namespace detail

namespace functors {

// The momentum a fluid site gives the obstacle in one step: for every
// population i = opp(k) leaving x towards an obstacle cell x - c_k,
//   c_i (f*_i(x) + f_k(x, t + 1)) = -c_k (f*_i(x) + f_k(x, t + 1))
// with f_k the interpolated bounce-back above (Ladd's momentum exchange
// with the populations the wall really returns). Evaluated on the
// populations stored after a step, it is the force of the next step.
template <class VS>
struct CurvedMomentumExchange {
  template <class V, class Wb, class Wo>
  LATTE_INLINE RealVector<V, VS::d> operator()(const Populations<V, VS::q>& here,
                                               const Populations<V, VS::q>& streamed,
                                               const Vec<Wb, VS::q, GenericIndex>& upstream,
                                               const RealVector<V, VS::q>& links, const V& fluid,
                                               const Vec<Wo, VS::q, GenericIndex>& obstacle_upstream) const {
    RealVector<V, VS::d> force;
    for (int d = 0; d < VS::d; ++d) force.v[d] = V(0.0);
    static_for<VS::q>([&](auto k) LATTE_LAMBDA {
      if constexpr (!is_rest_velocity<VS, k>()) {
        constexpr int i = VS::opposite[k];
        const V returned = detail::bounced_back<VS, k>(here, streamed, links.v[k], upstream);
        const V exchanged = fluid * obstacle_upstream.v[k] * (here.v[i] + returned);  // masks are 0 or 1
        static_for<VS::d>([&](auto d) LATTE_LAMBDA {
          if constexpr (VS::c[k][d] == 1) force.v[d] = force.v[d] - exchanged;
          else if constexpr (VS::c[k][d] == -1) force.v[d] = force.v[d] + exchanged;
        });
      }
    });
    return force;
  }
};

}  // namespace functors

// The per-site force contributions on the obstacle whose solid cells are 1
// in `obstacle`; sum(...) of it is the force. `fluid` is 1 on fluid sites.
template <class VS, class F, class B, class L, class Fluid, class Obstacle>
auto curved_momentum_exchange(const F& f, const B& boundary, const L& links, const Fluid& fluid,
                              const Obstacle& obstacle) {
  return map<functors::CurvedMomentumExchange<VS>>(f, streamed_populations<VS>(f),
                                                   values_along_velocities<VS, -1>(boundary), links, fluid,
                                                   values_along_velocities<VS, -1>(obstacle));
}

}  // namespace latte::lbm
