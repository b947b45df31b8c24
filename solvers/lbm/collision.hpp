#pragma once
// Collision operators, applied site-locally to streamed populations:
//
//   BGK:  f_i' = f_i - omega (f_i - f_i^eq),               omega = 1 / tau
//   TRT:  f_i' = f_i - omega+ (f_i^+ - f_i^eq+) - omega- (f_i^- - f_i^eq-)
//         with f_i^+- = (f_i +- f_opp(i)) / 2. omega+ = 1 / tau sets the
//         viscosity; omega- is chosen through the "magic" parameter
//         Lambda = (1/omega+ - 1/2)(1/omega- - 1/2); Lambda = 3/16 puts the
//         half-way bounce-back wall exactly half-way for Poiseuille flow.
//
// Body force (Guo, Zheng & Shi 2002): the velocity is u = (sum c f + F/2)/rho
// and the source S_i = w_i [3 (c_i - u).F + 9 (c_i.u)(c_i.F)] is added with
// weight (1 - omega/2) (BGK); TRT weights its odd part 3 w_i c_i.F by
// (1 - omega-/2) and its even part by (1 - omega+/2).
//
//   MRT:  f' = f - M^-1 S (M f - M f^eq), with the orthogonal moments m = M f
//         of moment_basis.hpp and S diagonal: density and momentum are
//         conserved; the shear moments relax with omega+ = 1 / tau (the
//         viscosity, as BGK), the bulk moment c^2 with omega_bulk (bulk
//         viscosity nu_b = (2/3)(1/omega_bulk - 1/2)), the odd ghosts with
//         omega_odd and the even ghosts with omega_even. The equilibrium
//         moments are those of f^eq above (M f^eq). With every rate equal to
//         omega it is BGK; with omega_odd = omega- and the rest omega+, TRT.
//         Ghost and bulk rates near 1 damp the modes that BGK, whose every
//         rate approaches 2 as tau -> 1/2, leaves nearly undamped: that is
//         what keeps MRT stable at Reynolds numbers where BGK diverges, and
//         why the defaults are 1. TRT's magic rate for the odd ghosts,
//         omega_odd = Trt::omega_minus(omega+), puts bounce-back walls
//         where TRT puts them, but it tends to 0 as tau -> 1/2 and gives the
//         stability back (a cavity at Re = 5000 on 64^2 cells diverges with
//         it and stays bounded with omega_odd = 1).
//         Guo forcing in moment space: + M^-1 (I - S/2) M S_F, with S_F the
//         BGK source below (the momentum rows relax at rate 1, which gives
//         the force's full momentum, F, whatever the rate).
//
// Parameters reach the site functor as one broadcast constant vector
//   {omega+, omega- (MRT: omega_odd), omega_bulk, omega_even, F_0, ..., F_{d-1}}
// (BGK uses omega+ only, TRT omega+ and omega-), so one compiled kernel
// serves every tau and force.

#include "solvers/lbm/equilibrium.hpp"
#include "solvers/lbm/moment_basis.hpp"

