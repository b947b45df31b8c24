#pragma once
// YARDSTICK support, not library code: the raw pointers and shift tables a
// per-site Dslash loop over Latte's fields works on, and the prefetch the
// CPU backend issues for a Dslash statement (everything outer site `next`
// reads: 8 neighbour spinors, 4 links there and 4 at the backward
// neighbours). Shared by the hand-written and access-pattern yardsticks so
// that both move memory the way the DSL does. SpinorType is a spinor or a
// batch of them (MultiSpinor): one record per outer site either way.

#include <cstdint>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte::bench {

template <class R, class W, class SpinorType = Spinor<R>>
struct DslashOperands {
  static constexpr int nsimd = Lattice<SpinorType, W>::nsimd;
  using V = backend::cpu::vector_t<R, nsimd>;
  using Record = rebind_t<SpinorType, V>;

  const DisplacementTable* tables[4][2];  // [mu][0]: x + mu^, [mu][1]: x - mu^
  const Record* psi;
  Record* chi;
  const ColourMatrix<V>* U[4];
  std::int64_t outer;
  bool from_memory;  // a batch beyond the caches: prefetched as below

  DslashOperands(Lattice<SpinorType, W>& out, const GaugeField<R, W>& gauge, const Lattice<SpinorType, W>& in) {
    const SiteLayout& layout = in.layout();
    for (int mu = 0; mu < 4; ++mu) {
      tables[mu][0] = &layout.displacement(unit_displacement(4, mu, +1));
      tables[mu][1] = &layout.displacement(unit_displacement(4, mu, -1));
      U[mu] = reinterpret_cast<const ColourMatrix<V>*>(gauge[mu].host_view().data);
    }
    psi = reinterpret_cast<const Record*>(in.host_view().data);
    chi = reinterpret_cast<Record*>(out.host_view(Access::write).data);
    outer = layout.outer_volume();
    from_memory = sizeof(Record) * static_cast<std::size_t>(outer) > backend::cpu::Tuning::batch_from_memory_above_bytes;
  }

  // Beyond the caches a batch's first spinor goes to the first-level cache
  // and the others to the second, and prefetch_spinor(o, c) brings spinor c
  // of site o's neighbours (and the links again) to the first level, as the
  // batch lowering does (RhsLoop, dsl/expr/batch_lowering.hpp).
  LATTE_INLINE void prefetch(std::int64_t next) const {
    using Ops = backend::cpu::VectorOps;
    constexpr std::size_t first = sizeof(Spinor<V>), rest = sizeof(Record) - sizeof(Spinor<V>);
    if (next >= outer) return;
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t forward = tables[mu][0]->neighbour[next], backward = tables[mu][1]->neighbour[next];
      for (const std::int64_t n : {forward, backward}) {
        const char* record = reinterpret_cast<const char*>(psi + n);
        Ops::prefetch(record, first);
        if constexpr (rest > 0) {
          if (from_memory) Ops::ToSecondLevel::prefetch(record + first, rest);
          else Ops::prefetch(record + first, rest);
        }
      }
      Ops::prefetch(U[mu] + next, sizeof(ColourMatrix<V>));
      Ops::prefetch(U[mu] + backward, sizeof(ColourMatrix<V>));
    }
  }
  LATTE_INLINE void prefetch_spinor(std::int64_t o, int c) const {
    using Ops = backend::cpu::VectorOps;
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t forward = tables[mu][0]->neighbour[o], backward = tables[mu][1]->neighbour[o];
      Ops::prefetch(reinterpret_cast<const Spinor<V>*>(psi + forward) + c, sizeof(Spinor<V>));
      Ops::prefetch(reinterpret_cast<const Spinor<V>*>(psi + backward) + c, sizeof(Spinor<V>));
      Ops::prefetch(U[mu] + o, sizeof(ColourMatrix<V>));
      Ops::prefetch(U[mu] + backward, sizeof(ColourMatrix<V>));
    }
  }
};

}  // namespace latte::bench
