#pragma once
// The CPU lowering: one OpenMP loop over outer sites; each iteration runs
// the statement's kernel (dsl/exec/statement_kernels.hpp) on SIMD vectors,
// all lanes at once. Reductions keep vector accumulators per block and merge
// lanes only at the end of a block. Which sites in which order, with what
// prefetching and stores, is the traversal (backends/cpu/cpu_tuning.hpp). The contract every backend meets is
// written in backends/common/backend_contract.hpp.

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "backends/common/host_statement_timer.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "backends/cpu/cpu_tuning.hpp"
#include "backends/cpu/vector_accumulators.hpp"
#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "lattice/fields/field_view.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/tensors/site_index.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/parallel.hpp"

namespace latte::backend {

struct Cpu {
  static constexpr const char* name = "cpu";
  // Whether fields of Real may have `bytes` per virtual-node vector: one lane (the scalar layout) or a vector of at least 16 bytes (SSE2).
  template <class Real> static constexpr bool has_vectors(int bytes) { return bytes == static_cast<int>(sizeof(Real)) || bytes >= 16; }
  // The statement profile's clock and STREAM reference (dsl/statements/statement_profile.hpp).
  using StatementTimer = HostStatementTimer;
  static double stream_triad_gbytes_per_s() { return host_stream_triad_gbytes_per_s(); }
  static constexpr MemorySide memory_side = MemorySide::host;
  static void synchronize() {}  // statements are done when assign returns
  // Halo work is done when pack and unpack return; nothing to order.
  static void halo_begin() {}
  static void halo_staged() {}
  static void halo_end() {}

  // The traversal of a statement (backends/cpu/cpu_tuning.hpp).
  static Traversal traversal(const StatementShape& shape, SiteRange sites, const SiteLayout& layout,
                             const std::uint8_t* interior) {
    return cpu::Tuning::traversal(shape, sites, layout, interior);
  }

  template <class Real, int N> using Site = VectorSite<cpu::vector_t<Real, N>, Real, cpu::VectorOps>;

  // Outer site o, marked interior from the traversal's flags (null: never interior).
  template <class S>
  LATTE_INLINE static S site(std::int64_t o, const std::uint8_t* interior, bool from_memory = false) {
    return S{o, interior != nullptr && interior[o] != 0, from_memory};
  }

  // kernel(site, streaming) at every site of the traversal, one OpenMP loop
  // over outer sites, all lanes at once; the sites `prefetch_distance`
  // ahead are prefetched.
  template <class Kernel>
  static void for_each_site(const Traversal& t, const Kernel& kernel) {
    using S = Site<typename Kernel::real_type, Kernel::nsimd>;
    const SiteRange sites = t.sites;
    const std::int64_t distance = t.prefetch_distance;
    const std::int64_t prefetch_end = distance > 0 ? sites.count - distance : 0;
    const std::uint8_t* interior = t.interior;
    const bool from_memory = t.from_memory, streaming = t.streaming_stores, destination = t.prefetch_destination;
    parallel_for(
        sites.count,
        [=](std::int64_t i) LATTE_LAMBDA {
          const S s = site<S>(sites[i], interior, from_memory);
          if (i < prefetch_end) kernel.prefetch(site<S>(sites[i + distance], interior, from_memory), destination);
          kernel(s, streaming);
        },
        t.team);
  }

  // The accumulators (one per leaf) of a reduction of values of type Value.
  template <class Combine, class Value>
  using vector_accumulators = rebind_t<Value, typename cpu::vector_accumulator<Combine, real_of_t<Value>>::type>;

  // The accumulators of values of type VectorValue over `count` sites, block
  // by block: per_site(acc, i) adds site i's value to the block's vector
  // accumulators, which are then merged lane by lane into the thread's.
  template <class Combine, class VectorValue, class PerSite>
  static auto accumulate_blocks(std::int64_t count, bool team, PerSite&& per_site) {
    using Vector = vector_accumulators<Combine, VectorValue>;
    using Total = accumulator_t<Combine, VectorValue>;
    return parallel_accumulate(
        reduction_blocks(count), start_accumulator<Combine, Total>(),
        [&](Total& mine, std::int64_t b) LATTE_LAMBDA {
          const std::int64_t begin = b * reduction_block_sites;
          const std::int64_t end = begin + reduction_block_sites < count ? begin + reduction_block_sites : count;
          auto acc = cpu::start_vector_accumulators<Combine, Vector>();
          for (std::int64_t i = begin; i < end; ++i) per_site(acc, i);
          // Merged from a copy, so that acc's address never escapes and the
          // compiler can keep its vectors in registers through the loop.
          const Vector done = acc;
          cpu::vector_merge_into<Combine>(mine, done);
        },
        [](Total& total, const Total& mine) { merge_accumulators<Combine>(total, mine); }, team);
  }

  // The accumulators of kernel(site) over the traversal's sites: vector
  // accumulators per block of sites, merged lane by lane.
  template <class Combine, class Kernel>
  static auto reduce_sites(const Traversal& t, const Kernel& kernel) {
    using S = Site<typename Kernel::real_type, Kernel::nsimd>;
    using VectorValue = std::remove_cvref_t<decltype(kernel(S{0}))>;
    const SiteRange sites = t.sites;
    const std::int64_t distance = t.prefetch_distance;
    const std::int64_t prefetch_end = distance > 0 ? sites.count - distance : 0;
    const std::uint8_t* interior = t.interior;
    const bool destination = t.prefetch_destination;
    if constexpr (Kernel::bytes_read_per_site < cpu::Tuning::plain_reduction_below_site_bytes) {
      if (distance == 0 && interior == nullptr && sites.list == nullptr) {
        // A plain reduction over a run of sites (what reduce statements
        // traverse): nothing per site but the site itself.
        const std::int64_t first = sites.first;
        return accumulate_blocks<Combine, VectorValue>(sites.count, t.team,
                                                       [&](auto& acc, std::int64_t i) LATTE_LAMBDA {
                                                         cpu::vector_accumulate<Combine>(acc, kernel(S{first + i}));
                                                       });
      }
    }
    return accumulate_blocks<Combine, VectorValue>(sites.count, t.team, [&](auto& acc, std::int64_t i) LATTE_LAMBDA {
      const S s = site<S>(sites[i], interior);
      if (i < prefetch_end) kernel.prefetch(site<S>(sites[i + distance], interior), destination);
      cpu::vector_accumulate<Combine>(acc, kernel(s));
    });
  }

  // kernel(place) for every group of a halo message's items (the items
  // whose source is one record: the halo kernels move whole vectors where
  // they can, dsl/exec/halo_kernels.hpp), one OpenMP loop over groups (on
  // the calling thread alone for a small message).
  template <class Kernel>
  static void for_each_halo_item(HaloItemsView items, const Kernel& kernel) {
    parallel_for(items.groups, [=](std::int64_t g) LATTE_LAMBDA { kernel(HaloGroupAt<Site>{g}); }, worth_a_team(items));
  }
};

}  // namespace latte::backend
