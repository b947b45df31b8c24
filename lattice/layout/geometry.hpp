#pragma once
// Geometry: the lattice a field lives on. It is a cheap handle to shared
// state, copied into every field. It keeps global extents (the whole
// lattice) and this rank's block of it apart (lattice/layout/decomposition.hpp):
// everything a user sees — coordinates, parity, random numbers, reductions —
// is global, and only the layouts work on the block. SIMD layouts are made
// on demand, one per lane count, because double and single precision fields
// on the same lattice use different numbers of lanes.
//
// A Geometry may also stand for one checkerboard of its lattice:
// geometry.checkerboard(Parity::even) shares the lattice and makes fields
// that hold the even sites only (lattice/layout/parity.hpp). Every field made "like"
// another, Field(other.geometry()), then lives on the same sites.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/parity.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/coordinate.hpp"
#include "platform/errors.hpp"
#include "platform/runtime_linkage.hpp"

namespace latte {

// How a lattice is laid out over SIMD lanes and ranks. Empty entries take
// the defaults (the rules below, and LATTE_PROCESS_GRID /
// LATTE_FORCE_COMMUNICATION at run time).
struct GeometryOptions {
  GeometryOptions() = default;  // not an aggregate: Geometry(dims, {2, 2, 1, 1}) means a lane grid
  Coordinate simd_layout;          // lanes per dimension, used for the lane count equal to its product
  Coordinate process_grid;         // ranks per dimension; its product is the number of ranks
  Coordinate force_communication;  // 1 where shifts go through halos even within one rank (a test mode)
  bool replicated = false;         // every rank holds the whole lattice on its own (a one-rank reference)
};

class Geometry {
 public:
  // Default lane grid: factors of two go to the slowest dimensions first
  // (last index), cycling back: first only where each lane's block stays
  // even, then wherever the extent stays even.
  explicit Geometry(Coordinate dims) : Geometry(std::move(dims), GeometryOptions{}) {}
  // An explicit lane grid, used for the lane count equal to its product;
  // other lane counts keep the default rule.
  Geometry(Coordinate dims, Coordinate simd_layout) : Geometry(std::move(dims), with_lanes(std::move(simd_layout))) {}
  Geometry(Coordinate dims, GeometryOptions options) : impl_(std::make_shared<Impl>(std::move(dims), std::move(options))) {}

  // The whole lattice on every rank, each computing alone: in an MPI job,
  // the one-rank reference that a decomposed result is compared with.
  static Geometry replicated(Coordinate dims) {
    GeometryOptions options;
    options.replicated = true;
    return Geometry(std::move(dims), std::move(options));
  }

  int dimensions() const { return static_cast<int>(impl_->global_dims.size()); }
  const Coordinate& dims() const { return impl_->global_dims; }
  const Coordinate& local_dims() const { return impl_->decomposition->local_dims(); }
  const Coordinate& process_grid() const { return impl_->decomposition->process_grid(); }
  const Decomposition& decomposition() const { return *impl_->decomposition; }
  // Sites of the fields made on this geometry: half the lattice on a checkerboard.
  std::int64_t volume() const { return product(impl_->global_dims) / (checkerboarded() ? 2 : 1); }

  // The same lattice, restricted to the sites of parity p (Parity::all: the whole lattice).
  Geometry checkerboard(Parity p) const {
    if (p != Parity::all && dims()[0] % 2 != 0)
      throw LayoutError("Latte: a checkerboard needs an even extent in dimension 0; the lattice extents are " +
                        to_string(dims()));
    Geometry g = *this;
    g.parity_ = p;
    return g;
  }
  Geometry whole() const { return checkerboard(Parity::all); }
  Parity parity() const { return parity_; }
  bool checkerboarded() const { return parity_ != Parity::all; }

  // Is x a site of this geometry (on any rank)?
  bool contains(const Coordinate& x) const {
    if (x.size() != dims().size()) return false;
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < 0 || x[mu] >= dims()[mu]) return false;
    return has_parity(x, parity_);
  }

