#pragma once
// The CPU lowering: one OpenMP loop over outer sites; each iteration evaluates
// the whole statement on SIMD vectors (all lanes at once) and writes the
// destination once. Reductions keep vector accumulators per block and merge
// lanes only at the end of a block. The contract every backend meets is
// written in backends/backend_contract.hpp.

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "backends/common/host_push_halo.hpp"
#include "backends/common/host_statement_timer.hpp"
#include "backends/common/lane_statements.hpp"
#include "backends/common/parallel.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "backends/cpu/vector_accumulators.hpp"
#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "lattice/field_view.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/memory_side.hpp"
#include "lattice/site_index.hpp"

namespace latte::backend {

struct Cpu {
  static constexpr const char* name = "cpu";
  // The statement profile's clock and STREAM reference (dsl/statement_profile.hpp).
  using StatementTimer = HostStatementTimer;
  static double stream_triad_gbytes_per_s() { return host_stream_triad_gbytes_per_s(); }
  static constexpr MemorySide memory_side = MemorySide::host;
  static void synchronize() {}  // statements are done when assign returns
  // Halo work is done when pack and unpack return; nothing to order.
  static void halo_begin() {}
  static void halo_staged() {}
  static void halo_end() {}

  // Software prefetch, one outer site ahead, of everything a statement reads
  // there (through its shifts) and the destination it writes. It pays off
  // when the fields stream from memory and a site takes long: the hardware
  // prefetchers then fall behind the many streams of a stencil (Dslash at
  // 24^4: 1.6x; at 8^4 with flushed caches 0.24 -> 0.39 of STREAM) and cost
  // nothing measurable when the fields sit in cache (8^4 warm: 46 against
  // 42 GFLOPS). Statements that read little per site (lattice Boltzmann,
  // BLAS-1) keep up without it and lose up to 10% to the extra instructions
  // (D2Q9 at 192^2), so they prefetch only beyond the caches of two cores.
  // Measured 2026-11-22 on the 2-core AVX-512 VM, 2 threads.
  static constexpr std::size_t prefetch_above_bytes = std::size_t(4) << 20;
  static constexpr std::size_t heavy_site_bytes = std::size_t(8) << 10;  // Dslash: 10.8 KB (single) per outer site
  static constexpr std::size_t heavy_prefetch_above_bytes = std::size_t(256) << 10;
  // Outer sites ahead to prefetch. Measured on D3Q19 (the cheapest site per
  // byte of the stencils here): 1 and 2 equal, 4 worse.
  static constexpr std::int64_t prefetch_distance = 1;
  // A push statement's site is dearer (a whole collision, and each element
  // stored through a table): its misses need more lead. In-place D3Q19
  // double at 128^3, bench_lbm, 2 threads, same binary: 1 site ahead
  // 0.66/0.64 of STREAM, 2 ahead 0.73, 3 ahead 0.75/0.76, 5 ahead 0.74
  // (single 0.81 -> 0.86). Measured 2026-11-25 on the 2-core AVX-512 VM.
  static constexpr std::int64_t push_prefetch_distance = 3;

  // Outer sites of at least this many bytes of result go in tiled order
  // (lattice/tiled_order.hpp): batches of spinors (12 in double at AVX-512:
  // 18 KB; 4 in double: 6 KB). One spinor (1.5 KB) showed no gain from it,
  // and reductions keep the storage order their sums are defined in.
  static constexpr std::size_t tiled_above_site_bytes = std::size_t(4) << 10;
  // Beyond this a batch's sites come from memory, not from the last-level
  // cache (32 MiB on the machine measured), and RhsLoop prefetches each
  // right-hand side within the site (dsl/batch_lowering.hpp). At 8^4 with
  // 12 spinors (9.4 MB in double) the fields stay in cache.
  static constexpr std::size_t batch_from_memory_above_bytes = std::size_t(16) << 20;

