#pragma once
// How a backend walks the sites of one statement: the statement's shape
// (which form, how large its destination and its sites, how much it reads)
// goes in, a Traversal comes out, chosen once per statement by the
// backend's tuning (backends/cpu/cpu_tuning.hpp; the per-lane backends walk
// every site plainly) and applied by its site patterns to whatever kernel
// the statement runs (dsl/exec/statement_kernels.hpp).

#include <cstddef>
#include <cstdint>

#include "lattice/layout/halo_exchange.hpp"
#include "lattice/tensors/site_index.hpp"
#include "platform/parallel.hpp"

namespace latte {

// The statement forms whose traversal differs.
enum class StatementForm {
  assign,         // dst op= e (one or several destinations)
  assign_reduce,  // the same, and a reduction that reads dst back at the site
  reduce,         // a reduction only
  push,           // each element of a site's value stored at a neighbour
};

struct StatementShape {
  StatementForm form = StatementForm::assign;
  bool reads_destination = false;       // the kernel loads the destination first (+=)
  std::size_t destination_bytes = 0;    // every destination's field on this rank
  std::size_t site_bytes = 0;           // one outer site of the destinations
  std::size_t bytes_read_per_site = 0;  // what the expressions read per outer site
};

// Where a halo kernel (dsl/exec/halo_kernels.hpp) runs, the place a
// backend's for_each_halo_item hands it: a vector backend takes a message's
// items a group at a time (the items whose source is one record, all its
// lanes at once: HaloItemsView::group_start), a per-lane backend one item at
// a time. SiteOf<Real, N> is the backend's site type, for the kernels that
// evaluate an expression at the items' sources.
template <template <class, int> class SiteOf>
struct HaloGroupAt {
  std::int64_t group;
};
template <template <class, int> class SiteOf>
struct HaloItemAt {
  std::int64_t item;
};
// The per-lane backends' site type, in the form the places take.
template <class Real, int>
using LaneSiteOf = LaneSite<Real>;

struct Traversal {
  SiteRange sites;                          // possibly reordered (tiled)
  const std::uint8_t* interior = nullptr;   // interior flags of the sites' layout (vector sites); null: none
  std::int64_t prefetch_distance = 0;       // outer sites ahead to prefetch; 0: no software prefetch
  bool prefetch_destination = false;        // prefetch the destination's record too
  bool streaming_stores = false;            // stores bypass the caches
  bool from_memory = false;                 // operands stream from memory (batches prefetch within a site)
  bool team = true;                         // on the OpenMP team; false: the calling thread alone
};

// Whether a host backend runs a statement over `outer_sites` of this shape
// on the OpenMP team: when it moves at least team_above_bytes
// (platform/parallel.hpp), its destinations' records and what it reads.
inline bool worth_a_team(const StatementShape& shape, std::int64_t outer_sites) {
  return worth_a_team(outer_sites * static_cast<std::int64_t>(shape.site_bytes + shape.bytes_read_per_site));
}

// Whether a host backend packs or unpacks a halo message of `items` items on
// the team: at a nominal 64 bytes an item (a population is 8, a Wilson half
// spinor 96 and the product U^+ h that fills it more).
inline bool worth_a_team(const HaloItemsView& items) { return worth_a_team(items.items * 64); }

}  // namespace latte