  // Lexicographic global site number, dimension 0 fastest. Random numbers are
  // keyed on it, so they do not depend on the SIMD layout, thread count or
  // number of ranks.
  std::int64_t global_index(const Coordinate& x) const { return index_from_coordinate(x, dims()); }

  // Checkerboard colour of a site: 0 even, 1 odd.
  static int parity(const Coordinate& x) { return coordinate_parity(x); }

  // The layout of this geometry's fields for a lane count. The checkerboards
  // use the whole lattice's lane grid, so that picking a parity out of a
  // whole field moves no lanes; all three are made together and know each
  // other (a lattice that cannot be checkerboarded keeps the reason).
  const SiteLayout& layout(int nsimd) const;

  // On a decomposed lattice the lanes go first to the dimensions the ranks
  // do not split: a face between ranks is then made of whole records that
  // travel as they are, rather than of records whose lanes come partly from
  // another rank and partly from this one.
  Coordinate simd_layout_for(int nsimd) const;

  static Coordinate default_simd_layout(const Coordinate& dims, int nsimd);

 private:
  static GeometryOptions with_lanes(Coordinate simd_layout) {
    GeometryOptions options;
    options.simd_layout = std::move(simd_layout);
    return options;
  }

  // Checkerboards need every block to start on an even site, so that local
  // and global parity agree: an even local extent wherever ranks split.
  std::string odd_block_origins() const;

  struct Impl {
    Impl(Coordinate dims, GeometryOptions options);
    Coordinate global_dims;
    std::shared_ptr<const Decomposition> decomposition;
    std::optional<Coordinate> requested_simd;
    struct Layouts {
      std::unique_ptr<SiteLayout> whole, even, odd;
    };
    std::mutex mutex;
    std::map<int, Layouts> layouts;
  };
  std::shared_ptr<Impl> impl_;
  Parity parity_ = Parity::all;
};

#if LATTE_RUNTIME_DEFINITIONS  // platform/runtime_linkage.hpp
LATTE_RUNTIME_INLINE Geometry::Impl::Impl(Coordinate dims, GeometryOptions options) : global_dims(std::move(dims)) {
  if (global_dims.empty()) throw LayoutError("Latte: a lattice needs at least one dimension");
  for (std::size_t mu = 0; mu < global_dims.size(); ++mu)
    if (global_dims[mu] <= 0)
      throw LayoutError("Latte: lattice extents " + to_string(global_dims) + " must be positive (dimension " +
                        std::to_string(mu) + ")");
  const int nd = static_cast<int>(global_dims.size());
  const DecompositionDefaults& defaults = DecompositionDefaults::instance();
  Coordinate grid = options.process_grid;
  if (options.replicated) {
    grid.assign(nd, 1);
  } else if (grid.empty() && !defaults.process_grid.empty()) {
    grid = parse_dotted(defaults.process_grid, "the process grid (LATTE_PROCESS_GRID)");
  }
  if (grid.empty()) grid = default_process_grid(global_dims, world_communicator().size());
  Coordinate forced = options.force_communication;
  if (forced.empty() && !defaults.force_communication.empty()) {
    forced = defaults.force_communication == "all"
                 ? Coordinate(nd, 1)
                 : parse_dotted(defaults.force_communication, "the forced-communication mask (LATTE_FORCE_COMMUNICATION)");
  }
  decomposition = std::make_shared<const Decomposition>(global_dims, grid, forced, options.replicated);
  if (!options.simd_layout.empty()) {
    requested_simd = options.simd_layout;
    SiteLayout check(decomposition, *requested_simd, Parity::all);  // fail early on a bad layout
  }
}