  template <class T, int N>
  static std::size_t field_bytes(const FieldView<T, N>& dst) {
    return static_cast<std::size_t>(dst.site_layout->outer_volume()) * sizeof(real_of_t<T>) * words_v<T> * N;
  }
  template <class E, class T, int N>
  static bool worth_prefetching(const FieldView<T, N>& dst) {
    return field_bytes(dst) >
           (E::bytes_read_per_site >= heavy_site_bytes ? heavy_prefetch_above_bytes : prefetch_above_bytes);
  }

  template <class Real, int N> using Site = VectorSite<cpu::vector_t<Real, N>, Real, cpu::VectorOps>;

  // Outer site o, marked interior from the destination layout's flags (null
  // on a checkerboard: never interior).
  template <class S>
  LATTE_INLINE static S site(std::int64_t o, const std::uint8_t* interior, bool from_memory = false) {
    return S{o, interior != nullptr && interior[o] != 0, from_memory};
  }

  template <class T, int N, class E, class Op>
  static void assign(const FieldView<T, N>& dst, const E& e, Op, SiteRange sites) {
    using S = Site<real_of_t<T>, N>;
    const std::int64_t count = sites.count;
    const std::int64_t prefetch_end = worth_prefetching<E>(dst) ? count - prefetch_distance : 0;
    // Overwriting a field larger than the caches: stream the stores (and do
    // not prefetch the lines they replace). A smaller result stays in cache
    // for the next statement. One loop body serves both cases.
    const bool streaming = field_bytes(dst) > prefetch_above_bytes && !Op::reads_destination;
    const bool from_memory = prefetch_end > 0 && field_bytes(dst) > batch_from_memory_above_bytes;
    const std::uint8_t* interior = dst.site_layout->interior_sites();
    if (sizeof(real_of_t<T>) * words_v<T> * N >= tiled_above_site_bytes) {
      if (sites.tiled != nullptr) sites.list = sites.tiled;  // the interior or surface under halos
      else if (sites.list == nullptr && count == dst.site_layout->outer_volume())
        sites.list = dst.site_layout->tiled_order();  // null where there is nothing to tile
    }
    parallel_for(count, [=](std::int64_t i) LATTE_LAMBDA {
      const S s = site<S>(sites[i], interior, from_memory);
      if (i < prefetch_end) {
        const S next = site<S>(sites[i + prefetch_distance], interior, from_memory);
        e.prefetch(next);
        if (!streaming) dst.prefetch(next);
      }
      if constexpr (Op::reads_destination) {
        dst.store(s, Op::apply(dst.load(s), e.eval(s)));
      } else {
        const auto& value = e.eval(s);
        if (streaming) dst.stream(s, value);
        else dst.store(s, value);
      }
    });
  }

