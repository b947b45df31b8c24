#pragma once
// Gauge actions of the plaquette and the 2x1 rectangle, their value, their
// density per site and their force, in the DSL.
//
// Conventions (every gauge algorithm of the library uses them):
//   S(U) = beta sum_x [ c0 sum_{mu<nu} (1 - Re tr P_{mu nu}(x) / 3)
//                     + c1 sum_{mu != nu} (1 - Re tr R_{mu nu}(x) / 3) ],
//   c0 = 1 - 8 c1, beta = 6 / g0^2,
// P_{mu nu}(x) = U_mu(x) U_nu(x+mu) U_mu^+(x+nu) U_nu^+(x) the plaquette,
// R_{mu nu}(x) the 2x1 rectangle, two links long in mu and one in nu (12 per
// site). c1 = 0: Wilson; -1/12: tree-level Symanzik (Luescher-Weisz);
// -0.331: Iwasaki; -1.4088: DBW2.
//
// The force is the gradient of S in su(3) (lattice/tensors/su3_algebra.hpp: links
// move as U -> exp(X) U, and <X, Y> = -2 tr(X Y) = sum_a x^a y^a):
//   d/ds S(exp(s X) U)|_{s=0} = sum_{x,mu} <X_mu(x), F_mu(x)>,
//   F_mu(x) = (beta / 6) Ta(U_mu(x) Sigma_mu^+(x)),
// with Sigma_mu(x) the sum of staples, c0 times the plaquette staples and c1
// times the rectangle staples, each a path from x to x+mu that closes a
// loop with U_mu(x). So with H = 1/2 sum pi^2 + S the molecular dynamics are
// dU/dt = P U, dP/dt = -F.

#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/expr/su3_functions.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

struct GaugeAction {
  double beta = 6.0;
  double c1 = 0.0;  // the rectangle coefficient; c0 = 1 - 8 c1

  double c0() const { return 1.0 - 8.0 * c1; }
  bool has_rectangles() const { return c1 != 0.0; }

  static GaugeAction wilson(double beta) { return {beta, 0.0}; }
  static GaugeAction symanzik(double beta) { return {beta, -1.0 / 12.0}; }  // tree-level Symanzik
  static GaugeAction iwasaki(double beta) { return {beta, -0.331}; }
  static GaugeAction dbw2(double beta) { return {beta, -1.4088}; }
  // "wilson", "symanzik", "iwasaki" or "dbw2".
  static GaugeAction named(const std::string& name, double beta) {
    if (name == "wilson") return wilson(beta);
    if (name == "symanzik") return symanzik(beta);
    if (name == "iwasaki") return iwasaki(beta);
    if (name == "dbw2") return dbw2(beta);
    throw std::invalid_argument("Latte: unknown gauge action '" + name + "' (wilson, symanzik, iwasaki or dbw2)");
  }
};

// The path x -> x+nu -> x+nu+mu -> x+mu (the upper staple of U_mu in the
// (mu, nu) plane) and x -> x-nu -> x-nu+mu -> x+mu (the lower one).
template <class Links> auto upper_staple(const Links& U, int mu, int nu) {
  return U[nu] * shift(U[mu], nu, +1) * adj(shift(U[nu], mu, +1));
}
template <class Links> auto lower_staple(const Links& U, int mu, int nu) {
  return shift(adj(U[nu]) * U[mu] * shift(U[nu], mu, +1), nu, -1);
}
// Re tr P_{mu nu}(x), the real part of the plaquette's trace.
template <class Links> auto plaquette_trace(const Links& U, int mu, int nu) {
  return real(trace(U[mu] * adj(upper_staple(U, mu, nu))));
}

// The sum of the six plaquette staples of U_mu (the upper and lower one in
// each plane), one expression: Re tr(U_mu(x) staple_sum^+) sums the six
// plaquettes that hold U_mu(x).
template <class Links> auto staple_sum(const Links& U, int mu) {
  const int a = (mu + 1) % 4, b = (mu + 2) % 4, c = (mu + 3) % 4;
  return upper_staple(U, mu, a) + lower_staple(U, mu, a) + upper_staple(U, mu, b) + lower_staple(U, mu, b) +
         upper_staple(U, mu, c) + lower_staple(U, mu, c);
}

namespace gauge_action_detail {

// sum_{mu<nu} Re tr P_{mu nu}(x) at each site, one expression.
template <class Links> auto plaquette_sum(const Links& U) {
  return plaquette_trace(U, 0, 1) + plaquette_trace(U, 0, 2) + plaquette_trace(U, 0, 3) +
         plaquette_trace(U, 1, 2) + plaquette_trace(U, 1, 3) + plaquette_trace(U, 2, 3);
}

// The rectangle staples of U_mu in the (mu, nu) plane, added to sigma with
// weight c1, from the upper and lower plaquette staples s_up = S+(x),
// s_down = S-(x) of the plane. With S+- as paths from y to y+mu, the six
// paths from x to x+mu that close a rectangle with U_mu(x) are
//   S+(x) S+(x+mu) U_mu^+(x+mu),  U_mu^+(x-mu) S+(x-mu) S+(x)      (2 long in mu, above)
//   S-(x) S-(x+mu) U_mu^+(x+mu),  U_mu^+(x-mu) S-(x-mu) S-(x)      (2 long in mu, below)
//   U_nu(x) S+(x+nu) U_nu^+(x+mu),  U_nu^+(x-nu) S-(x-nu) U_nu(x-nu+mu)   (2 long in nu)
template <class Links, class Field>
void add_rectangle_staples(Field& sigma, const Links& U, int mu, int nu, const Field& s_up, const Field& s_down,
                           double c1) {
  sigma += c1 * ((s_up * shift(s_up, mu, +1) + s_down * shift(s_down, mu, +1)) * adj(shift(U[mu], mu, +1)) +
                 adj(shift(U[mu], mu, -1)) * (shift(s_up, mu, -1) * s_up + shift(s_down, mu, -1) * s_down) +
                 U[nu] * shift(s_up, nu, +1) * adj(shift(U[nu], mu, +1)) +
                 shift(adj(U[nu]) * s_down * shift(U[nu], mu, +1), nu, -1));
}

}  // namespace gauge_action_detail