namespace latte::lbm {

struct Bgk {
  static constexpr const char* name = "BGK";
};
struct Trt {
  static constexpr const char* name = "TRT";
  static constexpr double magic = 3.0 / 16.0;
  static double omega_minus(double omega_plus, double lambda = magic) {
    return 1.0 / (lambda / (1.0 / omega_plus - 0.5) + 0.5);
  }
};

struct Mrt {
  static constexpr const char* name = "MRT";
  // Default rates of the moments that do not set the viscosity.
  static constexpr double bulk_rate = 1.0;
  static constexpr double odd_ghost_rate = 1.0;
  static constexpr double even_ghost_rate = 1.0;
};

// Where the entries of the collision parameter vector are.
inline constexpr int omega_plus_entry = 0, omega_minus_entry = 1, omega_bulk_entry = 2, omega_even_entry = 3,
                     force_entry = 4;

template <class VS>
using CollisionParameters = RealVector<double, force_entry + VS::d>;

template <class VS>
CollisionParameters<VS> collision_parameters(double omega_plus, double omega_minus, const double* force = nullptr,
                                             double omega_bulk = Mrt::bulk_rate,
                                             double omega_even = Mrt::even_ghost_rate) {
  CollisionParameters<VS> p;
  p.v[omega_plus_entry] = omega_plus;
  p.v[omega_minus_entry] = omega_minus;
  p.v[omega_bulk_entry] = omega_bulk;
  p.v[omega_even_entry] = omega_even;
  for (int d = 0; d < VS::d; ++d) p.v[force_entry + d] = force ? force[d] : 0.0;
  return p;
}

namespace detail {

// Guo's source for population I (top of this file): w_I [3 (c_I - u).F +
// 9 (c_I.u)(c_I.F)], given uF = u.F.
template <class VS, int I, class V, class K>
LATTE_INLINE V guo_source(const V* u, const K& params, const V& uF) {
  const V cu = dot_c<VS, I, V>(u);
  const V cF = dot_c<VS, I, V>(&params.v[force_entry]);
  constexpr double weight = VS::w[I];  // a constant: device code cannot read the host table
  return V(3.0 * weight) * (cF - uF) + V(9.0 * weight) * cu * cF;
}

// sum_i M[A][i] x_i over the non-zero entries of row A.
template <class VS, int A, class V>
LATTE_INLINE V moment_row(const V* x) {
  using Basis = MomentBasis<VS>;  // read in constant expressions only, so device code may use it too
  V sum = V(0.0);
  static_for<VS::q>([&](auto i) LATTE_LAMBDA {
    constexpr double entry = Basis::table.m[A][i];
    if constexpr (entry == 1.0) sum = sum + x[i];
    else if constexpr (entry == -1.0) sum = sum - x[i];
    else if constexpr (entry != 0.0) sum = sum + V(entry) * x[i];
  });
  return sum;
}

// The MRT collision of one site (see the top of this file).
template <class VS, bool Forced, class V, class K>
LATTE_INLINE Populations<V, VS::q> collide_mrt(const Populations<V, VS::q>& f, const V& rho, const V* u,
                                               const V& base, const V& uF, const K& params) {
  constexpr int Q = VS::q;
  using Basis = MomentBasis<VS>;  // read in constant expressions only, so device code may use it too
  V departure[Q];  // f - f^eq
  V source[Q];     // S_F, forced only
  static_for<Q>([&](auto i) LATTE_LAMBDA {
    V even, odd;
    equilibrium_parts<VS, i>(rho, u, base, even, odd);
    departure[i] = f.v[i] - (even + odd);
    if constexpr (Forced) source[i] = guo_source<VS, i>(u, params, uF);
  });
  // g_a = s_a (m_a - m_a^eq) - (1 - s_a / 2) (M S_F)_a, zero where nothing changes.
  V g[Q];
  static_for<Q>([&](auto a) LATTE_LAMBDA {
    constexpr MomentKind kind = Basis::table.kind[a];
    if constexpr (kind == MomentKind::density) {
      g[a] = V(0.0);
    } else if constexpr (kind == MomentKind::momentum) {
      if constexpr (Forced) g[a] = moment_row<VS, a>(departure) - V(0.5) * moment_row<VS, a>(source);
      else g[a] = V(0.0);
    } else {
      constexpr int entry = kind == MomentKind::shear       ? omega_plus_entry
                            : kind == MomentKind::odd_ghost ? omega_minus_entry
                            : kind == MomentKind::bulk      ? omega_bulk_entry
                                                            : omega_even_entry;
      const V rate = params.v[entry];
      g[a] = rate * moment_row<VS, a>(departure);
      if constexpr (Forced) g[a] = g[a] - (V(1.0) - V(0.5) * rate) * moment_row<VS, a>(source);
    }
  });
  // f' = f - M^-1 g, M^-1[i][a] = M[a][i] / |p_a|^2.
  Populations<V, Q> out;
  static_for<Q>([&](auto i) LATTE_LAMBDA {
    V change = V(0.0);
    static_for<Q>([&](auto a) LATTE_LAMBDA {
      constexpr MomentKind kind = Basis::table.kind[a];
      constexpr bool skipped = kind == MomentKind::density || (kind == MomentKind::momentum && !Forced);
      constexpr double entry = Basis::table.m[a][i] / Basis::table.norm2[a];
      if constexpr (!skipped && entry != 0.0) change = change + V(entry) * g[a];
    });
    out.v[i] = f.v[i] - change;
  });
  return out;
}

}  // namespace detail

// The collision of one site. Model is Bgk, Trt or Mrt; Forced adds Guo forcing.
template <class VS, class Model, bool Forced, class V, class K>
LATTE_INLINE Populations<V, VS::q> collide(const Populations<V, VS::q>& f, const K& params) {
  constexpr int D = VS::d;
  const Moments<V, D> m = moments<VS>(f);
  const V inv_rho = V(1.0) / m.rho;
  V u[D];
  for (int d = 0; d < D; ++d) {
    if constexpr (Forced) u[d] = (m.j[d] + V(0.5) * params.v[force_entry + d]) * inv_rho;
    else u[d] = m.j[d] * inv_rho;
  }
  const V omega = params.v[omega_plus_entry];
  const V base = equilibrium_base<VS>(u);
  // Forcing constants shared by all i: -3 u.F, and the source weights.
  V uF = V(0.0);
  if constexpr (Forced)
    for (int d = 0; d < D; ++d) uF = uF + u[d] * params.v[force_entry + d];

  Populations<V, VS::q> out;
  if constexpr (std::is_same_v<Model, Mrt>) {
    out = detail::collide_mrt<VS, Forced>(f, m.rho, u, base, uF, params);
  } else if constexpr (std::is_same_v<Model, Bgk>) {
    // Pairs (i, opp i) share c_i.u and the even part of omega f^eq, and
    // omega w_i rho is one product per distinct weight: about 5 operations
    // per population instead of 10, which is what lets the collision keep
    // up with memory at 4 lanes (AVX2). The pair is taken from the member
    // whose first non-zero velocity component is +1, so that c_i.u needs
    // no negation.
    const V keep = V(1.0) - omega;
    const V source_weight = V(1.0) - V(0.5) * omega;
    const V omega_rho = omega * m.rho;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int o = VS::opposite[i];
      constexpr int first = first_nonzero_component<VS, i>();
      constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
      if constexpr (i == o) {
        out.v[i] = keep * f.v[i] + V(weight) * omega_rho * base;
      } else if constexpr (VS::c[i][first] == 1) {
        V even, odd;  // of omega f^eq: the equilibrium with omega rho for rho
        equilibrium_parts<VS, i>(omega_rho, u, base, even, odd);
        out.v[i] = keep * f.v[i] + (even + odd);
        out.v[o] = keep * f.v[o] + (even - odd);
      }
    });
    if constexpr (Forced)
      static_for<VS::q>([&](auto i) LATTE_LAMBDA {
        out.v[i] = out.v[i] + source_weight * detail::guo_source<VS, i>(u, params, uF);
      });
  } else {
    static_assert(std::is_same_v<Model, Trt>, "lbm: the collision model is Bgk, Trt or Mrt");
    const V omega_minus = params.v[omega_minus_entry];
    const V half = V(0.5);
    const V even_weight = V(1.0) - half * omega;
    const V odd_weight = V(1.0) - half * omega_minus;
    // Pairs (i, opp(i)) are relaxed together; the rest population has no odd part.
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int o = VS::opposite[i];
      if constexpr (i <= o) {
        V even, odd;
        equilibrium_parts<VS, i>(m.rho, u, base, even, odd);
        const V f_even = half * (f.v[i] + f.v[o]);
        const V f_odd = half * (f.v[i] - f.v[o]);
        V delta_even = omega * (even - f_even);
        V delta_odd = omega_minus * (odd - f_odd);
        if constexpr (Forced) {
          const V cu = dot_c<VS, i, V>(u);
          const V cF = dot_c<VS, i, V>(&params.v[force_entry]);
          constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
          delta_even = delta_even + even_weight * (V(9.0 * weight) * cu * cF - V(3.0 * weight) * uF);
          delta_odd = delta_odd + odd_weight * (V(3.0 * weight) * cF);
        }
        if constexpr (i == o) {
          out.v[i] = f.v[i] + delta_even;
        } else {
          out.v[i] = f.v[i] + delta_even + delta_odd;
          out.v[o] = f.v[o] + delta_even - delta_odd;
        }
      }
    });
  }
  return out;
}

}  // namespace latte::lbm
