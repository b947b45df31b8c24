#pragma once
// The virtual-node SIMD layout of a lattice for one lane count.
// Nsimd lanes form a small grid simd_layout[d]; the local lattice is cut into
// Nsimd equal sub-lattices of extent reduced[d] = dims[d] / simd_layout[d],
// and lane l of outer site o holds the site x[d] = xo[d] + reduced[d] * xl[d].
// Outer sites and lanes are both numbered lexicographically, dimension 0
// fastest.
//
// The layout tiles one rank's block of the lattice (lattice/layout/decomposition.hpp):
// dims() are the block's local extents, and the coordinates that split, join
// and contains take and give are global; tables work in local coordinates.
//
// A checkerboarded layout holds the sites of one parity (lattice/layout/parity.hpp).
// Its lanes split the half lattice whose dimension 0 is halved: grid point h
// is the site x with x[mu] = h[mu] for mu > 0 and x[0] = 2 h[0] + b, where
// b = (parity + h[1] + ... + h[n-1]) mod 2 (Grid's convention). With the
// same lane grid as the full layout and even sub-lattice extents, lane l of
// a half field covers the same block of the lattice as lane l of the full
// field, and every outer site of the full layout has one parity.

#include <cstdint>
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/parity.hpp"
#include "lattice/layout/tiled_order.hpp"
#include "platform/coordinate.hpp"
#include "platform/displacement_table.hpp"
#include "platform/errors.hpp"
#include "platform/parallel.hpp"
#include "platform/runtime_linkage.hpp"

namespace latte {

class SiteLayout;
// Table builders (lattice/layout/displacement_tables.hpp, included at the end).
LATTE_RUNTIME_INLINE std::unique_ptr<DisplacementTable> build_regular_table(const SiteLayout& layout, const Coordinate& d);
LATTE_RUNTIME_INLINE std::unique_ptr<DisplacementTable> build_gather_table(const SiteLayout& source,
                                                                           const SiteLayout& destination,
                                                                           const Coordinate& d);

class SiteLayout {
 public:
  // A lattice held whole by this rank.
  SiteLayout(Coordinate dims, Coordinate simd_layout, Parity parity = Parity::all)
      : SiteLayout(std::make_shared<const Decomposition>(dims, Coordinate(dims.size(), 1), Coordinate{}, true),
                   std::move(simd_layout), parity) {}
  // This rank's block of a decomposed lattice.
  SiteLayout(std::shared_ptr<const Decomposition> decomposition, Coordinate simd_layout, Parity parity);
  SiteLayout(const SiteLayout&) = delete;
  SiteLayout& operator=(const SiteLayout&) = delete;

  int dimensions() const { return static_cast<int>(dims_.size()); }
  int nsimd() const { return nsimd_; }
  std::int64_t outer_volume() const { return outer_volume_; }
  std::int64_t volume() const { return outer_volume_ * nsimd_; }
  const Coordinate& dims() const { return dims_; }  // this rank's block, also for a checkerboard
  const Coordinate& global_dims() const { return decomposition_->global_dims(); }
  const Coordinate& origin() const { return decomposition_->origin(); }
  const Decomposition& decomposition() const { return *decomposition_; }
  const std::shared_ptr<const Decomposition>& shared_decomposition() const { return decomposition_; }
  const Coordinate& simd_layout() const { return simd_; }
  const Coordinate& reduced_dims() const { return reduced_; }
  Parity parity() const { return parity_; }
  bool checkerboarded() const { return parity_ != Parity::all; }

  // Two layouts are interchangeable when extents, lane grid and parity agree.
  bool same_as(const SiteLayout& other) const {
    return dims_ == other.dims_ && simd_ == other.simd_ && parity_ == other.parity_ &&
           decomposition_->same_as(*other.decomposition_);
  }
  std::string describe() const;

  // Global site x -> (outer site, lane); x must be a site this rank holds.
  std::pair<std::int64_t, int> split(const Coordinate& x) const {
    Coordinate local(x);
    for (std::size_t mu = 0; mu < x.size(); ++mu) local[mu] -= origin()[mu];
    return split_local(local);
  }
  // The same for a local coordinate. Integer arithmetic only: table
  // construction calls it for every site and lane.
  std::pair<std::int64_t, int> split_local(const Coordinate& x) const {
    std::int64_t outer = 0, stride = 1;
    int lane = 0, lane_stride = 1;
    for (std::size_t mu = 0; mu < x.size(); ++mu) {
      const int h = mu == 0 && checkerboarded() ? x[0] / 2 : x[mu];  // the grid point (see site_of_grid_point)
      outer += static_cast<std::int64_t>(h % reduced_[mu]) * stride;
      lane += (h / reduced_[mu]) * lane_stride;
      stride *= reduced_[mu];
      lane_stride *= simd_[mu];
    }
    return {outer, lane};
  }

