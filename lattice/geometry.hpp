#pragma once
// Geometry: the lattice a field lives on. It is a cheap handle to shared
// state, copied into every field. It keeps global extents (the whole lattice)
// and local extents (the block this process holds) apart: today they are
// equal, and MPI domain decomposition will make them differ without touching
// any DSL node. SIMD layouts are made on demand, one per lane count, because
// double and single precision fields on the same lattice use different
// numbers of lanes.
//
// A Geometry may also stand for one checkerboard of its lattice:
// geometry.checkerboard(Parity::even) shares the lattice and makes fields
// that hold the even sites only (lattice/parity.hpp). Every field made "like"
// another, Field(other.geometry()), then lives on the same sites.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "lattice/coordinate.hpp"
#include "lattice/errors.hpp"
#include "lattice/parity.hpp"
#include "lattice/simd_layout.hpp"

namespace latte {

class Geometry {
 public:
  // Default lane grid: factors of two go to the slowest dimensions first
  // (last index), cycling back, each only where the extent stays even.
  explicit Geometry(Coordinate dims) : impl_(std::make_shared<Impl>(std::move(dims), std::nullopt)) {}
  // An explicit lane grid, used for the lane count equal to its product;
  // other lane counts keep the default rule.
  Geometry(Coordinate dims, Coordinate simd_layout)
      : impl_(std::make_shared<Impl>(std::move(dims), std::move(simd_layout))) {}

  int dimensions() const { return static_cast<int>(impl_->global_dims.size()); }
  const Coordinate& dims() const { return impl_->global_dims; }
  const Coordinate& local_dims() const { return impl_->local_dims; }
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

  bool contains(const Coordinate& x) const {
    if (x.size() != dims().size()) return false;
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < 0 || x[mu] >= dims()[mu]) return false;
    return has_parity(x, parity_);
  }

  // Lexicographic global site number, dimension 0 fastest. Random numbers are
  // keyed on it, so they do not depend on the SIMD layout or thread count.
  std::int64_t global_index(const Coordinate& x) const { return index_from_coordinate(x, dims()); }

  // Checkerboard colour of a site: 0 even, 1 odd.
  static int parity(const Coordinate& x) { return coordinate_parity(x); }

  // The layout of this geometry's fields for a lane count. The checkerboards
  // use the whole lattice's lane grid, so that picking a parity out of a
  // whole field moves no lanes; all three are made together and know each
  // other (a lattice that cannot be checkerboarded keeps the reason).
  const SiteLayout& layout(int nsimd) const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto& layouts = impl_->layouts[nsimd];
    if (!layouts.whole) {
      layouts.whole = std::make_unique<SiteLayout>(impl_->local_dims, simd_layout_for(nsimd));
      const Coordinate& simd = layouts.whole->simd_layout();
      std::string why_not;
      try {
        layouts.even = std::make_unique<SiteLayout>(impl_->local_dims, simd, Parity::even);
        layouts.odd = std::make_unique<SiteLayout>(impl_->local_dims, simd, Parity::odd);
      } catch (const LayoutError& e) {
        why_not = e.what();
        if (why_not.rfind("Latte: ", 0) == 0) why_not.erase(0, 7);
        layouts.even.reset();
        layouts.odd.reset();
      }
      for (SiteLayout* l : {layouts.whole.get(), layouts.even.get(), layouts.odd.get()})
        if (l) l->link(layouts.whole.get(), layouts.even.get(), layouts.odd.get(), why_not);
    }
    return layouts.whole->checkerboard(parity_);
  }

  Coordinate simd_layout_for(int nsimd) const {
    if (impl_->requested_simd && product(*impl_->requested_simd) == nsimd) return *impl_->requested_simd;
    return default_simd_layout(impl_->local_dims, nsimd);
  }

  static Coordinate default_simd_layout(const Coordinate& dims, int nsimd) {
    if (nsimd <= 0 || (nsimd & (nsimd - 1)) != 0)
      throw LayoutError("Latte: the number of SIMD lanes must be a power of two, got " + std::to_string(nsimd));
    Coordinate simd(dims.size(), 1);
    int remaining = nsimd;
    bool progress = true;
    while (remaining > 1 && progress) {
      progress = false;
      for (int mu = static_cast<int>(dims.size()) - 1; mu >= 0 && remaining > 1; --mu) {
        if ((dims[mu] / simd[mu]) % 2 == 0 && dims[mu] % simd[mu] == 0) {
          simd[mu] *= 2;
          remaining /= 2;
          progress = true;
        }
      }
    }
    if (remaining > 1)
      throw LayoutError("Latte: lattice extents " + to_string(dims) + " cannot be split over " +
                        std::to_string(nsimd) + " SIMD lanes (each lane needs an equal sub-lattice; " +
                        "extents must be divisible by the SIMD layout)");
    return simd;
  }

 private:
  struct Impl {
    Impl(Coordinate dims, std::optional<Coordinate> simd) : global_dims(std::move(dims)), requested_simd(std::move(simd)) {
      if (global_dims.empty()) throw LayoutError("Latte: a lattice needs at least one dimension");
      for (std::size_t mu = 0; mu < global_dims.size(); ++mu)
        if (global_dims[mu] <= 0)
          throw LayoutError("Latte: lattice extents " + to_string(global_dims) + " must be positive (dimension " +
                            std::to_string(mu) + ")");
      local_dims = global_dims;
      if (requested_simd) SiteLayout check(local_dims, *requested_simd);  // fail early on a bad layout
    }
    Coordinate global_dims;
    Coordinate local_dims;
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

}  // namespace latte
