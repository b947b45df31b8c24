#pragma once
// The two-component Shan–Chen model (Shan & Doolen 1995): two immiscible
// fluids, components sigma = 1, 2 (indices 0 and 1 here), each a population
// field of its own, that repel each other through a cross interaction.
// The site functors of one step; mixture_simulation.hpp owns the fields and
// issues the statements.
//
// Conventions (lattice units, c_s^2 = 1/3, solvers/lbm/collision/velocity_sets.hpp):
//   pseudopotential   psi_sigma = rho_sigma (the usual choice for
//                     immiscible mixtures: the force then stays bounded by
//                     the densities, whatever the coupling).
//   cross force       F_sigma(x) = -G psi_sigma(x) sum_i w_i psi_other(x + c_i) c_i
//                     G > 0 repels: each component is pushed away from
//                     where the other is. With psi = rho and
//                     sum_i w_i c_i c_i = c_s^2 I the bulk pressure is
//                     p = c_s^2 (rho_1 + rho_2) + G c_s^2 rho_1 rho_2, and a
//                     mixture of equal parts, rho_1 = rho_2 = rho / 2,
//                     separates for G rho > 2 (the spinodal of that
//                     pressure); G rho between about 2.2 and 3 gives two
//                     phases, each with a little of the other dissolved.
//                     Summed over both components the cross forces cancel
//                     pairwise on a periodic lattice: total momentum stays.
//   external force    F_ext,sigma = rho_sigma g_sigma, an acceleration per
//                     component (gravity on both; gravity on one only, for
//                     buoyancy between fluids of equal density; a pressure
//                     gradient as the same g on both).
//   velocity          one barycentric velocity in both equilibria,
//                       u = (j_1 + j_2 + (F_1 + F_2) / 2) / (rho_1 + rho_2),
//                     with Guo's source per component (its own F_sigma):
//                     the components exchange momentum through the
//                     collision and cannot slip through each other.
//   viscosity         both components relax with one local time tau(x),
//                     from the kinematic viscosity interpolated linearly in
//                     the composition phi = rho_1 / (rho_1 + rho_2):
//                       nu(x) = phi nu_1 + (1 - phi) nu_2,  tau = 3 nu + 1/2.
//                     In a pure fluid sigma, tau = tau_sigma. One tau for
//                     both is what lets the collision conserve the total
//                     momentum exactly (with tau_1 != tau_2 at one site the
//                     two relaxations toward the common u would not sum to
//                     the force); the interface, a few cells wide, gets an
//                     intermediate viscosity.
// Collision (BGK, per component, omega = 1 / tau(x)):
//   f_sigma,i' = f_sigma,i - omega (f_sigma,i - f_i^eq(rho_sigma, u))
//                + (1 - omega / 2) S_i(u, F_sigma)
// with Guo's S_i of solvers/lbm/collision/collision.hpp. Each component's mass is conserved
// (sum_i f^eq = rho_sigma, sum_i S_i = 0); the momentum of both together
// grows by F_1 + F_2 per step.

#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/collision.hpp"
#include "solvers/lbm/collision/equilibrium.hpp"
#include "solvers/lbm/collision/velocity_sets.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/walls/wall_rules.hpp"

