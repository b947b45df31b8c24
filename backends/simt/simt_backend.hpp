#pragma once
// The simt backend: statements' kernels (dsl/exec/statement_kernels.hpp) on
// lane sites, run on the CPU, one OpenMP loop over outer sites with the lanes
// inside.
// It needs no SIMD library and runs the exact code CUDA threads run.
// The contract every backend meets is written in backends/common/backend_contract.hpp.

#include <cstdint>

#include "backends/common/host_statement_timer.hpp"
#include "backends/common/lane_statements.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "backends/common/traversal.hpp"
#include "lattice/fields/field_view.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/parallel.hpp"

namespace latte::backend {

struct Simt {
  static constexpr const char* name = "simt";
  // Whether fields of Real may have `bytes` per virtual-node vector: lanes are plain reals: any whole number of them.
  template <class Real> static constexpr bool has_vectors(int bytes) { return bytes % static_cast<int>(sizeof(Real)) == 0; }
  // The statement profile's clock and STREAM reference (dsl/statements/statement_profile.hpp).
  using StatementTimer = HostStatementTimer;
  static double stream_triad_gbytes_per_s() { return host_stream_triad_gbytes_per_s(); }
  static constexpr MemorySide memory_side = MemorySide::host;
  static void synchronize() {}  // statements are done when assign returns
  // Halo work is done when pack and unpack return; nothing to order.
  static void halo_begin() {}
  static void halo_staged() {}
  static void halo_end() {}

  // Every site in order, no prefetching, plain stores: GPU threads have
  // nothing to gain from the cpu's traversal choices, and this is their check.
  // (A small statement runs on the calling thread alone, as on the cpu.)
  static Traversal traversal(const StatementShape& shape, SiteRange sites, const SiteLayout&, const std::uint8_t*) {
    Traversal t{sites};
    t.team = worth_a_team(shape, sites.count);
    return t;
  }

  // kernel(site, false) for every (outer site, lane) of the traversal.
  template <class Kernel>
  static void for_each_site(const Traversal& t, const Kernel& kernel) {
    using Real = typename Kernel::real_type;
    const SiteRange sites = t.sites;
    parallel_for(
        sites.count,
        [=](std::int64_t i) {
          for (int l = 0; l < Kernel::nsimd; ++l) kernel(LaneSite<Real>{sites[i], l}, false);
        },
        t.team);
  }

  // The accumulators of kernel(site) over every (outer site, lane), block by block.
  template <class Combine, class Kernel>
  static auto reduce_sites(const Traversal& t, const Kernel& kernel) {
    using A = lane::accumulator_of<Combine, Kernel>;
    const SiteRange sites = t.sites;
    return parallel_accumulate(
        reduction_blocks(sites.count), start_accumulator<Combine, A>(),
        [&](A& mine, std::int64_t b) { lane::reduce_block<Combine>(mine, kernel, sites, b); },
        [](A& total, const A& mine) { merge_accumulators<Combine>(total, mine); }, t.team);
  }

  // kernel(place) for every item of a halo message, one OpenMP loop (on the
  // calling thread alone for a small message).
  template <class Kernel>
  static void for_each_halo_item(HaloItemsView items, const Kernel& kernel) {
    parallel_for(items.items, [=](std::int64_t i) { kernel(HaloItemAt<LaneSiteOf>{i}); }, worth_a_team(items));
  }
};

}  // namespace latte::backend
