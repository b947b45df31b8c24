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
// The single-precision twin of an action (single_precision(),
// solvers/qcd/fermions/fermion_action.hpp) takes its links from
// BoundaryLinks::single_precision() below.

#include <concepts>
#include <memory>
#include <utility>

#include "dsl/expr/precision_cast.hpp"
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
// U itself when periodic, a phased copy otherwise. The gauge field is kept
// by reference (U must outlive these links) or, for the single-precision
// twin below, owned. Copies share the gauge field and the phased copy: an
// action and the even-odd blocks made from it read one field.
template <class R, class W = DefaultWidth>
class BoundaryLinks {
 public:
  using Gauge = GaugeField<R, W>;
  using SingleWidth = MatchingSingleWidth<W>;

  BoundaryLinks(const Gauge& U, const FermionBoundary& boundary) : gauge_(&U), boundary_(boundary) { phase(); }
  // Owning the gauge field (shared with the links' copies).
  BoundaryLinks(std::shared_ptr<const Gauge> U, const FermionBoundary& boundary)
      : owned_(std::move(U)), gauge_(owned_.get()), boundary_(boundary) {
    phase();
  }
  // A temporary gauge field would be gone before the links are read.
  BoundaryLinks(Gauge&&, const FermionBoundary&) = delete;

  // The gauge field as given (periodic, no phases) and the links with the phases.
  const Gauge& gauge() const { return *gauge_; }
  const Gauge& links() const { return *links_; }
  const FermionBoundary& boundary() const { return boundary_; }
  // Whether the links are a phased copy (false: the gauge field itself).
  bool phased() const { return phased_ != nullptr; }

  // The single-precision twin on the same lanes (MatchingSingleWidth): the
  // gauge field rounded (precision_cast), then the boundary phases applied
  // to the rounded links, as for any float operator built on the rounded
  // field (rounding the phased double links instead would differ in the
  // last bit wherever a twist's phase is not +-1 or +-i). It owns its
  // rounded gauge field.
  BoundaryLinks<float, SingleWidth> single_precision() const
    requires std::same_as<R, double>
  {
    auto rounded = std::make_shared<GaugeField<float, SingleWidth>>(gauge_->geometry());
    for (int mu = 0; mu < spacetime_dimensions; ++mu) (*rounded)[mu] = precision_cast<float>((*gauge_)[mu]);
    return BoundaryLinks<float, SingleWidth>(std::shared_ptr<const GaugeField<float, SingleWidth>>(std::move(rounded)),
                                             boundary_);
  }

 private:
  void phase() {
    links_ = gauge_;
    if (boundary_.is_periodic()) return;
    auto phased = std::make_shared<Gauge>(gauge_->geometry());
    for (int mu = 0; mu < spacetime_dimensions; ++mu) (*phased)[mu] = (*gauge_)[mu];
    apply_boundary_phases(*phased, boundary_);
    phased_ = std::move(phased);
    links_ = phased_.get();
  }

  std::shared_ptr<const Gauge> owned_;  // the gauge field, where these links own it
  const Gauge* gauge_;
  std::shared_ptr<const Gauge> phased_;
  const Gauge* links_ = nullptr;
  FermionBoundary boundary_;
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