  // (outer site, lane) -> global site x.
  Coordinate join(std::int64_t outer, int lane) const {
    Coordinate xo = coordinate_from_index(outer, reduced_);
    Coordinate xl = coordinate_from_index(lane, simd_);
    for (std::size_t mu = 0; mu < xo.size(); ++mu) xo[mu] += reduced_[mu] * xl[mu];
    unfold(xo);
    for (std::size_t mu = 0; mu < xo.size(); ++mu) xo[mu] += origin()[mu];
    return xo;
  }

  // Is the global site x one of this layout's sites on this rank?
  bool contains(const Coordinate& x) const {
    if (x.size() != dims_.size()) return false;
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < 0 || x[mu] >= global_dims()[mu]) return false;
    return decomposition_->holds(x) && has_parity(x, parity_);
  }

  // Grid point h of the lanes' grid -> local site, in place: on a
  // checkerboard, x[0] = 2 h[0] + b with b = (parity + h[1] + ... + h[n-1])
  // mod 2, the convention split inverts. Local parity is global parity:
  // every block's origin has even coordinates where checkerboards exist.
  void unfold(Coordinate& h) const {
    if (!checkerboarded()) return;
    int others = static_cast<int>(parity_);
    for (std::size_t mu = 1; mu < h.size(); ++mu) others += h[mu];
    h[0] = 2 * h[0] + (others & 1);
  }

  // The layouts of the same lattice and lane count for parity p (Parity::all:
  // the whole lattice). The Geometry that owns them links them together.
  const SiteLayout& checkerboard(Parity p) const;
  const SiteLayout* opposite() const { return checkerboarded() ? &checkerboard(latte::opposite(parity_)) : nullptr; }
  void link(const SiteLayout* whole, const SiteLayout* even, const SiteLayout* odd, std::string why_not = {}) {
    whole_ = whole;
    even_ = even;
    odd_ = odd;
    checkerboard_error_ = std::move(why_not);
  }

  // Where shift(f, d) of a field f on this layout lives: on a checkerboard,
  // an odd displacement lands on the other parity.
  const SiteLayout& shifted(const Coordinate& d) const {
    return checkerboarded() && coordinate_parity(d) != 0 ? *opposite() : *this;
  }

  // Tables for shift by displacement d of a field on this layout, evaluated on
  // shifted(d): built once and cached.
  const DisplacementTable& displacement(const Coordinate& d) const;

  // Per outer site, 1 where the site is interior: no reduced coordinate on
  // the first or last plane of its dimension, so a step of at most one site
  // along every dimension stays within the same lanes of this rank's block
  // (no virtual-node crossing, no halo, no wrap-around). Null on a
  // checkerboard, whose neighbours are not a fixed offset away. Built once.
  const std::uint8_t* interior_sites() const;
  // The outer sites in tiles (lattice/layout/tiled_order.hpp), for statements
  // with large sites; null below three dimensions. Built once.
  const std::int32_t* tiled_order() const;

  // The same for a unit step (step = +1 or -1) along mu, found without
  // making a displacement vector.
  const DisplacementTable& unit_displacement(int mu, int step) const;

  // Table for reading a field on this layout at the sites of `destination`
  // (same lattice and lane count, other parity coverage): picking one parity
  // out of a whole field, or putting a half field back into a whole one.
  // Destination outer sites this layout does not hold are marked absent.
  const DisplacementTable& gather_into(const SiteLayout& destination) const;

  // The interior and surface of a statement on this layout whose halos (of
  // shifts evaluated at its sites) are `exchanges`, in ascending address
  // order. Made once per set and kept.
  const SiteSplit& site_split(std::span<const HaloExchange* const> exchanges) const;

  // Add the lane map "lane xl reads lane (xl + lane_shift) mod simd_layout".
  int append_lane_map(DisplacementTable& table, const Coordinate& lane_shift) const;

  // Set table.interior_regular and interior_offset where they hold (below).
  void mark_interior_offset(DisplacementTable& table, const Coordinate& d) const;

 private:
  std::string extents_text() const;

