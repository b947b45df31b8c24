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
// Parameters reach the site functor as one broadcast constant vector
//   {omega+, omega-, F_0, ..., F_{d-1}}  (BGK ignores omega-),
// so one compiled kernel serves every tau and force.

#include "solvers/lbm/equilibrium.hpp"

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

template <class VS>
using CollisionParameters = RealVector<double, 2 + VS::d>;

template <class VS>
CollisionParameters<VS> collision_parameters(double omega_plus, double omega_minus, const double* force = nullptr) {
  CollisionParameters<VS> p;
  p.v[0] = omega_plus;
  p.v[1] = omega_minus;
  for (int d = 0; d < VS::d; ++d) p.v[2 + d] = force ? force[d] : 0.0;
  return p;
}

// The collision of one site. Model is Bgk or Trt; Forced adds Guo forcing.
template <class VS, class Model, bool Forced, class V, class K>
LATTE_INLINE Populations<V, VS::q> collide(const Populations<V, VS::q>& f, const K& params) {
  constexpr int D = VS::d;
  const Moments<V, D> m = moments<VS>(f);
  const V inv_rho = V(1.0) / m.rho;
  V u[D];
  for (int d = 0; d < D; ++d) {
    if constexpr (Forced) u[d] = (m.j[d] + V(0.5) * params.v[2 + d]) * inv_rho;
    else u[d] = m.j[d] * inv_rho;
  }
  const V omega = params.v[0];
  const V base = equilibrium_base<VS>(u);
  // Forcing constants shared by all i: -3 u.F, and the source weights.
  V uF = V(0.0);
  if constexpr (Forced)
    for (int d = 0; d < D; ++d) uF = uF + u[d] * params.v[2 + d];

  Populations<V, VS::q> out;
  if constexpr (std::is_same_v<Model, Bgk>) {
    const V keep = V(1.0) - omega;
    const V source_weight = V(1.0) - V(0.5) * omega;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      V even, odd;
      equilibrium_parts<VS, i>(m.rho, u, base, even, odd);
      V value = keep * f.v[i] + omega * (even + odd);
      if constexpr (Forced) {
        const V cu = dot_c<VS, i, V>(u);
        const V cF = dot_c<VS, i, V>(&params.v[2]);
        const V source = V(3.0 * VS::w[i]) * (cF - uF) + V(9.0 * VS::w[i]) * cu * cF;
        value = value + source_weight * source;
      }
      out.v[i] = value;
    });
  } else {
    const V omega_minus = params.v[1];
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
          const V cF = dot_c<VS, i, V>(&params.v[2]);
          delta_even = delta_even + even_weight * (V(9.0 * VS::w[i]) * cu * cF - V(3.0 * VS::w[i]) * uF);
          delta_odd = delta_odd + odd_weight * (V(3.0 * VS::w[i]) * cF);
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
