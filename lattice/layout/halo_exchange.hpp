#pragma once
// The halo of one displacement on one rank's layout: which outer sites read
// values that live in another block (another rank's, or, in forced
// communication, this rank's own across the block boundary), and the
// messages that bring them.
//
// An outer site whose lanes all read local data uses the ordinary table
// entry (neighbour outer site and lane permutation). Any other outer site
// gets a halo slot: a record of the shifted expression's value, all lanes,
// that the statement reads instead (DisplacementTable::halo_entry). A slot
// is filled lane by lane from messages, one per block offset K (the source
// block is this rank's plus K). Lanes of a slot that are local (a dimension
// split over both SIMD lanes and ranks) come through a message to itself.
//
// Every rank has the same local layout, so the list of items of message K
// is the same on every rank: the receiver reads item i into (slot, lane);
// the sender, rank "this minus K", evaluates the shifted expression at its
// own (source outer site, source lane) of item i. Only what crosses travels,
// never whole records of lanes that stay: the backward Wilson hop sends U^+ h
// half spinors and a lattice-Boltzmann shift only the population that
// streams across.
//
// Items with the same source outer site form a group. The payload is group
// after group, each as a record is stored: word w of the group's item k at
// group_begin * words + w * group_size + k (lanes fastest). A group of all
// lanes in order, bound for one slot's lanes in order (a face the ranks
// split but the lanes do not), is a whole record: packed with vector stores
// and unpacked with one copy.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lattice/tensors/site_index.hpp"
#include "platform/build.hpp"
#include "platform/coordinate.hpp"
#include "platform/memory/field_memory.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/runtime_linkage.hpp"

namespace latte {

struct HaloItem {
  std::int32_t source_outer;  // on the sending rank
  std::int32_t source_lane;
  std::int32_t slot;  // on the receiving rank
  std::int32_t lane;
  std::int32_t group_begin;  // the first item of this item's group
  std::int32_t group_size;

  // Where word w of item i lies in a payload of `words` reals per item.
  LATTE_INLINE std::int64_t position(std::int64_t i, int words, int w) const {
    return static_cast<std::int64_t>(group_begin) * words + static_cast<std::int64_t>(w) * group_size + (i - group_begin);
  }
};

// A kernel-side view of a message's items, trivially copyable. Group g is
// items [group_start[g], group_start[g + 1]); whole_group[g] says it is a
// whole record (the vector lowering evaluates each source record once).
struct HaloItemsView {
  const HaloItem* item;
  const std::int32_t* group_start;
  const std::uint8_t* whole_group;
  std::int64_t items;
  std::int64_t groups;
};

// Read-only data that kernels on either memory side use: built on the host
// once, copied to the device the first time a statement there asks.
class SharedTable {
 public:
  SharedTable() = default;
  template <class T>
  explicit SharedTable(const std::vector<T>& values, const char* what)
      : memory_(values.size() * sizeof(T), [what] { return std::string(what); }, Traffic::halo) {
    if (!values.empty()) std::memcpy(memory_.data(MemorySide::host, Access::write), values.data(), values.size() * sizeof(T));
  }
  const void* data(MemorySide side) const { return memory_.bytes() ? memory_.data(side, Access::read) : nullptr; }

 private:
  mutable FieldMemory memory_;
};

struct HaloMessage {
  Coordinate block_offset;  // K
  int source_rank = 0;       // receive from the rank at this rank + K
  int destination_rank = 0;  // send to the rank at this rank - K
  bool to_self = false;      // both are this rank: the payload is used where it is packed
  std::int64_t items = 0;
  std::int64_t groups = 0;
  SharedTable item_table, group_table, whole_table;

  HaloItemsView view(MemorySide side) const {
    return {static_cast<const HaloItem*>(item_table.data(side)), static_cast<const std::int32_t*>(group_table.data(side)),
            static_cast<const std::uint8_t*>(whole_table.data(side)), items, groups};
  }
};

// Storage for one use of a halo in a statement: the slots' records and each
// message's payloads. Made the first time a statement needs it and kept with
// the table, so an iteration that repeats the statement allocates nothing.
// On device memory a payload between ranks also gets its pinned host buffer
// here (platform/memory/field_memory.hpp), once: fields never do.
struct HaloBuffers {
  FieldMemory records;
  std::vector<HaloPayload> send, receive;  // per message; a message to itself has no receive buffer
};

struct HaloExchange {
  std::vector<std::int32_t> sites;  // outer sites that read the halo, ascending; slot s is sites[s]
  std::vector<HaloMessage> messages;