  std::shared_ptr<const Decomposition> decomposition_;
  Coordinate dims_, simd_, grid_, reduced_;
  Parity parity_ = Parity::all;
  const SiteLayout* whole_ = this;
  const SiteLayout* even_ = nullptr;
  const SiteLayout* odd_ = nullptr;
  std::string checkerboard_error_ = "its geometry made no checkerboards";
  int nsimd_ = 1;
  std::int64_t outer_volume_ = 1;
  mutable std::mutex mutex_;
  mutable std::once_flag interior_once_;
  mutable std::vector<std::uint8_t> interior_;
  mutable std::once_flag tiled_once_;
  mutable std::vector<std::int32_t> tiled_;
  mutable std::map<Coordinate, std::unique_ptr<DisplacementTable>> tables_;
  mutable std::map<const SiteLayout*, std::unique_ptr<DisplacementTable>> gathers_;
  mutable std::vector<const DisplacementTable*> unit_tables_;
  mutable std::map<std::vector<const HaloExchange*>, std::unique_ptr<SiteSplit>, PointerRangeLess> splits_;
};

#if LATTE_RUNTIME_DEFINITIONS  // platform/runtime_linkage.hpp
LATTE_RUNTIME_INLINE SiteLayout::SiteLayout(std::shared_ptr<const Decomposition> decomposition, Coordinate simd_layout, Parity parity)
    : decomposition_(std::move(decomposition)),
      dims_(decomposition_->local_dims()),
      simd_(std::move(simd_layout)),
      parity_(parity) {
  if (simd_.size() != dims_.size())
    throw LayoutError("Latte: SIMD layout " + to_string(simd_) + " has " + std::to_string(simd_.size()) +
                      " dimensions but the " + extents_text() + " " + to_string(dims_) + " have " +
                      std::to_string(dims_.size()));
  grid_ = dims_;
  if (checkerboarded()) {
    if (dims_[0] % 2 != 0)
      throw LayoutError("Latte: a checkerboard needs an even extent in dimension 0; the " + extents_text() + " are " +
                        to_string(dims_));
    grid_[0] = dims_[0] / 2;
  }
  reduced_.resize(dims_.size());
  for (std::size_t mu = 0; mu < dims_.size(); ++mu) {
    if (grid_[mu] <= 0 || simd_[mu] <= 0 || grid_[mu] % simd_[mu] != 0)
      throw LayoutError("Latte: " + extents_text() + " " + to_string(dims_) +
                        (checkerboarded() ? " (checkerboarded: " + to_string(grid_) + ")" : std::string()) +
                        " are not divisible by the SIMD layout " + to_string(simd_) + " (extent " +
                        std::to_string(grid_[mu]) + " in dimension " + std::to_string(mu) + " over " +
                        std::to_string(simd_[mu]) + " lanes)");
    reduced_[mu] = grid_[mu] / simd_[mu];
    // Lanes must be translates by even offsets, or a lane would hold sites
    // of the other parity.
    if (checkerboarded() && mu > 0 && simd_[mu] > 1 && reduced_[mu] % 2 != 0)
      throw LayoutError("Latte: " + extents_text() + " " + to_string(dims_) +
                        " cannot be checkerboarded with the SIMD layout " + to_string(simd_) +
                        ": each lane's block must have an even extent, but dimension " + std::to_string(mu) +
                        " gives " + std::to_string(reduced_[mu]));
  }
  nsimd_ = static_cast<int>(product(simd_));
  outer_volume_ = product(reduced_);
}

LATTE_RUNTIME_INLINE std::string SiteLayout::describe() const {
  return (checkerboarded() ? to_string(parity_) + " sites of " : std::string()) + "extents " +
         to_string(global_dims()) + " with SIMD layout " + to_string(simd_) + decomposition_->describe();
}

LATTE_RUNTIME_INLINE const SiteLayout& SiteLayout::checkerboard(Parity p) const {
  const SiteLayout* found = p == Parity::all ? whole_ : p == Parity::even ? even_ : odd_;
  if (!found)
    throw LayoutError("Latte: the lattice " + describe() + " cannot be checkerboarded: " + checkerboard_error_);
  return *found;
}

LATTE_RUNTIME_INLINE const DisplacementTable& SiteLayout::displacement(const Coordinate& d) const {
  if (d.size() != dims_.size())
    throw LayoutError("Latte: displacement " + to_string(d) + " does not match the lattice " + describe());
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = tables_[d];
  if (!slot) {
    slot = checkerboarded() || decomposition_->any_communication() ? build_gather_table(*this, shifted(d), d)
                                                                   : build_regular_table(*this, d);
    mark_interior_offset(*slot, d);
  }
  return *slot;
}

