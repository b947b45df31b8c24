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
//         omega_odd = Trt::omega_minus_for(omega+), puts bounce-back walls
//         where TRT puts them, but it tends to 0 as tau -> 1/2 and gives the
//         stability back (a cavity at Re = 5000 on 64^2 cells diverges with
//         it and stays bounded with omega_odd = 1).
//         Guo forcing in moment space: + M^-1 (I - S/2) M S_F, with S_F the
//         BGK source below (the momentum rows relax at rate 1, which gives
//         the force's full momentum, F, whatever the rate).
//
// A model is an object that carries its rates (double precision; a kernel
// rounds them to the statement's precision as it would a constant operand).
// It is copied into the statement's evaluator, so one compiled kernel serves
// every tau. The body force F (d reals) is an operand of the statement of
// its own (solvers/lbm/update/lattice_update.hpp): uniform, or one per site.
//
// A model owns its parameters: Model::Parameters holds what a user sets
// (tau, which fixes the viscosity nu = (tau - 1/2) / 3 for every model
// here, and the model's own knobs), and Model::from(parameters) checks them
// and returns the model with its rates, or throws std::invalid_argument
// naming the model, the parameter and its value. A simulation
// (solvers/lbm/flow/simulation.hpp) holds FlowParameters<Model>, the
// model's parameters and the body force, and never looks inside them.
//
// A new model is a struct with a name, its rates, its Parameters (with
// tau), from(), and
//   template <class VS, bool Forced, class V>
//   Populations<V, VS::q> relax(const Populations<V, VS::q>& f, const CollisionState<V, VS::d>& s,
//                               const V* force) const;
// given the state every model shares (density, the velocity with half the
// force, 1 - 3/2 u.u and u.F, below); collide() computes that state once.
// tests/test_lbm_user_collision.cpp adds one in a test's own file.

#include <concepts>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "solvers/lbm/collision/equilibrium.hpp"
#include "solvers/lbm/collision/moment_basis.hpp"

namespace latte::lbm {

// The state every model relaxes from: the density, the velocity
// u = (sum c f + F/2) / rho (Guo), base = 1 - 3/2 u.u of the equilibrium
// (equilibrium.hpp) and u.F (forced only).
template <class V, int D>
struct CollisionState {
  V rho;
  V u[D];
  V base;
  V uF;
};

namespace detail {

// tau > 1/2: a positive viscosity.
inline void check_tau(const char* model, double tau) {
  if (!(tau > 0.5))
    throw std::invalid_argument(std::string("lbm: ") + model + ": tau must exceed 1/2 (positive viscosity), got " +
                                std::to_string(tau));
}

// Guo's source for population I (top of this file): w_I [3 (c_I - u).F +
// 9 (c_I.u)(c_I.F)], given uF = u.F.
template <class VS, int I, class V>
LATTE_INLINE V guo_source(const V* u, const V* force, const V& uF) {
  const V cu = dot_c<VS, I, V>(u);
  const V cF = dot_c<VS, I, V>(force);
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

}  // namespace detail

// BGK: one rate, omega = 1 / tau.
struct Bgk {
  static constexpr const char* name = "BGK";
  double omega = 1.0;

  struct Parameters {
    double tau = 1.0;  // omega = 1 / tau
  };
  static Bgk from(const Parameters& p) {
    detail::check_tau(name, p.tau);
    return from_tau(p.tau);
  }
  static Bgk from_tau(double tau) { return {1.0 / tau}; }

