#pragma once
// The virtual-node SIMD layout of a lattice for one lane count (DESIGN.md §2).
// Nsimd lanes form a small grid simd_layout[d]; the local lattice is cut into
// Nsimd equal sub-lattices of extent reduced[d] = dims[d] / simd_layout[d],
// and lane l of outer site o holds the site x[d] = xo[d] + reduced[d] * xl[d].
// Outer sites and lanes are both numbered lexicographically, dimension 0
// fastest.
//
// A checkerboarded layout holds the sites of one parity (lattice/parity.hpp).
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
#include <string>
#include <utility>
#include <vector>

#include "backends/common/parallel.hpp"
#include "lattice/coordinate.hpp"
#include "lattice/displacement_table.hpp"
#include "lattice/errors.hpp"
#include "lattice/parity.hpp"

namespace latte {

class SiteLayout {
 public:
  SiteLayout(Coordinate dims, Coordinate simd_layout, Parity parity = Parity::all)
      : dims_(std::move(dims)), simd_(std::move(simd_layout)), parity_(parity) {
    if (simd_.size() != dims_.size())
      throw LayoutError("Latte: SIMD layout " + to_string(simd_) + " has " + std::to_string(simd_.size()) +
                        " dimensions but the lattice extents " + to_string(dims_) + " have " +
                        std::to_string(dims_.size()));
    grid_ = dims_;
    if (checkerboarded()) {
      if (dims_[0] % 2 != 0)
        throw LayoutError("Latte: a checkerboard needs an even extent in dimension 0; the lattice extents are " +
                          to_string(dims_));
      grid_[0] = dims_[0] / 2;
    }
    reduced_.resize(dims_.size());
    for (std::size_t mu = 0; mu < dims_.size(); ++mu) {
      if (grid_[mu] <= 0 || simd_[mu] <= 0 || grid_[mu] % simd_[mu] != 0)
        throw LayoutError("Latte: lattice extents " + to_string(dims_) + (checkerboarded() ? " (checkerboarded: " + to_string(grid_) + ")" : std::string()) +
                          " are not divisible by the SIMD layout " + to_string(simd_) + " (extent " +
                          std::to_string(grid_[mu]) + " in dimension " + std::to_string(mu) + " over " +
                          std::to_string(simd_[mu]) + " lanes)");
      reduced_[mu] = grid_[mu] / simd_[mu];
      // Lanes must be translates by even offsets, or a lane would hold sites
      // of the other parity.
      if (checkerboarded() && mu > 0 && simd_[mu] > 1 && reduced_[mu] % 2 != 0)
        throw LayoutError("Latte: lattice extents " + to_string(dims_) + " cannot be checkerboarded with the SIMD layout " +
                          to_string(simd_) + ": each lane's block must have an even extent, but dimension " +
                          std::to_string(mu) + " gives " + std::to_string(reduced_[mu]));
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
  const Coordinate& dims() const { return dims_; }  // the whole lattice, also for a checkerboard
  const Coordinate& simd_layout() const { return simd_; }
  const Coordinate& reduced_dims() const { return reduced_; }
  Parity parity() const { return parity_; }
  bool checkerboarded() const { return parity_ != Parity::all; }

  // Two layouts are interchangeable when extents, lane grid and parity agree.
  bool same_as(const SiteLayout& other) const {
    return dims_ == other.dims_ && simd_ == other.simd_ && parity_ == other.parity_;
  }
  std::string describe() const {
    return (checkerboarded() ? to_string(parity_) + " sites of " : std::string()) + "extents " + to_string(dims_) +
           " with SIMD layout " + to_string(simd_);
  }

  // Site x -> (outer site, lane); x must be a site of this layout. Integer
  // arithmetic only: table construction calls it for every site and lane.
  std::pair<std::int64_t, int> split(const Coordinate& x) const {
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

  // (outer site, lane) -> site x.
  Coordinate join(std::int64_t outer, int lane) const {
    Coordinate xo = coordinate_from_index(outer, reduced_);
    Coordinate xl = coordinate_from_index(lane, simd_);
    for (std::size_t mu = 0; mu < xo.size(); ++mu) xo[mu] += reduced_[mu] * xl[mu];
    return site_of_grid_point(std::move(xo));
  }

  // Grid point h of the lanes' grid -> site x (the identity unless checkerboarded).
  Coordinate site_of_grid_point(Coordinate h) const {
    unfold(h);
    return h;
  }

  bool contains(const Coordinate& x) const {
    if (x.size() != dims_.size()) return false;
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < 0 || x[mu] >= dims_[mu]) return false;
    return has_parity(x, parity_);
  }

  // The layouts of the same lattice and lane count for parity p (Parity::all:
  // the whole lattice). The Geometry that owns them links them together.
  const SiteLayout& checkerboard(Parity p) const {
    const SiteLayout* found = p == Parity::all ? whole_ : p == Parity::even ? even_ : odd_;
    if (!found)
      throw LayoutError("Latte: the lattice " + describe() + " cannot be checkerboarded: " + checkerboard_error_);
    return *found;
  }
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
  const DisplacementTable& displacement(const Coordinate& d) const {
    if (d.size() != dims_.size())
      throw LayoutError("Latte: displacement " + to_string(d) + " does not match the lattice " + describe());
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slot = tables_[d];
    if (!slot) slot = checkerboarded() ? build_gather(shifted(d), d) : build_table(d);
    return *slot;
  }

  // Table for reading a field on this layout at the sites of `destination`
  // (same lattice and lane count, other parity coverage): picking one parity
  // out of a whole field, or putting a half field back into a whole one.
  // Destination outer sites this layout does not hold are marked absent.
  const DisplacementTable& gather_into(const SiteLayout& destination) const {
    if (destination.dims_ != dims_ || destination.nsimd_ != nsimd_)
      throw GeometryMismatch("Latte: cannot read a field on " + describe() + " at the sites of " +
                             destination.describe());
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slot = gathers_[&destination];
    if (!slot) slot = build_gather(destination, Coordinate(dims_.size(), 0));
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

  // The general construction, site by site: destination (o, l) is site x;
  // x + d (periodic) is (o', l') here. All lanes of o must find the same o'
  // (or all be absent): then the lanes are a permutation of one record.
  // Sites are visited in parallel with integer arithmetic only (a 32^4
  // checkerboard has half a million of them per table); the lane maps are
  // then numbered in one serial pass.
  std::unique_ptr<DisplacementTable> build_gather(const SiteLayout& destination, const Coordinate& d) const {
    const int nd = dimensions();
    const std::int64_t outer = destination.outer_volume_;
    auto table = std::make_unique<DisplacementTable>();
    table->nsimd = nsimd_;
    table->neighbour.resize(outer);
    table->permutation.resize(outer);
    std::vector<std::int32_t> lane_maps(static_cast<std::size_t>(outer) * nsimd_);
    std::vector<std::uint8_t> state(outer);  // 0 all lanes present, 1 absent, 2 scattered, 3 mixed parity
    // Destination lane l sits at grid offset reduced * xl.
    std::vector<int> lane_offsets(static_cast<std::size_t>(nsimd_) * nd);
    for (int l = 0; l < nsimd_; ++l) {
      const Coordinate xl = coordinate_from_index(l, destination.simd_);
      for (int mu = 0; mu < nd; ++mu) lane_offsets[l * nd + mu] = destination.reduced_[mu] * xl[mu];
    }
    constexpr std::int64_t block = 256;
    parallel_for((outer + block - 1) / block, [&](std::int64_t b) {
      std::vector<int> xo(nd), x(nd);
      for (std::int64_t o = b * block; o < outer && o < (b + 1) * block; ++o) {
        std::int64_t rest = o;
        for (int mu = 0; mu < nd; ++mu) {
          xo[mu] = static_cast<int>(rest % destination.reduced_[mu]);
          rest /= destination.reduced_[mu];
        }
        std::int64_t source = -1;
        int present = 0;
        bool scattered = false;
        for (int l = 0; l < nsimd_; ++l) {
          // the destination's site, displaced and wrapped ...
          for (int mu = 0; mu < nd; ++mu) x[mu] = xo[mu] + lane_offsets[l * nd + mu];
          destination.unfold(x);
          for (int mu = 0; mu < nd; ++mu) x[mu] = ((x[mu] + d[mu]) % dims_[mu] + dims_[mu]) % dims_[mu];
          if (!has_parity(x, parity_)) continue;
          // ... and where this layout holds it
          const auto [site_outer, lane] = split(x);
          if (present > 0 && site_outer != source) scattered = true;
          source = site_outer;
          lane_maps[static_cast<std::size_t>(o) * nsimd_ + l] = lane;
          ++present;
        }
        table->neighbour[o] = present ? static_cast<std::int32_t>(source) : 0;
        state[o] = present == 0 ? 1 : present != nsimd_ ? 3 : scattered ? 2 : 0;
      }
    });

    std::map<std::vector<std::int32_t>, int> known;
    std::vector<std::int32_t> lane_map(nsimd_);
    for (int l = 0; l < nsimd_; ++l) lane_map[l] = l;
    known[lane_map] = append_lane_map(*table, Coordinate(nd, 0));  // permutation 0: the identity
    for (std::int64_t o = 0; o < outer; ++o) {
      if (state[o] == 1) {
        table->permutation[o] = DisplacementTable::absent;
        continue;
      }
      if (state[o] == 2)
        throw LayoutError("Latte: the lanes of " + destination.describe() + " at outer site " + std::to_string(o) +
                          " read different outer sites of " + describe() + " for displacement " + to_string(d));
      if (state[o] == 3)
        throw LayoutError("Latte: the lanes of " + destination.describe() + " at outer site " + std::to_string(o) +
                          " hold sites of both parities; checkerboarding needs even lane blocks");
      const std::int32_t* row = lane_maps.data() + static_cast<std::size_t>(o) * nsimd_;
      bool identity = true;
      for (int l = 0; l < nsimd_ && identity; ++l) identity = row[l] == l;
      if (identity) {  // most sites: no lane crosses a virtual-node boundary
        table->permutation[o] = 0;
        continue;
      }
      lane_map.assign(row, row + nsimd_);
      auto [entry, inserted] = known.try_emplace(lane_map, table->permutations());
      if (inserted) table->lane_sources.insert(table->lane_sources.end(), lane_map.begin(), lane_map.end());
      if (entry->second >= DisplacementTable::absent)
        throw LayoutError("Latte: too many lane permutations for one displacement on " + describe());
      table->permutation[o] = static_cast<std::uint8_t>(entry->second);
    }
    return table;
  }

  // Grid point -> site, in place: on a checkerboard, x[0] = 2 h[0] + b with
  // b = (parity + h[1] + ... + h[n-1]) mod 2, the convention split inverts.
  void unfold(Coordinate& h) const {
    if (!checkerboarded()) return;
    int others = static_cast<int>(parity_);
    for (std::size_t mu = 1; mu < h.size(); ++mu) others += h[mu];
    h[0] = 2 * h[0] + (others & 1);
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

  Coordinate dims_, simd_, grid_, reduced_;
  Parity parity_ = Parity::all;
  const SiteLayout* whole_ = this;
  const SiteLayout* even_ = nullptr;
  const SiteLayout* odd_ = nullptr;
  std::string checkerboard_error_ = "its geometry made no checkerboards";
  int nsimd_ = 1;
  std::int64_t outer_volume_ = 1;
  mutable std::mutex mutex_;
  mutable std::map<Coordinate, std::unique_ptr<DisplacementTable>> tables_;
  mutable std::map<const SiteLayout*, std::unique_ptr<DisplacementTable>> gathers_;
};

}  // namespace latte