LATTE_RUNTIME_INLINE const std::uint8_t* SiteLayout::interior_sites() const {
  if (checkerboarded()) return nullptr;
  std::call_once(interior_once_, [&] {
    interior_.assign(static_cast<std::size_t>(outer_volume_), 0);
    for (std::int64_t o = 0; o < outer_volume_; ++o) {
      const Coordinate h = coordinate_from_index(o, reduced_);
      bool inside = true;
      for (std::size_t mu = 0; mu < h.size(); ++mu) inside = inside && h[mu] >= 1 && h[mu] <= reduced_[mu] - 2;
      interior_[static_cast<std::size_t>(o)] = inside ? 1 : 0;
    }
  });
  return interior_.data();
}

LATTE_RUNTIME_INLINE const std::int32_t* SiteLayout::tiled_order() const {
  std::call_once(tiled_once_, [&] { tiled_ = tiled_site_order(reduced_); });
  return tiled_.empty() ? nullptr : tiled_.data();
}

// A step of at most one site along each dimension, on the whole lattice:
// at interior sites its neighbour is the fixed offset the outer index
// strides give. The table built the general way must agree at every one of
// them, or the fast path stays off for it.
LATTE_RUNTIME_INLINE void SiteLayout::mark_interior_offset(DisplacementTable& table, const Coordinate& d) const {
  if (checkerboarded()) return;
  std::int64_t offset = 0, stride = 1;
  for (std::size_t mu = 0; mu < d.size(); ++mu) {
    if (d[mu] < -1 || d[mu] > 1) return;
    offset += d[mu] * stride;
    stride *= reduced_[mu];
  }
  const std::uint8_t* interior = interior_sites();
  for (std::int64_t o = 0; o < outer_volume_; ++o)
    if (interior[o] && (table.neighbour[static_cast<std::size_t>(o)] != o + offset ||
                        table.permutation[static_cast<std::size_t>(o)] != 0))
      return;
  table.interior_offset = offset;
  table.interior_regular = true;
}

LATTE_RUNTIME_INLINE const DisplacementTable& SiteLayout::unit_displacement(int mu, int step) const {
  const std::size_t slot = static_cast<std::size_t>(2 * mu + (step > 0));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (slot < unit_tables_.size() && unit_tables_[slot]) return *unit_tables_[slot];
  }
  const DisplacementTable& table = displacement(latte::unit_displacement(dimensions(), mu, step));
  std::lock_guard<std::mutex> lock(mutex_);
  if (unit_tables_.size() < static_cast<std::size_t>(2 * dimensions())) unit_tables_.resize(2 * dimensions(), nullptr);
  unit_tables_[slot] = &table;
  return table;
}

LATTE_RUNTIME_INLINE const DisplacementTable& SiteLayout::gather_into(const SiteLayout& destination) const {
  if (destination.dims_ != dims_ || destination.nsimd_ != nsimd_)
    throw GeometryMismatch("Latte: cannot read a field on " + describe() + " at the sites of " +
                           destination.describe());
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = gathers_[&destination];
  if (!slot) slot = build_gather_table(*this, destination, Coordinate(dims_.size(), 0));
  return *slot;
}

LATTE_RUNTIME_INLINE int SiteLayout::append_lane_map(DisplacementTable& table, const Coordinate& lane_shift) const {
  const int p = table.permutations();
  for (int l = 0; l < nsimd_; ++l) {
    Coordinate xl = coordinate_from_index(l, simd_);
    for (std::size_t mu = 0; mu < xl.size(); ++mu) xl[mu] = (xl[mu] + lane_shift[mu]) % simd_[mu];
    table.lane_sources.push_back(static_cast<std::int32_t>(index_from_coordinate(xl, simd_)));
  }
  return p;
}

LATTE_RUNTIME_INLINE std::string SiteLayout::extents_text() const {
  return decomposition_->decomposed() ? "local extents (of the lattice " + to_string(global_dims()) +
                                            " over the process grid " + to_string(decomposition_->process_grid()) + ")"
                                      : "lattice extents";
}
#endif  // LATTE_RUNTIME_DEFINITIONS

}  // namespace latte

#include "lattice/layout/displacement_tables.hpp"