LATTE_RUNTIME_INLINE const SiteLayout& Geometry::layout(int nsimd) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto& layouts = impl_->layouts[nsimd];
  if (!layouts.whole) {
    const auto& decomposition = impl_->decomposition;
    layouts.whole = std::make_unique<SiteLayout>(decomposition, simd_layout_for(nsimd), Parity::all);
    const Coordinate& simd = layouts.whole->simd_layout();
    std::string why_not = odd_block_origins();
    if (why_not.empty()) {
      try {
        layouts.even = std::make_unique<SiteLayout>(decomposition, simd, Parity::even);
        layouts.odd = std::make_unique<SiteLayout>(decomposition, simd, Parity::odd);
      } catch (const LayoutError& e) {
        why_not = e.what();
        if (why_not.rfind("Latte: ", 0) == 0) why_not.erase(0, 7);
        layouts.even.reset();
        layouts.odd.reset();
      }
    }
    for (SiteLayout* l : {layouts.whole.get(), layouts.even.get(), layouts.odd.get()})
      if (l) l->link(layouts.whole.get(), layouts.even.get(), layouts.odd.get(), why_not);
  }
  return layouts.whole->checkerboard(parity_);
}

LATTE_RUNTIME_INLINE Coordinate Geometry::simd_layout_for(int nsimd) const {
  if (impl_->requested_simd && product(*impl_->requested_simd) == nsimd) return *impl_->requested_simd;
  const Decomposition& d = *impl_->decomposition;
  try {
    if (d.decomposed()) {
      Coordinate unsplit = local_dims();
      for (int mu = 0; mu < dimensions(); ++mu)
        if (d.process_grid()[mu] > 1) unsplit[mu] = 1;
      try {
        return default_simd_layout(unsplit, nsimd);
      } catch (const LayoutError&) {
      }
    }
    return default_simd_layout(local_dims(), nsimd);
  } catch (const LayoutError& e) {
    if (!d.decomposed()) throw;
    throw LayoutError(std::string(e.what()) + "; these are the local extents of the lattice " + to_string(dims()) +
                      " over the process grid " + to_string(process_grid()));
  }
}

LATTE_RUNTIME_INLINE Coordinate Geometry::default_simd_layout(const Coordinate& dims, int nsimd) {
  if (nsimd <= 0 || (nsimd & (nsimd - 1)) != 0)
    throw LayoutError("Latte: the number of SIMD lanes must be a power of two, got " + std::to_string(nsimd));
  Coordinate simd(dims.size(), 1);
  int remaining = nsimd;
  // First only where each lane's block stays even (so the lattice can still
  // be checkerboarded), then wherever the extent stays even.
  for (int keep : {4, 2}) {
    bool progress = true;
    while (remaining > 1 && progress) {
      progress = false;
      for (int mu = static_cast<int>(dims.size()) - 1; mu >= 0 && remaining > 1; --mu) {
        if ((dims[mu] / simd[mu]) % keep == 0 && dims[mu] % simd[mu] == 0) {
          simd[mu] *= 2;
          remaining /= 2;
          progress = true;
        }
      }
    }
  }
  if (remaining > 1)
    throw LayoutError("Latte: lattice extents " + to_string(dims) + " cannot be split over " +
                      std::to_string(nsimd) + " SIMD lanes (each lane needs an equal sub-lattice; " +
                      "extents must be divisible by the SIMD layout)");
  return simd;
}

LATTE_RUNTIME_INLINE std::string Geometry::odd_block_origins() const {
  const Decomposition& d = *impl_->decomposition;
  for (int mu = 0; mu < dimensions(); ++mu)
    if (d.process_grid()[mu] > 1 && d.local_dims()[mu] % 2 != 0)
      return "the local extents " + to_string(d.local_dims()) + " of the lattice " + to_string(dims()) +
             " over the process grid " + to_string(d.process_grid()) + " are odd in dimension " + std::to_string(mu) +
             " (blocks must start on even sites)";
  return {};
}
#endif  // LATTE_RUNTIME_DEFINITIONS

}  // namespace latte