namespace latte::lbm {

// The parameters of a two-component mixture in lattice units.
struct MixtureParameters {
  double tau[2] = {1.0, 1.0};                 // tau_sigma of each pure fluid, > 1/2
  double coupling = 2.5;                      // G of the cross force (> 0 repels)
  double gravity[2][3] = {{0, 0, 0}, {0, 0, 0}};  // g_sigma, an acceleration (first d entries)
};

namespace functors {

// The cross forces of both components from the densities (rho_1, rho_2) at
// x + c_i for every i (entry 0, c_0 = 0, is x itself): one RealVector of
// 2 d entries, F_1 then F_2. The sum over i unrolls over the compile-time
// velocities, as ShanChenForce's does.
template <class VS>
struct MixtureCrossForce {
  static constexpr const char* name = "mixture_cross_force";
  double coupling;
  template <class Neighbours>
  LATTE_INLINE auto operator()(const Neighbours& rho) const {
    using V = std::remove_cvref_t<decltype(rho.v[0].v[0])>;
    // sums[s][d] = sum_i w_i rho_s(x + c_i) c_id
    V sums[2][VS::d];
    for (int s = 0; s < 2; ++s)
      for (int d = 0; d < VS::d; ++d) sums[s][d] = V(0.0);
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int I = decltype(i)::value;
      if constexpr (!is_rest_velocity<VS, I>()) {
        constexpr double weight = VS::w[I];  // constants: device code cannot read the host tables
        for (int s = 0; s < 2; ++s) {
          const V weighted = V(weight) * rho.v[I].v[s];
          static_for<VS::d>([&](auto d) LATTE_LAMBDA {
            constexpr int D = decltype(d)::value;
            constexpr int c = VS::c[I][D];
            if constexpr (c > 0) sums[s][D] = sums[s][D] + weighted;
            else if constexpr (c < 0) sums[s][D] = sums[s][D] - weighted;
          });
        }
      }
    });
    RealVector<V, 2 * VS::d> force;
    const V scale_1 = V(-coupling) * rho.v[0].v[0];  // -G psi_1(x): pushed by component 2
    const V scale_2 = V(-coupling) * rho.v[0].v[1];  // -G psi_2(x): pushed by component 1
    for (int d = 0; d < VS::d; ++d) {
      force.v[d] = scale_1 * sums[1][d];
      force.v[VS::d + d] = scale_2 * sums[0][d];
    }
    return force;
  }
};

// The state both components collide from at one site: densities, the
// total force of each, the common velocity and the local rate.
template <class VS, class V>
struct MixtureState {
  V rho[2];
  V force[2][VS::d];
  V u[VS::d];
  V omega;
};

template <class VS, class V>
LATTE_INLINE MixtureState<VS, V> mixture_state(const Populations<V, VS::q>& f1, const Populations<V, VS::q>& f2,
                                               const RealVector<V, 2 * VS::d>& cross, const double (&nu)[2],
                                               const double (&gravity)[2][3]) {
  MixtureState<VS, V> s;
  const Moments<V, VS::d> m[2] = {moments<VS>(f1), moments<VS>(f2)};
  s.rho[0] = m[0].rho;
  s.rho[1] = m[1].rho;
  const V total = s.rho[0] + s.rho[1];
  const V inv_rho = V(1.0) / total;
  for (int d = 0; d < VS::d; ++d) {
    for (int c = 0; c < 2; ++c) s.force[c][d] = cross.v[c * VS::d + d] + V(gravity[c][d]) * s.rho[c];
    s.u[d] = (m[0].j[d] + m[1].j[d] + V(0.5) * (s.force[0][d] + s.force[1][d])) * inv_rho;
  }
  const V phi = s.rho[0] * inv_rho;
  const V viscosity = V(nu[1]) + phi * V(nu[0] - nu[1]);
  s.omega = V(1.0) / (V(3.0) * viscosity + V(0.5));
  return s;
}

// BGK with Guo's source for component C, toward the common velocity.
template <class VS, int C, class V>
LATTE_INLINE Populations<V, VS::q> mixture_relax(const Populations<V, VS::q>& f, const MixtureState<VS, V>& s) {
  const V base = equilibrium_base<VS>(s.u);
  V uF = s.u[0] * s.force[C][0];
  for (int d = 1; d < VS::d; ++d) uF = uF + s.u[d] * s.force[C][d];
  const V keep = V(1.0) - s.omega;
  const V source_weight = V(1.0) - V(0.5) * s.omega;
  Populations<V, VS::q> out;
  static_for<VS::q>([&](auto i) LATTE_LAMBDA {
    V even, odd;
    equilibrium_parts<VS, i>(s.rho[C], s.u, base, even, odd);
    out.v[i] = keep * f.v[i] + s.omega * (even + odd) +
               source_weight * detail::guo_source<VS, i, V>(s.u, s.force[C], uF);
  });
  return out;
}

// One pull-scheme update of component C, reading both components'
// streamed populations (the common velocity needs both): a periodic
// lattice, or half-way bounce-back walls (the rule of solvers/lbm/walls/wall_rules.hpp applied
// to each component; a solid cell keeps its record).
template <class VS, int C, class Walls>
struct MixtureUpdate {
  static constexpr const char* name = Walls::operands == 0 ? "mixture_collide" : "mixture_collide_with_walls";
  double nu[2];
  double gravity[2][3];

