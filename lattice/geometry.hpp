#pragma once
// Geometry: the lattice a field lives on. It is a cheap handle to shared
// state, copied into every field. It keeps global extents (the whole lattice)
// and local extents (the block this process holds) apart: today they are
// equal, and MPI domain decomposition will make them differ without touching
// any DSL node. SIMD layouts are made on demand, one per lane count, because
// double and single precision fields on the same lattice use different
// numbers of lanes.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "lattice/coordinate.hpp"
#include "lattice/errors.hpp"
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
  std::int64_t volume() const { return product(impl_->global_dims); }

  bool contains(const Coordinate& x) const {
    if (x.size() != dims().size()) return false;
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < 0 || x[mu] >= dims()[mu]) return false;
    return true;
  }

  // Lexicographic global site number, dimension 0 fastest. Random numbers are
  // keyed on it, so they do not depend on the SIMD layout or thread count.
  std::int64_t global_index(const Coordinate& x) const { return index_from_coordinate(x, dims()); }

  // Checkerboard colour of a site: 0 even, 1 odd.
  static int parity(const Coordinate& x) {
    int sum = 0;
    for (int v : x) sum += v;
    return sum & 1;
  }

  const SiteLayout& layout(int nsimd) const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto& slot = impl_->layouts[nsimd];
    if (!slot) slot = std::make_unique<SiteLayout>(impl_->local_dims, simd_layout_for(nsimd));
    return *slot;
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
    std::mutex mutex;
    std::map<int, std::unique_ptr<SiteLayout>> layouts;
  };
  std::shared_ptr<Impl> impl_;
};

}  // namespace latte
