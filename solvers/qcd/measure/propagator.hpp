#pragma once
// Quark propagators from a point source.
//
// A propagator field holds, at each site x, the 12 x 12 matrix
// S(x)_{(s', c'), (s, c)} = M^{-1}(x, y)_{(s', c'), (s, c)} from the source
// site y, as 12 spinor columns (PropagatorSite, lattice/tensors/site_types.hpp):
// column k = 3 * s + c is the solution of M psi = eta_k for the unit
// source eta_k(x) = delta(x, y) delta_{spin s} delta_{colour c}.
//
//   auto [S, report] = point_propagator(M, {0, 0, 0, 0}, SolverControl{1e-10, 10000});
//
// The 12 columns are solved together, even-odd preconditioned
// (solve_wilson_even_odd on the batch fields, solvers/qcd/fermions/wilson_even_odd.hpp):
// every iteration applies the Schur operator once for all 12, each column
// with its own CG coefficients and convergence.

#include <string>

#include "lattice/fields/peek_poke.hpp"
#include "platform/errors.hpp"
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"

namespace latte {

// The unit sources eta_k above, one per column: zero everywhere but at
// `site`, where column k holds 1 at spin s and colour c. Collective under
// MPI: every rank calls it, the rank that holds the site writes it.
template <class R, class W>
void point_source(Lattice<PropagatorSite<R>, W>& sources, const Coordinate& site) {
  const Geometry& geometry = sources.geometry();
  if (static_cast<int>(site.size()) != geometry.dimensions())
    throw CoordinateOutOfRange("Latte: point source at site " + to_string(site) + " has " +
                               std::to_string(site.size()) + " coordinates, but the lattice of extents " +
                               to_string(geometry.dims()) + " has " + std::to_string(geometry.dimensions()));
  check_site(sources, site, "point source");
  PropagatorSite<R> unit = zero_value<PropagatorSite<R>>();
  for (int s = 0; s < spins; ++s)
    for (int c = 0; c < colours; ++c) unit.v[colours * s + c].v[s].v[c] = Complex<R>(R(1), R(0));
  sources = zero;
  poke(sources, site, unit);
}

template <class R, class W = DefaultWidth>
struct PointPropagator {
  Lattice<PropagatorSite<R>, W> field;  // S: M S = the point sources
  SolverReport report;                  // of all 12 columns together
};

// S with M S = point sources at `source`, from the initial guess S = 0.
// Throws SolverError if any column misses the tolerance on |eta_k - M S_k|.
template <class R, class W>
PointPropagator<R, W> point_propagator(const WilsonDirac<R, W>& M, const Coordinate& source,
                                       const SolverControl& control) {
  Lattice<PropagatorSite<R>, W> sources(M.geometry());
  point_source(sources, source);
  PointPropagator<R, W> propagator{Lattice<PropagatorSite<R>, W>(M.geometry()), {}};
  propagator.field = zero;
  propagator.report = solve_wilson_even_odd(M, propagator.field, sources, control);
  return propagator;
}

}  // namespace latte