  template <class V>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& in1, const Populations<V, VS::q>& in2,
                                                const RealVector<V, 2 * VS::d>& cross) const {
    const auto s = mixture_state<VS>(in1, in2, cross, nu, gravity);
    return mixture_relax<VS, C>(C == 0 ? in1 : in2, s);
  }

  template <class V, class W>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& in1, const Populations<V, VS::q>& in2,
                                                const RealVector<V, 2 * VS::d>& cross,
                                                const Populations<V, VS::q>& beside1,
                                                const Populations<V, VS::q>& beside2,
                                                const Vec<W, VS::q, GenericIndex>& upstream) const {
    using P = Populations<V, VS::q>;
    const P a = walled<VS, Walls>(in1, beside1, upstream), b = walled<VS, Walls>(in2, beside2, upstream);
    const auto s = mixture_state<VS>(a, b, cross, nu, gravity);
    const P out = mixture_relax<VS, C>(C == 0 ? a : b, s);
    return kept_on_solid(C == 0 ? beside1 : beside2, out, upstream);
  }
};

// The densities (rho_1, rho_2) the next collision sees at x, with walls:
// the streamed populations with the wall's in place of those whose
// upstream cell is solid (what MixtureUpdate collides), so that the force
// is that of the density the step collides next to a wall too. On a solid
// cell, the density of its own record: the wall's pseudopotential.
template <class VS, class Walls>
struct MixtureDensitiesWithWalls {
  static constexpr const char* name = "mixture_densities_with_walls";
  template <class V, class W>
  LATTE_INLINE RealVector<V, 2> operator()(const Populations<V, VS::q>& in1, const Populations<V, VS::q>& in2,
                                           const Populations<V, VS::q>& beside1,
                                           const Populations<V, VS::q>& beside2,
                                           const Vec<W, VS::q, GenericIndex>& upstream) const {
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    const auto walled_density = [&](const Populations<V, VS::q>& incoming, const Populations<V, VS::q>& previous)
                                    LATTE_LAMBDA {
      const auto in = walled<VS, Walls>(incoming, previous, upstream);
      V rho = in.v[0];
      static_for<VS::q>([&](auto i) LATTE_LAMBDA {
        if constexpr (!is_rest_velocity<VS, i>()) rho = rho + in.v[i];
      });
      return rho;
    };
    const auto solid_here = as_mask(upstream.v[0].v[0]);  // c_0 = 0: the site itself
    RealVector<V, 2> rho;
    rho.v[0] = select_leaf(solid_here, moments<VS>(beside1).rho, walled_density(in1, beside1));
    rho.v[1] = select_leaf(solid_here, moments<VS>(beside2).rho, walled_density(in2, beside2));
    return rho;
  }
};

// u = (j_1 + j_2 - (F_1 + F_2) / 2) / rho from the stored post-collision
// populations (the mean of before and after the step's forcing, as
// solvers/lbm/collision/macroscopic.hpp's velocity), with the cross force of the step taken.
template <class VS>
struct MixtureVelocity {
  static constexpr const char* name = "mixture_velocity";
  double gravity[2][3];
  template <class V>
  LATTE_INLINE RealVector<V, VS::d> operator()(const Populations<V, VS::q>& f1, const Populations<V, VS::q>& f2,
                                               const RealVector<V, 2 * VS::d>& cross) const {
    const Moments<V, VS::d> m[2] = {moments<VS>(f1), moments<VS>(f2)};
    const V inv_rho = V(1.0) / (m[0].rho + m[1].rho);
    RealVector<V, VS::d> u;
    for (int d = 0; d < VS::d; ++d) {
      const V force = cross.v[d] + cross.v[VS::d + d] + V(gravity[0][d]) * m[0].rho + V(gravity[1][d]) * m[1].rho;
      u.v[d] = (m[0].j[d] + m[1].j[d] - V(0.5) * force) * inv_rho;
    }
    return u;
  }
};

}  // namespace functors

// The cross forces (F_1, F_2) of a field of densities (rho_1, rho_2), as one
// fused statement's right-hand side: Q shifted reads of the density pair.
template <class VS, class Densities>
auto mixture_cross_force(double coupling, const Densities& rho) {
  return map(functors::MixtureCrossForce<VS>{coupling}, values_along_velocities<VS, +1>(rho));
}

}  // namespace latte::lbm
