#pragma once
// Gauge-covariant Gaussian (Wuppertal) smearing of quark sources and sinks
// (Gusken, Nucl. Phys. B (Proc. Suppl.) 17 (1990) 361): each step
//   psi(x) <- [psi(x) + kappa sum_{i spatial} (U_i(x) psi(x+i) + U_i^+(x-i) psi(x-i))] / (1 + 6 kappa),
// n steps, within each timeslice (the links of the time direction are not
// used). On the free field a point source becomes a lattice gaussian whose
// mean square radius grows by 6 kappa / (1 + 6 kappa) per step, and its sum
// over the timeslice stays 1. The links are usually smeared first (spatial
// APE or stout), which makes the source smoother at the same radius.
//
// One fused statement per step for any field on which colour matrices act:
// a spinor, a colour vector, or the 12 columns of a propagator at once.

#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/measure/propagator.hpp"

namespace latte {

struct WuppertalSmearing {
  double kappa = 0.25;
  int steps = 0;
  int time_direction = 3;
};

template <class R, class W, class T>
void wuppertal_smear(Lattice<T, W>& psi, const GaugeField<R, W>& U, const WuppertalSmearing& smearing) {
  if (!(smearing.kappa >= 0) || smearing.steps < 0)
    throw std::invalid_argument("Latte: Wuppertal smearing needs kappa >= 0 and steps >= 0, not kappa = " +
                                std::to_string(smearing.kappa) + ", steps = " + std::to_string(smearing.steps));
  int spatial[3], n = 0;
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    if (mu != smearing.time_direction) spatial[n++] = mu;
  const double norm = 1.0 / (1.0 + 6.0 * smearing.kappa), hop = smearing.kappa * norm;
  const auto hops = [&](int i) { return U[i] * shift(psi, i, +1) + shift(adj(U[i]) * psi, i, -1); };
  Lattice<T, W> next(psi.geometry());
  for (int step = 0; step < smearing.steps; ++step) {
    next = norm * psi + hop * (hops(spatial[0]) + hops(spatial[1]) + hops(spatial[2]));
    psi.swap(next);
  }
}

// The propagator from a Wuppertal-smeared point source, its sink smeared
// too when sink.steps > 0 (the smeared-smeared correlator), both with the
// links `smearing_links` (e.g. spatially stout-smeared ones); the solve uses
// M's own links.
template <class R, class W>
PointPropagator<R, W> smeared_point_propagator(const WilsonDirac<R, W>& M, const GaugeField<R, W>& smearing_links,
                                               const Coordinate& source, const WuppertalSmearing& source_smearing,
                                               const WuppertalSmearing& sink_smearing, const SolverControl& control) {
  Lattice<PropagatorSite<R>, W> sources(M.geometry());
  point_source(sources, source);
  wuppertal_smear(sources, smearing_links, source_smearing);
  PointPropagator<R, W> propagator{Lattice<PropagatorSite<R>, W>(M.geometry()), {}};
  propagator.field = zero;
  propagator.report = solve_wilson_even_odd(M, propagator.field, sources, control);
  wuppertal_smear(propagator.field, smearing_links, sink_smearing);
  return propagator;
}

}  // namespace latte
