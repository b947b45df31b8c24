#pragma once
// YARDSTICK support, not library code: the raw pointers and shift tables a
// per-site Dslash loop over Latte's fields works on, and the prefetch the
// CPU backend issues for a Dslash statement (everything outer site `next`
// reads: 8 neighbour spinors, 4 links there and 4 at the backward
// neighbours). Shared by the hand-written and access-pattern yardsticks so
// that both move memory the way the DSL does.

#include <cstdint>

#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "lattice/gauge_field.hpp"

namespace latte::bench {

template <class R, class W>
struct DslashOperands {
  static constexpr int nsimd = Lattice<Spinor<R>, W>::nsimd;
  using V = backend::cpu::vector_t<R, nsimd>;

  const DisplacementTable* tables[4][2];  // [mu][0]: x + mu^, [mu][1]: x - mu^
  const Spinor<V>* psi;
  Spinor<V>* chi;
  const ColourMatrix<V>* U[4];
  std::int64_t outer;

  DslashOperands(Lattice<Spinor<R>, W>& out, const GaugeField<R, W>& gauge, const Lattice<Spinor<R>, W>& in) {
    const SiteLayout& layout = in.layout();
    for (int mu = 0; mu < 4; ++mu) {
      tables[mu][0] = &layout.displacement(unit_displacement(4, mu, +1));
      tables[mu][1] = &layout.displacement(unit_displacement(4, mu, -1));
      U[mu] = reinterpret_cast<const ColourMatrix<V>*>(gauge[mu].host_view().data);
    }
    psi = reinterpret_cast<const Spinor<V>*>(in.host_view().data);
    chi = reinterpret_cast<Spinor<V>*>(out.host_view(Access::write).data);
    outer = layout.outer_volume();
  }

  LATTE_INLINE void prefetch(std::int64_t next) const {
    using Ops = backend::cpu::VectorOps;
    if (next >= outer) return;
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t forward = tables[mu][0]->neighbour[next], backward = tables[mu][1]->neighbour[next];
      Ops::prefetch(psi + forward, sizeof(Spinor<V>));
      Ops::prefetch(psi + backward, sizeof(Spinor<V>));
      Ops::prefetch(U[mu] + next, sizeof(ColourMatrix<V>));
      Ops::prefetch(U[mu] + backward, sizeof(ColourMatrix<V>));
    }
  }
};

}  // namespace latte::bench