  // dst(x + d_k)[k] = e(x)[k] (dsl/push.hpp): the whole value of an outer
  // site first, then each element to its target record. An element that
  // crosses a virtual-node boundary is stored with the inverse of the lane
  // permutation a shift along d_k applies; one bound for another block goes
  // to the push's halo records, all lanes, as a shift's halo slot holds them.
  template <class T, int N, class E, int K>
  static void push(const FieldView<T, N>& dst, const E& e, const PushTargets<real_of_t<T>, K>& to, SiteRange sites) {
    using Real = real_of_t<T>;
    using S = Site<Real, N>;
    using V = cpu::vector_t<Real, N>;
    using Value = rebind_t<T, V>;
    using ElementValue = rebind_t<typename T::element_type, V>;
    constexpr int element_words = words_v<typename T::element_type>;
    constexpr std::int64_t record_stride = FieldView<T, N>::record_stride;
    const std::int64_t count = sites.count;
    const std::int64_t prefetch_end = worth_prefetching<E>(dst) ? count - push_prefetch_distance : 0;
    const std::uint8_t* interior = dst.site_layout->interior_sites();
    // At an interior site every element's target is a fixed distance from
    // the site's own record when every target table is interior_regular (or
    // the element stays put): one precomputed offset per element, instead
    // of two table reads and two tests per element.
    std::array<std::int64_t, K> interior_target{};
    bool interior_targets_regular = true;
    for (int k = 0; k < K; ++k) {
      const DisplacementView& t = to.table[k];
      if (t.neighbour && !t.interior_regular) interior_targets_regular = false;
      interior_target[k] = (t.neighbour ? t.interior_offset * record_stride : 0) + k * element_words * N;
    }
    if (!interior_targets_regular) interior = nullptr;
    parallel_for(count, [=](std::int64_t i) LATTE_LAMBDA {
      const S s = site<S>(sites[i], interior);
      if (i < prefetch_end) e.prefetch(site<S>(sites[i + push_prefetch_distance], interior));
      const Value value = e.eval(s);
      const auto copy_element = [](const ElementValue& element, Real* out) LATTE_LAMBDA {
        for_each_leaf([](V& o, const V& in) LATTE_LAMBDA { o = in; }, *reinterpret_cast<ElementValue*>(out), element);
      };
      if (s.interior) {
        Real* const record = dst.data + s.outer * record_stride;
        [&]<std::size_t... k>(std::index_sequence<k...>) LATTE_LAMBDA {
          (copy_element(value.v[k], record + interior_target[k]), ...);
        }(std::make_index_sequence<K>{});
        return;
      }
      const auto store_element = [&](auto k) LATTE_LAMBDA {
        const DisplacementView& t = to.table[k];
        ElementValue element = value.v[k];
        Real* out;
        if (!t.neighbour) {
          out = dst.data + s.outer * record_stride + k * element_words * N;
        } else {
          const int p = t.permutation[s.outer];
          const std::int64_t n = t.neighbour[s.outer];
          if (p == DisplacementTable::halo_entry) {
            out = to.records[k] + n * element_words * N;
          } else {
            out = dst.data + n * record_stride + k * element_words * N;
            if (p != 0) {
              const std::int32_t* map = t.lane_map(p);
              alignas(64) std::int32_t inverse[N];
              for (int l = 0; l < N; ++l) inverse[map[l]] = l;
              S::permute(element, inverse);
            }
          }
        }
        copy_element(element, out);
      };
      [&]<std::size_t... k>(std::index_sequence<k...>) LATTE_LAMBDA {
        (store_element(std::integral_constant<int, static_cast<int>(k)>{}), ...);
      }(std::make_index_sequence<K>{});
    });
  }

  // A push's halo records into a payload, and a received payload into the
  // field (lattice/halo_exchange.hpp read backwards). Only sites on a block
  // face take part: per item, lane by lane.
  template <class Real>
  static void return_halo(HaloItemsView items, const void* records, void* payload, int words, int nsimd) {
    host::return_halo<Real>(items, records, payload, words, nsimd);
  }
  template <class Real>
  static void deliver_halo(HaloItemsView items, const void* payload, void* field, int record_stride, int words,
                           int nsimd) {
    host::deliver_halo<Real>(items, payload, field, record_stride, words, nsimd);
  }

  // The accumulators (one per leaf) of a reduction of values of type Value.
  template <class Combine, class Value>
  using vector_accumulators = rebind_t<Value, typename cpu::vector_accumulator<Combine, real_of_t<Value>>::type>;

  // The accumulators of values of type VectorValue over `count` sites, block
  // by block: per_site(acc, i) adds site i's value to the block's vector
  // accumulators, which are then merged lane by lane into the thread's.
  template <class Combine, class VectorValue, class PerSite>
  static auto accumulate_blocks(std::int64_t count, PerSite&& per_site) {
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
        [](Total& total, const Total& mine) { merge_accumulators<Combine>(total, mine); });
  }

