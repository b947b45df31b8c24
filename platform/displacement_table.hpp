#pragma once
// Neighbour and lane-permutation tables for one displacement d on one SIMD
// layout. For outer site o, the value of shift(f, d) on lane l is the value
// of f at outer site neighbour[o], lane lane_source(permutation[o], l).
// Permutation 0 is always the identity: most outer sites do not cross a
// virtual-node boundary and need no permute at all. A table may also lead
// from one layout to another (a checkerboard and the whole lattice).
//
// On a lattice spread over ranks (lattice/layout/decomposition.hpp), outer sites
// whose neighbours live in another block are marked halo_entry: their
// neighbour[o] is a slot of the halo (lattice/layout/halo_exchange.hpp), which
// the statement fills by messages before it reads it.

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "platform/build.hpp"

namespace latte {

// A kernel-side view of a table: three raw pointers, trivially copyable.
// interior_regular: at every interior outer site of the layout
// (SiteLayout::interior_sites) the neighbour is o + interior_offset, with
// no permutation and no halo, so a loop that knows it is at such a site
// can skip both tables (backends/cpu/cpu_backend.hpp).
struct DisplacementView {
  const std::int32_t* neighbour;
  const std::uint8_t* permutation;
  const std::int32_t* lane_sources;
  int nsimd;
  bool interior_regular = false;
  std::int64_t interior_offset = 0;

  LATTE_INLINE const std::int32_t* lane_map(int p) const { return lane_sources + p * nsimd; }
};

struct HaloExchange;

struct DisplacementTable {
  // Permutation index of an outer site the source does not hold (a gather
  // between a checkerboard and the whole lattice).
  static constexpr std::uint8_t absent = 255;
  // Permutation index of an outer site whose value comes from the halo.
  static constexpr std::uint8_t halo_entry = 254;

  std::vector<std::int32_t> neighbour;     // per outer site
  std::vector<std::uint8_t> permutation;   // per outer site, index into the lane maps
  std::vector<std::int32_t> lane_sources;  // permutation p, lane l -> source lane at [p * nsimd + l]
  int nsimd = 1;
  std::shared_ptr<const HaloExchange> halo;  // null when every neighbour is local
  // Set, and checked against the tables, by SiteLayout::displacement.
  bool interior_regular = false;
  std::int64_t interior_offset = 0;

  // A copy in accelerator memory, made by the backend that needs one the
  // first time a statement uses this table there, and freed with the table.
  mutable std::once_flag device_copy_once;
  mutable std::shared_ptr<void> device_copy;
  mutable DisplacementView device_view{};

  int permutations() const { return static_cast<int>(lane_sources.size()) / nsimd; }
  const std::int32_t* lane_map(int p) const { return lane_sources.data() + static_cast<std::size_t>(p) * nsimd; }
  DisplacementView host_view() const {
    return {neighbour.data(), permutation.data(), lane_sources.data(), nsimd, interior_regular, interior_offset};
  }
};

}  // namespace latte
