#pragma once
// The virtual-node SIMD layout of a lattice for one lane count (DESIGN.md §2).
// Nsimd lanes form a small grid simd_layout[d]; the local lattice is cut into
// Nsimd equal sub-lattices of extent reduced[d] = dims[d] / simd_layout[d],
// and lane l of outer site o holds the site x[d] = xo[d] + reduced[d] * xl[d].
// Outer sites and lanes are both numbered lexicographically, dimension 0
// fastest.

#include <cstdint>
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "lattice/coordinate.hpp"
#include "lattice/displacement_table.hpp"
#include "lattice/errors.hpp"

namespace latte {

class SiteLayout {
 public:
  SiteLayout(Coordinate dims, Coordinate simd_layout) : dims_(std::move(dims)), simd_(std::move(simd_layout)) {
    if (simd_.size() != dims_.size())
      throw LayoutError("Latte: SIMD layout " + to_string(simd_) + " has " + std::to_string(simd_.size()) +
                        " dimensions but the lattice extents " + to_string(dims_) + " have " +
                        std::to_string(dims_.size()));
    reduced_.resize(dims_.size());
    for (std::size_t mu = 0; mu < dims_.size(); ++mu) {
      if (dims_[mu] <= 0 || simd_[mu] <= 0 || dims_[mu] % simd_[mu] != 0)
        throw LayoutError("Latte: lattice extents " + to_string(dims_) + " are not divisible by the SIMD layout " +
                          to_string(simd_) + " (extent " + std::to_string(dims_[mu]) + " in dimension " +
                          std::to_string(mu) + " over " + std::to_string(simd_[mu]) + " lanes)");
      reduced_[mu] = dims_[mu] / simd_[mu];
    }
    nsimd_ = static_cast<int>(product(simd_));
    outer_volume_ = product(reduced_);
  }
  SiteLayout(const SiteLayout&) = delete;
  SiteLayout& operator=(const SiteLayout&) = delete;

  int dimensions() const { return static_cast<int>(dims_.size()); }
  int nsimd() const { return nsimd_; }
  std::int64_t outer_volume() const { return outer_volume_; }
  std::int64_t volume() const { return outer_volume_ * nsimd_; }
  const Coordinate& dims() const { return dims_; }
  const Coordinate& simd_layout() const { return simd_; }
  const Coordinate& reduced_dims() const { return reduced_; }

  // Two layouts are interchangeable when extents and lane grid agree.
  bool same_as(const SiteLayout& other) const { return dims_ == other.dims_ && simd_ == other.simd_; }
  std::string describe() const { return "extents " + to_string(dims_) + " with SIMD layout " + to_string(simd_); }

  // Site x -> (outer site, lane); x must lie inside the lattice.
  std::pair<std::int64_t, int> split(const Coordinate& x) const {
    Coordinate xo(x.size()), xl(x.size());
    for (std::size_t mu = 0; mu < x.size(); ++mu) {
      xo[mu] = x[mu] % reduced_[mu];
      xl[mu] = x[mu] / reduced_[mu];
    }
    return {index_from_coordinate(xo, reduced_), static_cast<int>(index_from_coordinate(xl, simd_))};
  }

  // (outer site, lane) -> site x.
  Coordinate join(std::int64_t outer, int lane) const {
    Coordinate xo = coordinate_from_index(outer, reduced_);
    Coordinate xl = coordinate_from_index(lane, simd_);
    for (std::size_t mu = 0; mu < xo.size(); ++mu) xo[mu] += reduced_[mu] * xl[mu];
    return xo;
  }

  bool contains(const Coordinate& x) const {
    if (x.size() != dims_.size()) return false;
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < 0 || x[mu] >= dims_[mu]) return false;
    return true;
  }

  // Tables for shift by displacement d, built once and cached.
  const DisplacementTable& displacement(const Coordinate& d) const {
    if (d.size() != dims_.size())
      throw LayoutError("Latte: displacement " + to_string(d) + " does not match the lattice " + describe());
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slot = tables_[d];
    if (!slot) slot = build_table(d);
    return *slot;
  }

 private:
  // With x = xo + reduced * xl, x + d = yo + reduced * (xl + q) where
  // yo = (xo + d) mod reduced and q = floor((xo + d) / reduced). So every
  // lane's neighbour sits at outer site yo (sub-lattices are translates of
  // each other: a shift is one vector load plus at most one permute) and
  // lane xl reads lane (xl + q) mod simd_layout. The permutation depends only
  // on q mod simd_layout, a mixed-radix number below nsimd.
  std::unique_ptr<DisplacementTable> build_table(const Coordinate& d) const {
    const int nd = dimensions();
    auto table = std::make_unique<DisplacementTable>();
    table->nsimd = nsimd_;
    table->neighbour.resize(outer_volume_);
    table->permutation.resize(outer_volume_);
    std::vector<int> permutation_of_shift(nsimd_, -1);
    permutation_of_shift[0] = 0;
    append_lane_map(*table, Coordinate(nd, 0));  // permutation 0: the identity

    Coordinate xo(nd, 0), lane_shift(nd);
    for (std::int64_t o = 0; o < outer_volume_; ++o) {
      std::int64_t neighbour = 0, stride = 1;
      int shift_key = 0, radix = 1;
      for (int mu = 0; mu < nd; ++mu) {
        const int y = xo[mu] + d[mu];
        const int q = floor_divide(y, reduced_[mu]);
        neighbour += static_cast<std::int64_t>(y - q * reduced_[mu]) * stride;
        stride *= reduced_[mu];
        lane_shift[mu] = ((q % simd_[mu]) + simd_[mu]) % simd_[mu];
        shift_key += lane_shift[mu] * radix;
        radix *= simd_[mu];
      }
      int& p = permutation_of_shift[shift_key];
      if (p < 0) p = append_lane_map(*table, lane_shift);
      table->neighbour[o] = static_cast<std::int32_t>(neighbour);
      table->permutation[o] = static_cast<std::uint8_t>(p);
      for (int mu = 0; mu < nd && ++xo[mu] == reduced_[mu]; ++mu) xo[mu] = 0;  // next outer site
    }
    return table;
  }

  // Add the lane map "lane xl reads lane (xl + lane_shift) mod simd_layout".
  int append_lane_map(DisplacementTable& table, const Coordinate& lane_shift) const {
    const int p = table.permutations();
    for (int l = 0; l < nsimd_; ++l) {
      Coordinate xl = coordinate_from_index(l, simd_);
      for (std::size_t mu = 0; mu < xl.size(); ++mu) xl[mu] = (xl[mu] + lane_shift[mu]) % simd_[mu];
      table.lane_sources.push_back(static_cast<std::int32_t>(index_from_coordinate(xl, simd_)));
    }
    return p;
  }

  static int floor_divide(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

  Coordinate dims_, simd_, reduced_;
  int nsimd_ = 1;
  std::int64_t outer_volume_ = 1;
  mutable std::mutex mutex_;
  mutable std::map<Coordinate, std::unique_ptr<DisplacementTable>> tables_;
};

}  // namespace latte