  // Pairs (i, opp i) share c_i.u and the even part of omega f^eq, and
  // omega w_i rho is one product per distinct weight: about 5 operations
  // per population instead of 10, which is what lets the collision keep up
  // with memory at 4 lanes (AVX2). The pair is taken from the member whose
  // first non-zero velocity component is +1, so that c_i.u needs no negation.
  template <class VS, bool Forced, class V>
  LATTE_INLINE Populations<V, VS::q> relax(const Populations<V, VS::q>& f, const CollisionState<V, VS::d>& s,
                                           const V* force) const {
    const V rate = V(omega);
    const V keep = V(1.0) - rate;
    const V source_weight = V(1.0) - V(0.5) * rate;
    const V omega_rho = rate * s.rho;
    Populations<V, VS::q> out;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int o = VS::opposite[i];
      constexpr int first = first_nonzero_component<VS, i>();
      constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
      if constexpr (i == o) {
        out.v[i] = keep * f.v[i] + V(weight) * omega_rho * s.base;
      } else if constexpr (VS::c[i][first] == 1) {
        V even, odd;  // of omega f^eq: the equilibrium with omega rho for rho
        equilibrium_parts<VS, i>(omega_rho, s.u, s.base, even, odd);
        out.v[i] = keep * f.v[i] + (even + odd);
        out.v[o] = keep * f.v[o] + (even - odd);
      }
    });
    if constexpr (Forced)
      static_for<VS::q>([&](auto i) LATTE_LAMBDA {
        out.v[i] = out.v[i] + source_weight * detail::guo_source<VS, i>(s.u, force, s.uF);
      });
    return out;
  }
};

// TRT: omega+ = 1 / tau for the even parts, omega- for the odd ones.
struct Trt {
  static constexpr const char* name = "TRT";
  static constexpr double magic = 3.0 / 16.0;
  double omega_plus = 1.0;
  double omega_minus = 1.0;

  static double omega_minus_for(double omega_plus, double lambda = magic) {
    return 1.0 / (lambda / (1.0 / omega_plus - 0.5) + 0.5);
  }
  static Trt from_tau(double tau, double lambda = magic) {
    return {1.0 / tau, omega_minus_for(1.0 / tau, lambda)};
  }

  struct Parameters {
    double tau = 1.0;             // omega+ = 1 / tau
    double magic = Trt::magic;    // Lambda, which fixes omega-
  };
  static Trt from(const Parameters& p) {
    detail::check_tau(name, p.tau);
    if (!(p.magic > 0))
      throw std::invalid_argument("lbm: TRT: the magic parameter Lambda must be positive, got " +
                                  std::to_string(p.magic));
    return from_tau(p.tau, p.magic);
  }

