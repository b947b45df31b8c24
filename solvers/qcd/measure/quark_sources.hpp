#pragma once
// Quark sources beyond the point (propagator.hpp), and the propagator of
// any 12-column source, Wilson or Wilson-clover.
//
// Every source here is diagonal in spin and colour: column k = 3 s + c
// holds w(x) at spin s, colour c, for a real weight w on one timeslice t0:
//   wall:      w(x) = 1 on every site of the timeslice. Gauge-variant: it
//              means something on a gauge-fixed field (Coulomb gauge for a
//              wall on a timeslice); the links are whatever the caller
//              solves with, fixed or not. It projects the source to zero
//              momentum (any spatial origin serves for momentum phases).
//   gaussian:  w(x) = exp(-r^2 / r0^2) / N, r the distance of x from the
//              centre's spatial position, each component taken to the
//              nearest periodic image (|d_i| <= L_i / 2), and
//              N = sum over the timeslice of exp(-r^2 / r0^2), so that the
//              weights add up to 1, as a Wuppertal-smeared point source's
//              do on the free field (source_smearing.hpp): a point source
//              is the limit r0 -> 0. Gauge-variant too (a wavefunction
//              source on a Coulomb-gauge-fixed field).
// Gauge-covariant smearing of a point source is Wuppertal's
// (source_smearing.hpp); it also smears sinks.
//
// The sources are made on the host from each site's global coordinate
// (fill): the same bits on any rank count, layout and backend.
//
// solve_propagator(M, sources, control) solves M S = sources for all 12
// columns together, even-odd preconditioned (one Schur operator
// application per iteration for the batch), for WilsonDirac and for
// CloverDirac, from S = 0; it throws SolverError if a column misses the
// tolerance on |eta_k - M S_k| / |eta_k|.

#include <cmath>
#include <stdexcept>
#include <string>

#include "lattice/fields/coordinate_field.hpp"
#include "solvers/qcd/measure/propagator.hpp"
#include "solvers/qcd/solves/clover_solve.hpp"

namespace latte {

namespace detail {

inline void check_source_timeslice(const Geometry& geometry, int timeslice, int time_direction, const char* what) {
  if (geometry.dimensions() != 4 || time_direction < 0 || time_direction > 3)
    throw std::invalid_argument(std::string("Latte: a ") + what + " needs a 4-dimensional lattice and a time direction 0..3");
  if (timeslice < 0 || timeslice >= geometry.dims()[time_direction])
    throw std::invalid_argument(std::string("Latte: ") + what + " on timeslice " + std::to_string(timeslice) +
                                " outside the time extent " + std::to_string(geometry.dims()[time_direction]));
}

// w(x) delta_{spin} delta_{colour} in every column.
template <class R>
PropagatorSite<R> spin_colour_diagonal(R weight) {
  PropagatorSite<R> site = zero_value<PropagatorSite<R>>();
  for (int s = 0; s < spins; ++s)
    for (int c = 0; c < colours; ++c) site.v[colours * s + c].v[s].v[c] = Complex<R>(weight, R(0));
  return site;
}

}  // namespace detail

// 1 on every site of the timeslice, in each column's own spin and colour.
template <class R, class W>
void wall_source(Lattice<PropagatorSite<R>, W>& sources, int timeslice, int time_direction = 3) {
  detail::check_source_timeslice(sources.geometry(), timeslice, time_direction, "wall source");
  const PropagatorSite<R> unit = detail::spin_colour_diagonal(R(1)), nothing = zero_value<PropagatorSite<R>>();
  fill(sources, [&](const Coordinate& x) { return x[time_direction] == timeslice ? unit : nothing; });
}

// exp(-r^2 / r0^2) / N on the centre's timeslice (above).
template <class R, class W>
void gaussian_source(Lattice<PropagatorSite<R>, W>& sources, const Coordinate& centre, double r0,
                     int time_direction = 3) {
  const Geometry& geometry = sources.geometry();
  if (centre.size() != 4) throw std::invalid_argument("Latte: a gaussian source's centre has 4 coordinates");
  detail::check_source_timeslice(geometry, centre[time_direction], time_direction, "gaussian source");
  check_site(sources, centre, "gaussian source centre");
  if (!(r0 > 0) || !std::isfinite(r0))
    throw std::invalid_argument("Latte: a gaussian source needs a radius r0 > 0, not " + std::to_string(r0));
  const Coordinate& dims = geometry.dims();
  // r^2 to the nearest image, an integer: the weights depend on it alone.
  const auto distance2 = [&](const Coordinate& x) {
    int r2 = 0;
    for (int mu = 0; mu < 4; ++mu) {
      if (mu == time_direction) continue;
      const int L = dims[mu];
      int d = ((x[mu] - centre[mu]) % L + L) % L;
      if (d > L - d) d = L - d;
      r2 += d * d;
    }
    return r2;
  };
  // N, summed over the global timeslice in one fixed order on every rank.
  double norm = 0;
  Coordinate x(4, 0);
  x[time_direction] = centre[time_direction];
  const int s0 = time_direction == 0 ? 1 : 0, s1 = time_direction <= 1 ? 2 : 1, s2 = time_direction <= 2 ? 3 : 2;
  for (x[s0] = 0; x[s0] < dims[s0]; ++x[s0])
    for (x[s1] = 0; x[s1] < dims[s1]; ++x[s1])
      for (x[s2] = 0; x[s2] < dims[s2]; ++x[s2]) norm += std::exp(-distance2(x) / (r0 * r0));
  const PropagatorSite<R> nothing = zero_value<PropagatorSite<R>>();
  fill(sources, [&](const Coordinate& y) {
    if (y[time_direction] != centre[time_direction]) return nothing;
    return detail::spin_colour_diagonal(static_cast<R>(std::exp(-distance2(y) / (r0 * r0)) / norm));
  });
}

// S with M S = sources, Wilson: the 12 columns as one batch, even-odd.
template <class R, class W>
PointPropagator<R, W> solve_propagator(const WilsonDirac<R, W>& M, const Lattice<PropagatorSite<R>, W>& sources,
                                       const SolverControl& control) {
  PointPropagator<R, W> propagator{Lattice<PropagatorSite<R>, W>(M.geometry()), {}};
  propagator.field = zero;
  propagator.report = solve_wilson_even_odd(M, propagator.field, sources, control);
  return propagator;
}

// The same for Wilson-clover (the Schur operator built for this solve).
template <class R, class W>
PointPropagator<R, W> solve_propagator(const CloverDirac<R, W>& M, const Lattice<PropagatorSite<R>, W>& sources,
                                       const SolverControl& control) {
  const CloverEvenOdd<R, W> schur(M);
  PointPropagator<R, W> propagator{Lattice<PropagatorSite<R>, W>(M.geometry()), {}};
  propagator.field = zero;
  propagator.report = solve_clover_even_odd(schur, M, propagator.field, sources, control);
  return propagator;
}

}  // namespace latte