  // dst op= e, and the reduction of r (which may read dst at the same site)
  // over the sites just written.
  template <class Combine, class T, int N, class E, class Op, class R>
  static auto assign_reduce(const FieldView<T, N>& dst, const E& e, Op, const R& r, SiteRange sites) {
    using S = Site<real_of_t<T>, N>;
    using VectorValue = std::remove_cvref_t<decltype(r.eval(S{0}))>;
    const std::int64_t prefetch_end = worth_prefetching<E>(dst) ? sites.count - prefetch_distance : 0;
    const std::uint8_t* interior = dst.site_layout->interior_sites();
    return accumulate_blocks<Combine, VectorValue>(sites.count, [&](auto& acc, std::int64_t i) LATTE_LAMBDA {
      const S s = site<S>(sites[i], interior);
      if (i < prefetch_end) {
        const S next = site<S>(sites[i + prefetch_distance], interior);
        e.prefetch(next);
        dst.prefetch(next);
      }
      if constexpr (Op::reads_destination) dst.store(s, Op::apply(dst.load(s), e.eval(s)));
      else dst.store(s, e.eval(s));
      cpu::vector_accumulate<Combine>(acc, r.eval(s));
    });
  }

  template <class Combine, class E>
  static auto reduce(const E& e, SiteRange sites) {
    using S = Site<typename E::real_type, E::nsimd>;
    using VectorValue = std::remove_cvref_t<decltype(e.eval(S{0}))>;
    return accumulate_blocks<Combine, VectorValue>(sites.count, [&](auto& acc, std::int64_t i) LATTE_LAMBDA {
      cpu::vector_accumulate<Combine>(acc, e.eval(S{sites[i]}));
    });
  }

  // Evaluate e at the sources of a message's items: each source record once
  // (all lanes, as the statements do, so the bits are the same as on one
  // rank), then stored whole or lane by lane into the payload.
  template <class E>
  static void pack(const E& e, HaloItemsView items, typename E::real_type* payload) {
    using Real = typename E::real_type;
    using S = Site<Real, E::nsimd>;
    parallel_for(items.groups, [=](std::int64_t g) LATTE_LAMBDA {
      const std::int32_t begin = items.group_start[g], end = items.group_start[g + 1];
      const auto& value = e.eval(S{items.item[begin].source_outer});
      constexpr int words = static_cast<int>(sizeof(value) / (sizeof(Real) * E::nsimd));
      static_assert(sizeof(value) == sizeof(Real) * words * E::nsimd, "a site value is words x lanes reals");
      Real* out = payload + static_cast<std::int64_t>(begin) * words;
      if (items.whole_group[g]) {
        std::memcpy(out, &value, sizeof(value));
        return;
      }
      const Real* lanes = reinterpret_cast<const Real*>(&value);
      const std::int32_t size = end - begin;
      for (std::int32_t k = 0; k < size; ++k) {
        const int lane = items.item[begin + k].source_lane;
        for (int w = 0; w < words; ++w) out[w * size + k] = lanes[w * E::nsimd + lane];
      }
    });
  }

  template <class Real>
  static void unpack(HaloItemsView items, const void* payload, void* records, int words, int nsimd) {
    const Real* in = static_cast<const Real*>(payload);
    Real* out = static_cast<Real*>(records);
    const std::int64_t record = static_cast<std::int64_t>(words) * nsimd;
    parallel_for(items.groups, [=](std::int64_t g) {
      const std::int32_t begin = items.group_start[g], end = items.group_start[g + 1];
      if (items.whole_group[g]) {
        std::memcpy(out + items.item[begin].slot * record, in + static_cast<std::int64_t>(begin) * words,
                    sizeof(Real) * static_cast<std::size_t>(record));
        return;
      }
      for (std::int32_t i = begin; i < end; ++i) lane::unpack_item(items.item[i], i, in, out, words, nsimd);
    });
  }
};

}  // namespace latte::backend