// Sigma_mu: c0 times the plaquette staples plus c1 times the rectangle staples of U_mu.
template <class R, class W>
void gauge_staples(const GaugeAction& action, const GaugeField<R, W>& U, int mu, Lattice<ColourMatrix<R>, W>& sigma) {
  if (!action.has_rectangles()) {
    sigma = staple_sum(U, mu);
    return;
  }
  sigma = action.c0() * staple_sum(U, mu);
  Lattice<ColourMatrix<R>, W> s_up(U.geometry()), s_down(U.geometry());
  for (int nu = 0; nu < spacetime_dimensions; ++nu) {
    if (nu == mu) continue;
    s_up = upper_staple(U, mu, nu);
    s_down = lower_staple(U, mu, nu);
    gauge_action_detail::add_rectangle_staples(sigma, U, mu, nu, s_up, s_down, action.c1);
  }
}

// sum_x sum_{mu<nu} Re tr P_{mu nu}(x), one reproducible reduction.
template <class R, class W> double plaquette_trace_sum(const GaugeField<R, W>& U) {
  return sum(gauge_action_detail::plaquette_sum(U));
}

// sum_x sum_{mu != nu} Re tr R_{mu nu}(x) over the 12 rectangles per site.
template <class R, class W> double rectangle_trace_sum(const GaugeField<R, W>& U) {
  double total = 0;
  Lattice<ColourMatrix<R>, W> s_up(U.geometry());
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    for (int nu = 0; nu < spacetime_dimensions; ++nu) {
      if (nu == mu) continue;
      s_up = upper_staple(U, mu, nu);
      // R_{mu nu}(x) = U_mu(x) [S+(x) S+(x+mu) U_mu^+(x+mu)]^+
      total += sum(real(trace(U[mu] * adj(s_up * shift(s_up, mu, +1) * adj(shift(U[mu], mu, +1))))));
    }
  return total;
}

// S(U) as above (a reproducible sum: the same bits on every rank count).
template <class R, class W> double gauge_action_value(const GaugeAction& action, const GaugeField<R, W>& U) {
  const double volume = static_cast<double>(U.geometry().volume());
  double s = action.beta * action.c0() * (6.0 * volume - plaquette_trace_sum(U) / 3.0);
  if (action.has_rectangles()) s += action.beta * action.c1 * (12.0 * volume - rectangle_trace_sum(U) / 3.0);
  return s;
}

// The action density s(x), with S = sum_x s(x) (plaquettes and rectangles
// attributed to the site they start from).
template <class R, class W>
void gauge_action_density(const GaugeAction& action, const GaugeField<R, W>& U, Lattice<R, W>& density) {
  density = action.beta * action.c0() * (6.0 - (1.0 / 3.0) * gauge_action_detail::plaquette_sum(U));
  if (!action.has_rectangles()) return;
  Lattice<ColourMatrix<R>, W> s_up(U.geometry());
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    for (int nu = 0; nu < spacetime_dimensions; ++nu) {
      if (nu == mu) continue;
      s_up = upper_staple(U, mu, nu);
      density += action.beta * action.c1 *
                 (1.0 - (1.0 / 3.0) * real(trace(U[mu] * adj(s_up * shift(s_up, mu, +1) * adj(shift(U[mu], mu, +1))))));
    }
}

// The force F_mu = (beta/6) Ta(U_mu Sigma_mu^+) of every direction. For
// the Wilson action each direction is one fused statement.
template <class R, class W>
void gauge_force(const GaugeAction& action, const GaugeField<R, W>& U, GaugeField<R, W>& force) {
  const double scale = action.beta / 6.0;
  if (!action.has_rectangles()) {
    for (int mu = 0; mu < spacetime_dimensions; ++mu)
      force[mu] = scale * traceless_antihermitian(U[mu] * adj(staple_sum(U, mu)));
    return;
  }
  Lattice<ColourMatrix<R>, W> sigma(U.geometry());
  for (int mu = 0; mu < spacetime_dimensions; ++mu) {
    gauge_staples(action, U, mu, sigma);
    force[mu] = scale * traceless_antihermitian(U[mu] * adj(sigma));
  }
}

// P_mu -= eps F_mu for every direction: the momentum step of molecular
// dynamics, the force fused into the update (one statement per direction
// for the Wilson action).
template <class R, class W>
void subtract_gauge_force(const GaugeAction& action, const GaugeField<R, W>& U, GaugeField<R, W>& P, double eps) {
  const double scale = eps * action.beta / 6.0;
  if (!action.has_rectangles()) {
    for (int mu = 0; mu < spacetime_dimensions; ++mu)
      P[mu] -= scale * traceless_antihermitian(U[mu] * adj(staple_sum(U, mu)));
    return;
  }
  Lattice<ColourMatrix<R>, W> sigma(U.geometry());
  for (int mu = 0; mu < spacetime_dimensions; ++mu) {
    gauge_staples(action, U, mu, sigma);
    P[mu] -= scale * traceless_antihermitian(U[mu] * adj(sigma));
  }
}

}  // namespace latte