  std::int64_t slots() const { return static_cast<std::int64_t>(sites.size()); }

  // Bytes that leave this rank per use, for a value of `words` reals of
  // `real_bytes` each (messages to itself excluded).
  std::int64_t bytes_sent(int words, std::size_t real_bytes) const {
    std::int64_t items = 0;
    for (const HaloMessage& m : messages)
      if (!m.to_self) items += m.items;
    return items * words * static_cast<std::int64_t>(real_bytes);
  }

  // The buffers of the occurrence-th use, in one statement, of this halo by
  // a value of `words` reals of `real_bytes` bytes on `nsimd` lanes.
  HaloBuffers& buffers(std::size_t real_bytes, int words, int nsimd, int occurrence) const;

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::tuple<std::size_t, int, int, int>, std::unique_ptr<HaloBuffers>> cache_;
};

// The outer sites of a statement split by whether they read any of its
// halos: the interior runs while messages travel, the surface after.
// A set that is one run of consecutive sites (a lattice split along its
// slowest dimension: the interior) is kept as that run, with no list.
struct SiteSplit {
  std::int64_t interior = 0, surface = 0;
  std::int64_t interior_first = -1, surface_first = -1;  // >= 0: one run from here
  SharedTable interior_sites, surface_sites;
  // Each set again in the layout's tiled order (host only; empty where the
  // layout has none), for statements with large sites.
  std::vector<std::int32_t> interior_tiled, surface_tiled;

  SiteRange interior_range(MemorySide side) const {
    return range(interior_sites, interior, interior_first, side, interior_tiled);
  }
  SiteRange surface_range(MemorySide side) const {
    return range(surface_sites, surface, surface_first, side, surface_tiled);
  }

  // The run's first site, or -1 if the sites are not one run.
  static std::int64_t run_start(const std::vector<std::int32_t>& sites) {
    if (sites.empty()) return 0;
    return sites.back() - sites.front() + 1 == static_cast<std::int64_t>(sites.size()) ? sites.front() : -1;
  }

 private:
  static SiteRange range(const SharedTable& table, std::int64_t count, std::int64_t first, MemorySide side,
                         const std::vector<std::int32_t>& tiled) {
    const std::int32_t* in_tiles = side == MemorySide::host && !tiled.empty() ? tiled.data() : nullptr;
    if (first >= 0) return {nullptr, count, first, in_tiles};
    return {static_cast<const std::int32_t*>(table.data(side)), count, 0, in_tiles};
  }
};

// Orders any two ranges of pointers, so that a cache keyed by a vector can be
// searched with a span (no allocation per lookup).
struct PointerRangeLess {
  using is_transparent = void;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
};

#if LATTE_RUNTIME_DEFINITIONS  // platform/runtime_linkage.hpp
LATTE_RUNTIME_INLINE HaloBuffers& HaloExchange::buffers(std::size_t real_bytes, int words, int nsimd, int occurrence) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = cache_[std::make_tuple(real_bytes, words, nsimd, occurrence)];
  if (!slot) {
    slot = std::make_unique<HaloBuffers>();
    const std::size_t record = real_bytes * static_cast<std::size_t>(words) * nsimd;
    slot->records =
        FieldMemory(record * static_cast<std::size_t>(slots()), [] { return std::string("halo records"); }, Traffic::halo);
    for (const HaloMessage& m : messages) {
      const std::size_t payload = real_bytes * static_cast<std::size_t>(words) * static_cast<std::size_t>(m.items);
      const PayloadRoute route = m.to_self ? PayloadRoute::in_place : payload_route_between_ranks();
      slot->send.emplace_back(payload, [] { return std::string("a halo message to send"); }, route);
      slot->receive.emplace_back(m.to_self ? 0 : payload, [] { return std::string("a received halo message"); }, route);
    }
  }
  return *slot;
}
#endif  // LATTE_RUNTIME_DEFINITIONS

}  // namespace latte
