#pragma once
// How SiteLayout builds its shift and gather tables (platform/displacement_table.hpp).

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/displacement_table.hpp"
#include "platform/parallel.hpp"
#include "platform/runtime_linkage.hpp"

namespace latte {

inline int floor_divide(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

#if LATTE_RUNTIME_DEFINITIONS  // platform/runtime_linkage.hpp

// A whole layout with no communicating dimension. With x = xo + reduced * xl,
// x + d = yo + reduced * (xl + q) where yo = (xo + d) mod reduced and
// q = floor((xo + d) / reduced). So every lane's neighbour sits at outer site
// yo (sub-lattices are translates of each other: a shift is one vector load
// plus at most one permute) and lane xl reads lane (xl + q) mod simd_layout.
// The permutation depends only on q mod simd_layout, a mixed-radix number
// below nsimd.
LATTE_RUNTIME_INLINE std::unique_ptr<DisplacementTable> build_regular_table(const SiteLayout& layout, const Coordinate& d) {
  const int nd = layout.dimensions();
  const Coordinate& reduced = layout.reduced_dims();
  const Coordinate& simd = layout.simd_layout();
  const std::int64_t outer_volume = layout.outer_volume();
  auto table = std::make_unique<DisplacementTable>();
  table->nsimd = layout.nsimd();
  table->neighbour.resize(outer_volume);
  table->permutation.resize(outer_volume);
  std::vector<int> permutation_of_shift(layout.nsimd(), -1);
  permutation_of_shift[0] = 0;
  layout.append_lane_map(*table, Coordinate(nd, 0));  // permutation 0: the identity

  Coordinate xo(nd, 0), lane_shift(nd);
  for (std::int64_t o = 0; o < outer_volume; ++o) {
    std::int64_t neighbour = 0, stride = 1;
    int shift_key = 0, radix = 1;
    for (int mu = 0; mu < nd; ++mu) {
      const int y = xo[mu] + d[mu];
      const int q = floor_divide(y, reduced[mu]);
      neighbour += static_cast<std::int64_t>(y - q * reduced[mu]) * stride;
      stride *= reduced[mu];
      lane_shift[mu] = ((q % simd[mu]) + simd[mu]) % simd[mu];
      shift_key += lane_shift[mu] * radix;
      radix *= simd[mu];
    }
    int& p = permutation_of_shift[shift_key];
    if (p < 0) p = layout.append_lane_map(*table, lane_shift);
    table->neighbour[o] = static_cast<std::int32_t>(neighbour);
    table->permutation[o] = static_cast<std::uint8_t>(p);
    for (int mu = 0; mu < nd && ++xo[mu] == reduced[mu]; ++mu) xo[mu] = 0;  // next outer site
  }
  return table;
}

// The general construction, site by site: destination (o, l) is the local
// site x; x + d is, in the block K blocks away (K = 0: this rank's own), the
// local site y, which `source` holds at (o', l'). K counts blocks only in
// dimensions that communicate; elsewhere x + d wraps around the block.
//  - All lanes of o in the own block, at one o' (or all absent: a gather
//    between a checkerboard and the whole lattice): a permutation of one
//    record, as in the regular table.
//  - Any lane in another block: o gets a halo slot, filled lane by lane by
//    the messages of lattice/layout/halo_exchange.hpp.
// Sites are visited in parallel with integer arithmetic only (a 32^4
// checkerboard has half a million of them per table); lane maps, slots and
// messages are then numbered in one serial pass, in the same order on every
// rank.
LATTE_RUNTIME_INLINE std::unique_ptr<DisplacementTable> build_gather_table(const SiteLayout& source,
                                                                           const SiteLayout& destination,
                                                                           const Coordinate& d) {
  const int nd = source.dimensions();
  const int nsimd = source.nsimd();
  const Decomposition& decomposition = source.decomposition();
  const Coordinate& block = source.dims();
  const std::int64_t outer = destination.outer_volume();
  auto table = std::make_unique<DisplacementTable>();
  table->nsimd = nsimd;
  table->neighbour.resize(outer);
  table->permutation.resize(outer);
  const std::size_t entries = static_cast<std::size_t>(outer) * nsimd;
  std::vector<std::int32_t> source_outer(entries), source_lane(entries);
  std::vector<std::int8_t> offsets(entries * nd, 0);  // K per entry
  enum : std::uint8_t { local = 0, absent = 1, scattered = 2, mixed_parity = 3, remote = 4 };
  std::vector<std::uint8_t> state(outer);
  // Destination lane l sits at grid offset reduced * xl.
  std::vector<int> lane_offsets(static_cast<std::size_t>(nsimd) * nd);
  for (int l = 0; l < nsimd; ++l) {
    const Coordinate xl = coordinate_from_index(l, destination.simd_layout());
    for (int mu = 0; mu < nd; ++mu) lane_offsets[l * nd + mu] = destination.reduced_dims()[mu] * xl[mu];
  }
  std::vector<char> communicates(nd);
  for (int mu = 0; mu < nd; ++mu) communicates[mu] = decomposition.communicates(mu);
  std::atomic<bool> offsets_fit{true};

  constexpr std::int64_t chunk = 256;
  parallel_for((outer + chunk - 1) / chunk, [&](std::int64_t c) {
    Coordinate xo(nd), x(nd);
    for (std::int64_t o = c * chunk; o < outer && o < (c + 1) * chunk; ++o) {
      std::int64_t rest = o;
      for (int mu = 0; mu < nd; ++mu) {
        xo[mu] = static_cast<int>(rest % destination.reduced_dims()[mu]);
        rest /= destination.reduced_dims()[mu];
      }
      std::int64_t first_local = -1;
      int present = 0, in_other_blocks = 0;
      bool spread = false;
      for (int l = 0; l < nsimd; ++l) {
        // the destination's local site, displaced ...
        for (int mu = 0; mu < nd; ++mu) x[mu] = xo[mu] + lane_offsets[l * nd + mu];
        destination.unfold(x);
        const std::size_t entry = static_cast<std::size_t>(o) * nsimd + l;
        bool other_block = false;
        for (int mu = 0; mu < nd; ++mu) {
          const int y = x[mu] + d[mu];
          const int k = floor_divide(y, block[mu]);
          x[mu] = y - k * block[mu];
          if (communicates[mu] && k != 0) {
            if (k < -127 || k > 127) offsets_fit = false;
            offsets[entry * nd + mu] = static_cast<std::int8_t>(k);
            other_block = true;
          }
        }
        if (!has_parity(x, source.parity())) continue;
        // ... and where the source layout holds it (in its own block)
        const auto [site_outer, lane] = source.split_local(x);
        source_outer[entry] = static_cast<std::int32_t>(site_outer);
        source_lane[entry] = lane;
        ++present;
        if (other_block) {
          ++in_other_blocks;
        } else {
          if (first_local >= 0 && site_outer != first_local) spread = true;
          if (first_local < 0) first_local = site_outer;
        }
      }
      table->neighbour[o] = first_local >= 0 ? static_cast<std::int32_t>(first_local) : 0;
      state[o] = present == 0 ? absent : present != nsimd ? mixed_parity : in_other_blocks ? remote
                                       : spread             ? scattered
                                                            : local;
    }
  });
  if (!offsets_fit)
    throw LayoutError("Latte: displacement " + to_string(d) + " reaches more than 127 blocks away on " + source.describe());

  std::map<std::vector<std::int32_t>, int> known;
  std::vector<std::int32_t> lane_map(nsimd);
  for (int l = 0; l < nsimd; ++l) lane_map[l] = l;
  known[lane_map] = source.append_lane_map(*table, Coordinate(nd, 0));  // permutation 0: the identity
  auto halo = std::make_shared<HaloExchange>();
  std::map<Coordinate, int> message_of_offset;
  std::vector<std::vector<HaloItem>> items;
  for (std::int64_t o = 0; o < outer; ++o) {
    if (state[o] == absent) {
      table->permutation[o] = DisplacementTable::absent;
      continue;
    }
    if (state[o] == scattered)
      throw LayoutError("Latte: the lanes of " + destination.describe() + " at outer site " + std::to_string(o) +
                        " read different outer sites of " + source.describe() + " for displacement " + to_string(d));
    if (state[o] == mixed_parity)
      throw LayoutError("Latte: the lanes of " + destination.describe() + " at outer site " + std::to_string(o) +
                        " hold sites of both parities; checkerboarding needs even lane blocks");
    const std::size_t row = static_cast<std::size_t>(o) * nsimd;
    if (state[o] == remote) {
      const auto slot = static_cast<std::int32_t>(halo->sites.size());
      halo->sites.push_back(static_cast<std::int32_t>(o));
      table->neighbour[o] = slot;
      table->permutation[o] = DisplacementTable::halo_entry;
      for (int l = 0; l < nsimd; ++l) {
        const std::size_t entry = row + l;
        const Coordinate offset(offsets.begin() + entry * nd, offsets.begin() + (entry + 1) * nd);
        auto [found, added] = message_of_offset.try_emplace(offset, static_cast<int>(items.size()));
        if (added) items.emplace_back();
        items[found->second].push_back({source_outer[entry], source_lane[entry], slot, l, 0, 0});
      }
      continue;
    }
    const std::int32_t* lanes = source_lane.data() + row;
    bool identity = true;
    for (int l = 0; l < nsimd && identity; ++l) identity = lanes[l] == l;
    if (identity) {  // most sites: no lane crosses a virtual-node boundary
      table->permutation[o] = 0;
      continue;
    }
    lane_map.assign(lanes, lanes + nsimd);
    auto [entry, inserted] = known.try_emplace(lane_map, table->permutations());
    if (inserted) table->lane_sources.insert(table->lane_sources.end(), lane_map.begin(), lane_map.end());
    if (entry->second >= DisplacementTable::halo_entry)
      throw LayoutError("Latte: too many lane permutations for one displacement on " + source.describe());
    table->permutation[o] = static_cast<std::uint8_t>(entry->second);
  }
  if (halo->sites.empty()) return table;

  // One message per block offset, in the order the offsets first appear.
  halo->messages.resize(items.size());
  for (const auto& [offset, index] : message_of_offset) {
    HaloMessage& m = halo->messages[index];
    m.block_offset = offset;
    Coordinate back(offset);
    for (int& k : back) k = -k;
    m.source_rank = decomposition.rank_at_offset(offset);
    m.destination_rank = decomposition.rank_at_offset(back);
    m.to_self = m.source_rank == decomposition.communicator().rank();
    std::vector<HaloItem>& list = items[index];
    std::vector<std::int32_t> group_start;
    for (std::size_t i = 0; i < list.size(); ++i)
      if (i == 0 || list[i].source_outer != list[i - 1].source_outer) group_start.push_back(static_cast<std::int32_t>(i));
    group_start.push_back(static_cast<std::int32_t>(list.size()));
    std::vector<std::uint8_t> whole(group_start.size() - 1);
    for (std::size_t g = 0; g + 1 < group_start.size(); ++g) {
      const std::int32_t begin = group_start[g], size = group_start[g + 1] - begin;
      bool record = size == nsimd;
      for (std::int32_t k = 0; k < size; ++k) {
        HaloItem& item = list[begin + k];
        item.group_begin = begin;
        item.group_size = size;
        record = record && item.source_lane == k && item.lane == k && item.slot == list[begin].slot;
      }
      whole[g] = record;
    }
    m.items = static_cast<std::int64_t>(list.size());
    m.groups = static_cast<std::int64_t>(group_start.size()) - 1;
    m.item_table = SharedTable(list, "the items of a halo message");
    m.group_table = SharedTable(group_start, "the item groups of a halo message");
    m.whole_table = SharedTable(whole, "the whole records of a halo message");
  }
  if (halo->messages.size() > 127)
    throw LayoutError("Latte: displacement " + to_string(d) + " needs " + std::to_string(halo->messages.size()) +
                      " halo messages on " + source.describe() + " (at most 127)");
  table->halo = std::move(halo);
  return table;
}

LATTE_RUNTIME_INLINE const SiteSplit& SiteLayout::site_split(std::span<const HaloExchange* const> exchanges) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = splits_.find(exchanges);
  if (found != splits_.end()) return *found->second;
  std::vector<char> surface(static_cast<std::size_t>(outer_volume_), 0);
  for (const HaloExchange* exchange : exchanges)
    for (std::int32_t o : exchange->sites) surface[static_cast<std::size_t>(o)] = 1;
  std::vector<std::int32_t> inner, outer;
  for (std::int64_t o = 0; o < outer_volume_; ++o) (surface[o] ? outer : inner).push_back(static_cast<std::int32_t>(o));
  auto split = std::make_unique<SiteSplit>();
  split->interior = static_cast<std::int64_t>(inner.size());
  split->surface = static_cast<std::int64_t>(outer.size());
  split->interior_first = SiteSplit::run_start(inner);
  split->surface_first = SiteSplit::run_start(outer);
  if (split->interior_first < 0) split->interior_sites = SharedTable(inner, "the interior sites of a statement");
  if (split->surface_first < 0) split->surface_sites = SharedTable(outer, "the surface sites of a statement");
  if (const std::int32_t* tiled = tiled_order()) {
    split->interior_tiled.reserve(inner.size());
    split->surface_tiled.reserve(outer.size());
    for (std::int64_t i = 0; i < outer_volume_; ++i)
      (surface[tiled[i]] ? split->surface_tiled : split->interior_tiled).push_back(tiled[i]);
  }
  const SiteSplit& result = *split;
  splits_.emplace(std::vector<const HaloExchange*>(exchanges.begin(), exchanges.end()), std::move(split));
  return result;
}
#endif  // LATTE_RUNTIME_DEFINITIONS

}  // namespace latte
