#pragma once
// Hadron two-point functions from a point-source quark propagator
// (solvers/qcd/measure/propagator.hpp), summed over the sites of each timeslice:
// zero spatial momentum.
//
// The pion. Its correlator is, for degenerate quarks and a source at y,
//   C(t) = sum_{x, x_t = t} tr[ gamma_5 S(x, y) gamma_5 S(y, x) ]
// and gamma_5-hermiticity, S(y, x) = gamma_5 S(x, y)^+ gamma_5, turns the
// backward propagator into the forward one:
//   C(t) = sum_{x, x_t = t} tr[ S(x, y) S(x, y)^+ ] = sum_{x, x_t = t} |S(x)|^2,
// the squared modulus of all 12 x 12 entries: real, positive, and one
// propagator is enough. The trace runs over spin and colour.

#include <vector>

#include "dsl/latte.hpp"
#include "lattice/fields/slice_sum.hpp"

namespace latte {

// C(t) for t = 0 .. L_t - 1 in absolute coordinates: with the source on
// timeslice t0 the correlator peaks at t = t0 (rotate it to put the source
// at 0). One pass over S for |S(x)|^2, then the timeslice sums
// (lattice/fields/slice_sum.hpp: the same bits on any number of ranks).
template <class R, class W>
std::vector<double> pion_correlator(const Lattice<PropagatorSite<R>, W>& S, int time_direction = 3) {
  Lattice<R, W> density(S.geometry(), Uninitialized{});
  density = localNorm2(S);
  return slice_sum(density, time_direction);
}

}  // namespace latte
