#pragma once
// YARDSTICK, not library code: the memory traffic of the Wilson hopping term
// without its arithmetic. Each outer site reads what Dslash reads (the 8
// neighbour spinors through the same shift tables, the 4 links at the site
// and the 4 at the backward neighbours), adds them up leaf by leaf and
// streams one spinor out, with the software prefetch the CPU backend issues.
// Its time is what the memory system needs for Dslash's access pattern on
// this layout: a Dslash cannot run faster, so DSL time / this time says how
// much of the gap to STREAM is arithmetic and how much is the pattern.
//
// With Neighbours = false every read is at the site itself (psi(x) eight
// times, each link twice): the same loads and the same arrays, streamed in
// order with no stencil. Its time against the pattern's says how much the
// neighbour structure itself costs, beyond the bytes and the instructions.
//
// On a batch of spinors (MultiSpinor) it reads each link once per site for
// all right-hand sides, as the batch Dslash does, and visits the outer sites
// in the order the CPU backend gives that statement (tiled, for records of
// 4 KB and more), with the prefetches of the batch lowering: the ceiling of
// the batch Dslash on this layout.

#include <cstdint>

#include "backends/cpu/cpu_backend.hpp"
#include "bench/dslash_operands.hpp"
#include "platform/parallel.hpp"

namespace latte::bench {

template <bool Neighbours = true, class R, class W, class SpinorType>
void dslash_access_pattern(Lattice<SpinorType, W>& out, const GaugeField<R, W>& gauge,
                           const Lattice<SpinorType, W>& in) {
  const DslashOperands<R, W, SpinorType> d(out, gauge, in);
  using V = typename DslashOperands<R, W, SpinorType>::V;
  using Ops = backend::cpu::VectorOps;
  constexpr int spinor_words = words_v<SpinorType>, link_words = words_v<ColourMatrix<R>>;
  constexpr int chunk_words = words_v<Spinor<R>>;
  const std::int32_t* order = sizeof(typename DslashOperands<R, W, SpinorType>::Record) >=
                                      backend::cpu::Tuning::tiled_above_site_bytes
                                  ? in.layout().tiled_order()
                                  : nullptr;
  const auto site = [order](std::int64_t i) -> std::int64_t { return order ? order[i] : i; };
  // The records as arrays of vectors.
  auto leaves = [](const auto* record) { return reinterpret_cast<const V*>(record); };
  parallel_for(d.outer, [&](std::int64_t i) {
    const std::int64_t o = site(i);
    if constexpr (Neighbours) {
      if (i + 1 < d.outer) d.prefetch(site(i + 1));
    }
    // One spinor of the record at a time (a batch holds several), as the
    // batch Dslash evaluates them; its links are read again for each.
    constexpr int chunks = spinor_words / chunk_words;
    for (int c = 0; c < chunks; ++c) {
      if constexpr (Neighbours && chunks > 1) {
        if (d.from_memory && c + 1 < chunks) d.prefetch_spinor(o, c + 1);
      }
      V acc[chunk_words];
      for (int k = 0; k < chunk_words; ++k) acc[k] = V(R(0));
      for (int mu = 0; mu < 4; ++mu) {
        const std::int64_t up = Neighbours ? d.tables[mu][0]->neighbour[o] : o;
        const std::int64_t down = Neighbours ? d.tables[mu][1]->neighbour[o] : o;
        const V* forward = leaves(d.psi + up) + c * chunk_words;
        const V* backward = leaves(d.psi + down) + c * chunk_words;
        const V* link = leaves(d.U[mu] + o);
        const V* backward_link = leaves(d.U[mu] + down);
        for (int k = 0; k < chunk_words; ++k) acc[k] = acc[k] + forward[k] + backward[k];
        for (int k = 0; k < link_words; ++k) acc[k] = acc[k] + link[k] + backward_link[k];
      }
      V* target = reinterpret_cast<V*>(d.chi + o) + c * chunk_words;
      for (int k = 0; k < chunk_words; ++k) Ops::stream(target[k], acc[k]);
    }
  });
}

}  // namespace latte::bench
