#pragma once
// Quenched updates of the Wilson plaquette action
//   S = beta sum_x sum_{mu<nu} (1 - Re tr P_{mu nu}(x) / 3)
// (solvers/qcd/gauge/gauge_action.hpp): Cabibbo-Marinari heatbath and
// overrelaxation sweeps (site code: solvers/qcd/update/cabibbo_marinari.hpp).
//
//   heatbath_sweep(U, beta, seed, sweep);        // one heatbath of every link
//   overrelaxation_sweep(U);                     // one reflection of every link
//   QuenchedUpdate update{6.0, 4, seed};         // 1 heatbath + 4 overrelaxation sweeps
//   for (std::uint64_t n = 0; n < 1000; ++n) update.sweep(U, n);
//
// A link's update depends on its staples, which hold no link of its own
// direction and parity: U_mu on the even sites, then on the odd sites, for
// mu = 0..3, is each one fused statement that updates half the links at
// once from the others. It is checkerboarded: the update is evaluated on the
// sites of one parity only (pick) and merged with the unchanged links of
// the other (dsl/expr/checkerboard.hpp).
//
// Only the Wilson action: the rectangle staples of U_mu(x) hold U_mu(x +- mu +- nu)
// and U_mu(x +- 2 nu), links of direction mu on sites of x's own parity, so
// the links of one checkerboard are not independent given the others and
// updating them all at once would not sample exp(-S) (a rectangle action
// needs more than two colours of sites per direction).
//
// Random numbers: sweep n draws from ParallelRng keyed on
// splitmix64(seed + (n + 1) * 0x9E3779B97F4A7C15) (distinct for distinct
// sweeps of one seed), one field of uniforms per direction mu (stream mu),
// each site reading its own. A link is updated once per sweep, in the
// statement of its parity, so both parities share the field. The numbers,
// and so the links after any sequence of sweeps, are a pure function of
// (seed, sweep, global site): the same bits on any number of ranks and
// process grid, and for any SIMD lane grid of one width (the loops run
// lane by lane; su2_heatbath.hpp). Vector and per-lane code call different
// log and cos (xsimd's, the standard library's) that differ in the last
// bits, so the simt and cuda backends, and other SIMD widths, agree with
// the cpu backend to rounding, not bit for bit.

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "dsl/expr/checkerboard.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/update/cabibbo_marinari.hpp"

namespace latte {

namespace quenched {

// The Philox key of sweep n of a chain with this seed.
inline std::uint64_t sweep_key(std::uint64_t seed, std::uint64_t sweep) {
  std::uint64_t z = seed + (sweep + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// U[mu] = the update on the sites of one parity, U[mu] on the others; the
// update expression is made afresh for each statement (make_update(U, mu))
// since a statement that reads U[mu] at neighbours replaces its storage.
template <class R, class W, class MakeUpdate>
void update_checkerboards(GaugeField<R, W>& U, int mu, MakeUpdate&& make_update) {
  U[mu] = merge(pick(Parity::even, make_update(U, mu)), pick(Parity::odd, U[mu]));
  U[mu] = merge(pick(Parity::even, U[mu]), pick(Parity::odd, make_update(U, mu)));
}

}  // namespace quenched

// One Cabibbo-Marinari heatbath sweep over every link, with random numbers
// a pure function of (seed, sweep, site).
template <class R, class W>
void heatbath_sweep(GaugeField<R, W>& U, double beta, std::uint64_t seed, std::uint64_t sweep) {
  if (!(beta >= 0.0) || !std::isfinite(beta))
    throw std::invalid_argument("Latte: the heatbath needs a finite beta >= 0, got " + std::to_string(beta));
  ParallelRng rng(quenched::sweep_key(seed, sweep));
  Lattice<HeatbathUniforms<R>, W> uniforms(U.geometry());
  const functors::CabibboMarinariHeatbath heatbath{beta};
  for (int mu = 0; mu < spacetime_dimensions; ++mu) {
    rng.uniform(uniforms);  // stream mu
    quenched::update_checkerboards(U, mu, [&](const GaugeField<R, W>& links, int direction) {
      return map(heatbath, links[direction], staple_sum(links, direction), uniforms);
    });
  }
}

// One overrelaxation sweep over every link: the action does not change.
template <class R, class W>
void overrelaxation_sweep(GaugeField<R, W>& U) {
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    quenched::update_checkerboards(U, mu, [](const GaugeField<R, W>& links, int direction) {
      return map(functors::CabibboMarinariOverrelaxation{}, links[direction],
                 staple_sum(links, direction));
    });
}

// A compound sweep: one heatbath sweep, then overrelaxation_sweeps
// overrelaxation sweeps (which move the links far at no cost in action and
// shorten autocorrelations; the heatbath makes the chain ergodic).
struct QuenchedUpdate {
  double beta = 6.0;
  int overrelaxation_sweeps = 4;
  std::uint64_t seed = 1;

  template <class R, class W> void sweep(GaugeField<R, W>& U, std::uint64_t sweep_number) const {
    if (overrelaxation_sweeps < 0)
      throw std::invalid_argument("Latte: a negative number of overrelaxation sweeps (" +
                                  std::to_string(overrelaxation_sweeps) + ")");
    heatbath_sweep(U, beta, seed, sweep_number);
    for (int i = 0; i < overrelaxation_sweeps; ++i) overrelaxation_sweep(U);
  }
};

}  // namespace latte
