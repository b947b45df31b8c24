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

#include <cstdint>

#include "backends/common/parallel.hpp"
#include "bench/dslash_operands.hpp"

namespace latte::bench {

template <bool Neighbours = true, class R, class W>
void dslash_access_pattern(Lattice<Spinor<R>, W>& out, const GaugeField<R, W>& gauge,
                           const Lattice<Spinor<R>, W>& in) {
  const DslashOperands<R, W> d(out, gauge, in);
  using V = typename DslashOperands<R, W>::V;
  using Ops = backend::cpu::VectorOps;
  constexpr int spinor_words = words_v<Spinor<R>>, link_words = words_v<ColourMatrix<R>>;
  // The records as arrays of vectors.
  auto leaves = [](const auto* record) { return reinterpret_cast<const V*>(record); };
  parallel_for(d.outer, [&](std::int64_t o) {
    if constexpr (Neighbours) d.prefetch(o + 1);
    V acc[spinor_words];
    for (int k = 0; k < spinor_words; ++k) acc[k] = V(R(0));
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t up = Neighbours ? d.tables[mu][0]->neighbour[o] : o;
      const std::int64_t down = Neighbours ? d.tables[mu][1]->neighbour[o] : o;
      const V* forward = leaves(d.psi + up);
      const V* backward = leaves(d.psi + down);
      const V* link = leaves(d.U[mu] + o);
      const V* backward_link = leaves(d.U[mu] + down);
      for (int k = 0; k < spinor_words; ++k) acc[k] = acc[k] + forward[k] + backward[k];
      for (int k = 0; k < link_words; ++k) acc[k] = acc[k] + link[k] + backward_link[k];
    }
    V* target = reinterpret_cast<V*>(d.chi + o);
    for (int k = 0; k < spinor_words; ++k) Ops::stream(target[k], acc[k]);
  });
}

}  // namespace latte::bench