  // Pairs (i, opp(i)) are relaxed together; the rest population has no odd part.
  template <class VS, bool Forced, class V>
  LATTE_INLINE Populations<V, VS::q> relax(const Populations<V, VS::q>& f, const CollisionState<V, VS::d>& s,
                                           const V* force) const {
    const V rate_plus = V(omega_plus);
    const V rate_minus = V(omega_minus);
    const V half = V(0.5);
    const V even_weight = V(1.0) - half * rate_plus;
    const V odd_weight = V(1.0) - half * rate_minus;
    Populations<V, VS::q> out;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int o = VS::opposite[i];
      if constexpr (i <= o) {
        V even, odd;
        equilibrium_parts<VS, i>(s.rho, s.u, s.base, even, odd);
        const V f_even = half * (f.v[i] + f.v[o]);
        const V f_odd = half * (f.v[i] - f.v[o]);
        V delta_even = rate_plus * (even - f_even);
        V delta_odd = rate_minus * (odd - f_odd);
        if constexpr (Forced) {
          const V cu = dot_c<VS, i, V>(s.u);
          const V cF = dot_c<VS, i, V>(force);
          constexpr double weight = VS::w[i];  // a constant: device code cannot read the host table
          delta_even = delta_even + even_weight * (V(9.0 * weight) * cu * cF - V(3.0 * weight) * s.uF);
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
    return out;
  }
};

// MRT in the orthogonal moment basis (top of this file).
struct Mrt {
  static constexpr const char* name = "MRT";
  // Default rates of the moments that do not set the viscosity.
  static constexpr double bulk_rate = 1.0;
  static constexpr double odd_ghost_rate = 1.0;
  static constexpr double even_ghost_rate = 1.0;
  double omega_shear = 1.0;  // 1 / tau: the viscosity
  double omega_odd = odd_ghost_rate;
  double omega_bulk = bulk_rate;
  double omega_even = even_ghost_rate;

  static Mrt from_tau(double tau, double bulk = bulk_rate, double odd = odd_ghost_rate,
                      double even = even_ghost_rate) {
    return {1.0 / tau, odd, bulk, even};
  }

  // The rates of the moments that do not set the viscosity, each in
  // (0, 2): the bulk moment c^2, the odd ghosts (Trt::omega_minus_for(1 /
  // tau) puts walls where TRT does) and the even ghosts.
  struct Parameters {
    double tau = 1.0;  // omega_shear = 1 / tau
    double bulk_rate = Mrt::bulk_rate;
    double odd_rate = Mrt::odd_ghost_rate;
    double even_rate = Mrt::even_ghost_rate;
  };
  static Mrt from(const Parameters& p) {
    detail::check_tau(name, p.tau);
    const auto stable = [](double rate) { return rate > 0 && rate < 2; };
    if (!stable(p.bulk_rate) || !stable(p.odd_rate) || !stable(p.even_rate))
      throw std::invalid_argument("lbm: MRT: the relaxation rates must lie in (0, 2), got bulk " +
                                  std::to_string(p.bulk_rate) + ", odd ghosts " + std::to_string(p.odd_rate) +
                                  " and even ghosts " + std::to_string(p.even_rate));
    return from_tau(p.tau, p.bulk_rate, p.odd_rate, p.even_rate);
  }

  template <class VS, bool Forced, class V>
  LATTE_INLINE Populations<V, VS::q> relax(const Populations<V, VS::q>& f, const CollisionState<V, VS::d>& s,
                                           const V* force) const {
    constexpr int Q = VS::q;
    using Basis = MomentBasis<VS>;  // read in constant expressions only, so device code may use it too
    V departure[Q];  // f - f^eq
    V source[Q];     // S_F, forced only
    static_for<Q>([&](auto i) LATTE_LAMBDA {
      V even, odd;
      equilibrium_parts<VS, i>(s.rho, s.u, s.base, even, odd);
      departure[i] = f.v[i] - (even + odd);
      if constexpr (Forced) source[i] = detail::guo_source<VS, i>(s.u, force, s.uF);
    });
    // g_a = s_a (m_a - m_a^eq) - (1 - s_a / 2) (M S_F)_a, zero where nothing changes.
    V g[Q];
    static_for<Q>([&](auto a) LATTE_LAMBDA {
      constexpr MomentKind kind = Basis::table.kind[a];
      if constexpr (kind == MomentKind::density) {
        g[a] = V(0.0);
      } else if constexpr (kind == MomentKind::momentum) {
        if constexpr (Forced) g[a] = detail::moment_row<VS, a>(departure) - V(0.5) * detail::moment_row<VS, a>(source);
        else g[a] = V(0.0);
      } else {
        const V rate = V(kind == MomentKind::shear       ? omega_shear
                         : kind == MomentKind::odd_ghost ? omega_odd
                         : kind == MomentKind::bulk      ? omega_bulk
                                                         : omega_even);
        g[a] = rate * detail::moment_row<VS, a>(departure);
        if constexpr (Forced) g[a] = g[a] - (V(1.0) - V(0.5) * rate) * detail::moment_row<VS, a>(source);
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
};

template <class M>
concept CollisionModel = requires { M::name; } && std::is_trivially_copyable_v<M>;

// A model a simulation can be built from: its parameters, with tau, and
// from() that checks them.
template <class M>
concept ParameterisedCollisionModel = CollisionModel<M> && requires(const typename M::Parameters& p) {
  { M::from(p) } -> std::same_as<M>;
  { p.tau } -> std::convertible_to<double>;
};

// The collision of one site: the shared state, then the model's relaxation.
// force points to the d components of the body force (read only if Forced).
template <class VS, bool Forced, CollisionModel Model, class V>
LATTE_INLINE Populations<V, VS::q> collide(const Model& model, const Populations<V, VS::q>& f, const V* force) {
  constexpr int D = VS::d;
  const Moments<V, D> m = moments<VS>(f);
  const V inv_rho = V(1.0) / m.rho;
  CollisionState<V, D> s;
  s.rho = m.rho;
  for (int d = 0; d < D; ++d) {
    if constexpr (Forced) s.u[d] = (m.j[d] + V(0.5) * force[d]) * inv_rho;
    else s.u[d] = m.j[d] * inv_rho;
  }
  s.base = equilibrium_base<VS>(s.u);
  s.uF = V(0.0);
  if constexpr (Forced)
    for (int d = 0; d < D; ++d) s.uF = s.uF + s.u[d] * force[d];
  return model.template relax<VS, Forced>(f, s, force);
}

}  // namespace latte::lbm
