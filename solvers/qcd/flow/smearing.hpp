#pragma once
// Link smearing: APE and stout, in four dimensions or in the three spatial
// ones only (for smeared quark sources: time links untouched, and the
// staples of a spatial link from the spatial planes only, so a timeslice is
// smeared from itself).
//
// Staples are the paths from x to x+mu that close a plaquette with U_mu(x)
// (upper_staple, lower_staple of solvers/qcd/gauge/gauge_action.hpp): six per link
// in four dimensions, four in three.
//
// APE (M. Albanese et al., Phys. Lett. B 192 (1987) 163; the normalised
// form of Bonnet et al.):
//   U'_mu = P_SU(3)[(1 - alpha) U_mu + alpha / n * Sigma_mu],  n = 6 (or 4),
// with P_SU(3) the SU(3) matrix V maximising Re tr(V M^+) (su3_project).
//
// Stout (Morningstar & Peardon, Phys. Rev. D 69 (2004) 054501):
//   C_mu = rho Sigma_mu,  U'_mu = exp(Ta(C_mu U_mu^+)) U_mu.
// This is their U' = exp(iQ) U: with Omega = C U^+ they set
//   Q = i/2 (Omega^+ - Omega) - i/6 tr(Omega^+ - Omega),
// and iQ = -1/2 (Omega^+ - Omega) + 1/6 tr(Omega^+ - Omega)
//        = (Omega - Omega^+)/2 - tr(Omega - Omega^+)/6 = Ta(Omega).
// Since Ta(Sigma U^+) = -Ta(U Sigma^+) = Z, the Wilson flow's generator
// (solvers/qcd/flow/gradient_flow.hpp), one stout step with rho is one Euler
// step of the Wilson flow with eps = rho.
//
// Every step computes all new links from the old ones (into a workspace),
// then replaces them; each direction is one fused statement.

#include <stdexcept>
#include <string>

#include "dsl/expr/su3_functions.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

enum class SmearingDirections {
  all,      // every link, staples from all four directions
  spatial,  // x, y, z links from the spatial staples; t links untouched
};

struct ApeParameters {
  double alpha = 0.5;  // the weight of the staples, in [0, 1]
  int steps = 1;
  SmearingDirections directions = SmearingDirections::all;
  int max_sweeps = 100;  // of the SU(3) projection (dsl/expr/su3_functions.hpp)
};

struct StoutParameters {
  double rho = 0.1;  // the weight of each staple
  int steps = 1;
  SmearingDirections directions = SmearingDirections::all;
};

namespace smearing_detail {

inline int smeared_directions(SmearingDirections directions) {
  return directions == SmearingDirections::spatial ? spacetime_dimensions - 1 : spacetime_dimensions;
}

// use(Sigma_mu, n): the staple sum of U_mu as one expression and its number
// of staples.
template <class Links, class Use> void with_staples(const Links& U, int mu, SmearingDirections directions, Use use) {
  if (directions == SmearingDirections::spatial) {
    const int a = (mu + 1) % 3, b = (mu + 2) % 3;  // the other spatial directions
    use(upper_staple(U, mu, a) + lower_staple(U, mu, a) + upper_staple(U, mu, b) + lower_staple(U, mu, b), 4);
  } else {
    use(staple_sum(U, mu), 6);
  }
}

inline void check_steps(int steps, const char* name) {
  if (steps < 0) throw std::invalid_argument(std::string("Latte: ") + name + " smearing needs steps >= 0");
}

}  // namespace smearing_detail

// U -> its APE-smeared links, p.steps times.
template <class Backend = backend::Default, class R, class W>
void ape_smear(GaugeField<R, W>& U, const ApeParameters& p) {
  smearing_detail::check_steps(p.steps, "APE");
  if (!(p.alpha >= 0 && p.alpha <= 1)) throw std::invalid_argument("Latte: APE smearing needs 0 <= alpha <= 1");
  GaugeField<R, W> smeared(U.geometry());
  const int directions = smearing_detail::smeared_directions(p.directions);
  for (int step = 0; step < p.steps; ++step) {
    for (int mu = 0; mu < directions; ++mu)
      smearing_detail::with_staples(U, mu, p.directions, [&](const auto& staples, int count) {
        assign<Backend>(smeared[mu], su3_project((1.0 - p.alpha) * U[mu] + (p.alpha / count) * staples, p.max_sweeps),
                        AssignSet{});
      });
    for (int mu = 0; mu < directions; ++mu) U[mu].swap(smeared[mu]);
  }
}

// U -> its stout-smeared links, p.steps times.
template <class Backend = backend::Default, class R, class W>
void stout_smear(GaugeField<R, W>& U, const StoutParameters& p) {
  smearing_detail::check_steps(p.steps, "stout");
  GaugeField<R, W> smeared(U.geometry());
  const int directions = smearing_detail::smeared_directions(p.directions);
  for (int step = 0; step < p.steps; ++step) {
    for (int mu = 0; mu < directions; ++mu)
      smearing_detail::with_staples(U, mu, p.directions, [&](const auto& staples, int) {
        assign<Backend>(smeared[mu], su3_exp(p.rho * traceless_antihermitian(staples * adj(U[mu]))) * U[mu],
                        AssignSet{});
      });
    for (int mu = 0; mu < directions; ++mu) U[mu].swap(smeared[mu]);
  }
}

}  // namespace latte
