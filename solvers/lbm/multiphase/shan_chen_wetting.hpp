#pragma once
// Wetting walls for the Shan–Chen model (shan_chen.hpp): a fluid next to a
// half-way bounce-back wall (solvers/lbm/walls/wall_rules.hpp) feels the wall through the
// same interaction force as through the fluid,
//   F(x) = -G psi(x) sum_i w_i psi(x + c_i) c_i,
// where a solid neighbour x + c_i contributes the wall pseudopotential
// psi_wall instead of a fluid one.
//
// Convention: the wetting parameter is a virtual wall density rho_w, with
// psi_wall = psi(rho_w) (Benzi et al. 2006; Huang et al. 2007 call it the
// "virtual density" of the wall). Between the coexisting vapour and liquid
// densities it sets the contact angle: rho_w near the liquid density
// attracts the liquid as much as liquid does (the wall wets, small angle),
// near the vapour density as little as vapour does (the wall does not wet,
// angle towards 180 degrees). The angle decreases monotonically as rho_w
// grows; the tests (tests/test_lbm_shan_chen_wetting.cpp) measure it.
// Outside [rho_v, rho_l] the wall still works but the angle saturates.
//
// The density a fluid site's psi is computed from is the one its next
// collision sees: what streams in from fluid neighbours, and from a solid
// neighbour what the half-way wall sends back (the same rule as the step,
// HalfWayWalls::value), so psi next to a wall is not polluted by the
// records solid cells keep. On solid sites psi is psi_wall and the force
// is zero (a solid cell keeps its record and never collides).
//
// Only half-way bounce-back walls: curved walls (interpolated links) would
// need the wall's own psi per link.

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/collision.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/walls/wall_rules.hpp"

namespace latte::lbm {

// The wetting parameter of Shan–Chen walls: the virtual wall density rho_w
// (lattice units, the same as the fluid's density), psi_wall = psi(rho_w).
struct Wetting {
  double wall_density;
};

namespace functors {

// psi at x from (incoming, beside, upstream boundary records): the density
// of the incoming populations, each one whose upstream cell is solid
// replaced by the wall's, then psi of it; psi_wall on solid sites.
template <class VS, class Pseudopotential, class Boundary>
struct PseudopotentialWithWalls {
  static constexpr const char* name = "pseudopotential_with_walls";
  Pseudopotential pseudopotential;
  double wall_psi;
  template <class V, class W>
  LATTE_INLINE V operator()(const Populations<V, VS::q>& incoming, const Populations<V, VS::q>& beside,
                            const Vec<W, VS::q, GenericIndex>& upstream) const {
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    V rho = incoming.v[0];  // the rest population stays where it is
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int I = decltype(i)::value;
      if constexpr (!is_rest_velocity<VS, I>()) {
        const V from_wall = HalfWayWalls<Boundary>::template value<VS, I>(beside, incoming, upstream);
        rho = rho + select_leaf(as_mask(upstream.v[I].v[0]), from_wall, incoming.v[I]);
      }
    });
    const auto solid_here = as_mask(upstream.v[0].v[0]);  // c_0 = 0: the site itself
    return select_leaf(solid_here, V(wall_psi), pseudopotential(rho));
  }
};

// The interaction force with the solid sites' force set to zero:
// (force, boundary record) -> force, or 0 on solid sites.
template <int D>
struct ZeroOnSolid {
  static constexpr const char* name = "zero_on_solid";
  template <class V, class W>
  LATTE_INLINE RealVector<V, D> operator()(const RealVector<V, D>& force, const RealVector<W, D + 1>& record) const {
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    const auto solid = as_mask(record.v[0]);
    RealVector<V, D> out;
    for (int d = 0; d < D; ++d) out.v[d] = select_leaf(solid, V(0.0), force.v[d]);
    return out;
  }
};

}  // namespace functors

// psi_wall = psi(rho_w) for a pseudopotential, checked finite (the
// Carnahan–Starling psi is not defined deep in the compressed liquid).
template <class Pseudopotential>
double wall_pseudopotential(const Pseudopotential& pseudopotential, const Wetting& wetting) {
  const double psi = pseudopotential(wetting.wall_density);
  if (!(wetting.wall_density > 0) || !std::isfinite(psi))
    throw std::invalid_argument("lbm: Shan-Chen wetting: the wall density " + std::to_string(wetting.wall_density) +
                                " gives no finite pseudopotential (psi = " + std::to_string(psi) + ")");
  return psi;
}

// psi of the density the next collision sees, with walls (see the top of
// this file), from the stored post-collision populations in natural order
// and the boundary field, as one expression.
template <class VS, class Pseudopotential, class F, class Boundary>
auto pseudopotential_with_walls(const Pseudopotential& pseudopotential, double wall_psi, const F& f,
                                const Boundary& boundary) {
  return map(functors::PseudopotentialWithWalls<VS, Pseudopotential, Boundary>{pseudopotential, wall_psi},
             streamed_populations<VS>(f), f, values_along_velocities<VS, -1>(boundary));
}

// A force expression with zero on the solid sites of a boundary field.
template <int D, class Force, class Boundary>
auto zero_on_solid(const Force& force, const Boundary& boundary) {
  return map(functors::ZeroOnSolid<D>{}, force, boundary);
}

}  // namespace latte::lbm
