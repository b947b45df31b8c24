#pragma once
// YARDSTICK, not library code: the memory traffic of the Wilson hopping term
// without its arithmetic. Each outer site reads what Dslash reads (the 8
// neighbour spinors through the same shift tables, the 4 links at the site
// and the 4 at the backward neighbours), adds them up leaf by leaf and
// streams one spinor out, with the software prefetch the CPU backend issues.
// Its time is what the memory system needs for Dslash's access pattern on
// this layout: a Dslash cannot run faster, so DSL time / this time says how
// much of the gap to STREAM is arithmetic and how much is the pattern.

#include <cstdint>

#include "backends/common/parallel.hpp"
#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "lattice/gauge_field.hpp"

namespace latte::bench {

template <class R, class W>
void dslash_access_pattern(Lattice<Spinor<R>, W>& out, const GaugeField<R, W>& gauge,
                           const Lattice<Spinor<R>, W>& in) {
  constexpr int N = Lattice<Spinor<R>, W>::nsimd;
  using V = backend::cpu::vector_t<R, N>;
  using Ops = backend::cpu::VectorOps;
  constexpr int spinor_words = words_v<Spinor<R>>, link_words = words_v<ColourMatrix<R>>;
  const SiteLayout& layout = in.layout();
  const DisplacementTable* tables[4][2];
  for (int mu = 0; mu < 4; ++mu) {
    tables[mu][0] = &layout.displacement(unit_displacement(4, mu, +1));
    tables[mu][1] = &layout.displacement(unit_displacement(4, mu, -1));
  }
  const V* psi = reinterpret_cast<const V*>(in.host_view().data);
  V* chi = reinterpret_cast<V*>(out.host_view(Access::write).data);
  const V* U[4];
  for (int mu = 0; mu < 4; ++mu) U[mu] = reinterpret_cast<const V*>(gauge[mu].host_view().data);

  const std::int64_t outer = layout.outer_volume();
  parallel_for(outer, [&](std::int64_t o) {
    if (const std::int64_t next = o + 1; next < outer) {
      for (int mu = 0; mu < 4; ++mu) {
        const std::int64_t forward = tables[mu][0]->neighbour[next], backward = tables[mu][1]->neighbour[next];
        Ops::prefetch(psi + forward * spinor_words, sizeof(V) * spinor_words);
        Ops::prefetch(psi + backward * spinor_words, sizeof(V) * spinor_words);
        Ops::prefetch(U[mu] + next * link_words, sizeof(V) * link_words);
        Ops::prefetch(U[mu] + backward * link_words, sizeof(V) * link_words);
      }
    }
    V acc[spinor_words];
    for (int k = 0; k < spinor_words; ++k) acc[k] = V(R(0));
    for (int mu = 0; mu < 4; ++mu) {
      const V* forward = psi + tables[mu][0]->neighbour[o] * spinor_words;
      const V* backward = psi + tables[mu][1]->neighbour[o] * spinor_words;
      const V* link = U[mu] + o * link_words;
      const V* backward_link = U[mu] + tables[mu][1]->neighbour[o] * link_words;
      for (int k = 0; k < spinor_words; ++k) acc[k] = acc[k] + forward[k] + backward[k];
      for (int k = 0; k < link_words; ++k) acc[k] = acc[k] + link[k] + backward_link[k];
    }
    for (int k = 0; k < spinor_words; ++k) Ops::stream(chi[o * spinor_words + k], acc[k]);
  });
}

}  // namespace latte::bench
