#pragma once
// The links a fermion operator reads: the gauge field with the fermion
// boundary phases of solvers/qcd/fermions/fermion_boundary.hpp on the forward links
// that cross the global boundary (U_mu(x) at x_mu = L_mu - 1 times
// e^{i pi theta_mu}).
//
// The phased copy is made with whole-lattice statements: a field of each
// site's global coordinate (filled by the rank that owns the site) and
// where(), so every site is computed from its own coordinate and link alone
// and the copy has the same bits on any number of ranks and any SIMD
// layout. The links off the boundary, and every direction without a phase,
// are copied untouched. A periodic boundary makes no copy at all: the
// operator reads the gauge field itself, as it did before boundaries
// existed. The result is an ordinary GaugeField, so the operators' statements
// (and their compiled instances) are the same for every boundary.

#include <memory>

#include "dsl/latte.hpp"
#include "lattice/fields/coordinate_field.hpp"
#include "solvers/qcd/fermions/fermion_boundary.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/fermions/precompiled_instances.hpp"

namespace latte {

// U_mu(x) -> e^{i pi theta_mu} U_mu(x) where x_mu = L_mu - 1, for every mu
// with a phase; in place. Declared here, defined below: not inline, so that
// a build compiles its statements once (solvers/qcd/fermions/precompiled_instances.hpp)
// instead of in every file that builds a Wilson operator.
template <class R, class W>
void apply_boundary_phases(GaugeField<R, W>& U, const FermionBoundary& boundary);

// The links of a fermion operator with boundary `boundary` on gauge field U:
// U itself when periodic (kept by reference: U must outlive this), a phased
// copy otherwise. Copies share the phased field.
template <class R, class W = DefaultWidth>
class BoundaryLinks {
 public:
  using Gauge = GaugeField<R, W>;

  BoundaryLinks(const Gauge& U, const FermionBoundary& boundary) : links_(&U) {
    if (boundary.is_periodic()) return;
    auto phased = std::make_shared<Gauge>(U.geometry());
    for (int mu = 0; mu < spacetime_dimensions; ++mu) (*phased)[mu] = U[mu];
    apply_boundary_phases(*phased, boundary);
    phased_ = std::move(phased);
    links_ = phased_.get();
  }

  const Gauge& links() const { return *links_; }
  // Whether the links are a phased copy (false: the gauge field itself).
  bool phased() const { return phased_ != nullptr; }

 private:
  std::shared_ptr<const Gauge> phased_;
  const Gauge* links_;
};

template <class R, class W>
void apply_boundary_phases(GaugeField<R, W>& U, const FermionBoundary& boundary) {
  const Geometry& geometry = U.geometry();
  Lattice<R, W> coordinate(geometry, Uninitialized{});
  for (int mu = 0; mu < spacetime_dimensions; ++mu) {
    if (boundary.periodic_in(mu)) continue;
    fill_coordinate(coordinate, mu);
    const R last = static_cast<R>(geometry.dims()[mu] - 1);  // x_mu >= last: the last slice
    const auto [c, s] = boundary.phase(mu);
    // -1 as a real factor: the sign flips exactly, zeros included.
    if (c == -1.0)
      U[mu] = where(coordinate >= last, R(-1) * U[mu], U[mu]);
    else
      U[mu] = where(coordinate >= last, Complex<R>(static_cast<R>(c), static_cast<R>(s)) * U[mu], U[mu]);
  }
}

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE void apply_boundary_phases(GaugeField<double>&, const FermionBoundary&);
LATTE_QCD_SINGLE_INSTANCE void apply_boundary_phases(GaugeField<float>&, const FermionBoundary&);
#if LATTE_QCD_MIXED_PRECISION_INSTANCES && LATTE_SIMD_BYTES != 0  // one lane: the single width is DefaultWidth
LATTE_QCD_MIXED_INSTANCE void apply_boundary_phases(GaugeField<float, MatchingSingleWidth<DefaultWidth>>&,
                                                    const FermionBoundary&);
#endif
#endif

}  // namespace latte
