#pragma once
// The CPU lowering: one OpenMP loop over outer sites; each iteration evaluates
// the whole statement on SIMD vectors (all lanes at once) and writes the
// destination once. Reductions keep vector partial sums per block and combine
// lanes only at the end of a block.

#include <cstdint>
#include <vector>

#include "backends/common/parallel.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "lattice/field_view.hpp"
#include "lattice/memory_side.hpp"
#include "lattice/site_index.hpp"

namespace latte::backend {

struct Cpu {
  static constexpr const char* name = "cpu";
  static constexpr MemorySide memory_side = MemorySide::host;
  static void synchronize() {}  // statements are done when assign returns

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

  template <class T, int N, class E, class Op>
  static void assign(const FieldView<T, N>& dst, const E& e, Op) {
    using S = Site<real_of_t<T>, N>;
    const std::int64_t outer = dst.site_layout->outer_volume();
    const std::int64_t prefetch_end = worth_prefetching<E>(dst) ? outer - prefetch_distance : 0;
    // Overwriting a field larger than the caches: stream the stores (and do
    // not prefetch the lines they replace). A smaller result stays in cache
    // for the next statement. One loop body serves both cases.
    const bool streaming = field_bytes(dst) > prefetch_above_bytes && !Op::reads_destination;
    parallel_for(outer, [=](std::int64_t o) LATTE_LAMBDA {
      const S s{o};
      if (o < prefetch_end) {
        e.prefetch(S{o + prefetch_distance});
        if (!streaming) dst.prefetch(S{o + prefetch_distance});
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

  // dst op= e, and the reduction of r (which may read dst at the same site)
  // over the sites just written, block by block as in reduce.
  template <class Combine, class T, int N, class E, class Op, class R>
  static auto assign_reduce(const FieldView<T, N>& dst, const E& e, Op, const R& r) {
    using S = Site<real_of_t<T>, N>;
    using VectorValue = std::remove_cvref_t<decltype(r.eval(S{0}))>;
    using Result = rebind_t<VectorValue, double>;
    const std::int64_t outer = dst.site_layout->outer_volume();
    const std::int64_t prefetch_end = worth_prefetching<E>(dst) ? outer - prefetch_distance : 0;
    std::vector<Result> partial(reduction_blocks(outer));
    parallel_for(static_cast<std::int64_t>(partial.size()), [&](std::int64_t b) LATTE_LAMBDA {
      const std::int64_t begin = b * reduction_block_sites;
      const std::int64_t end = begin + reduction_block_sites < outer ? begin + reduction_block_sites : outer;
      VectorValue acc;
      for (std::int64_t o = begin; o < end; ++o) {
        const S s{o};
        if (o < prefetch_end) {
          e.prefetch(S{o + prefetch_distance});
          dst.prefetch(S{o + prefetch_distance});
        }
        if constexpr (Op::reads_destination) dst.store(s, Op::apply(dst.load(s), e.eval(s)));
        else dst.store(s, e.eval(s));
        acc = o == begin ? r.eval(s) : combine<Combine>(acc, r.eval(s));
      }
      partial[b] = transform_leaves<Result>([](const auto& x) LATTE_LAMBDA { return cpu::VectorOps::horizontal<Combine>(x); }, acc);
    });
    return combine_blocks<Combine>(partial);
  }

  template <class Combine, class E>
  static auto reduce(const E& e) {
    using S = Site<typename E::real_type, E::nsimd>;
    using VectorValue = std::remove_cvref_t<decltype(e.eval(S{0}))>;
    using Result = rebind_t<VectorValue, double>;
    const std::int64_t outer = e.layout()->outer_volume();
    std::vector<Result> partial(reduction_blocks(outer));
    parallel_for(static_cast<std::int64_t>(partial.size()), [&](std::int64_t b) LATTE_LAMBDA {
      const std::int64_t begin = b * reduction_block_sites;
      const std::int64_t end = begin + reduction_block_sites < outer ? begin + reduction_block_sites : outer;
      VectorValue acc = e.eval(S{begin});
      for (std::int64_t o = begin + 1; o < end; ++o) acc = combine<Combine>(acc, e.eval(S{o}));
      partial[b] = transform_leaves<Result>([](const auto& x) LATTE_LAMBDA { return cpu::VectorOps::horizontal<Combine>(x); }, acc);
    });
    return combine_blocks<Combine>(partial);
  }
};

}  // namespace latte::backend
