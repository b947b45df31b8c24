#pragma once
// YARDSTICK, not library code: the Wilson hopping term written as the most
// direct per-site loop over the same fields, tables and SIMD types the DSL
// uses, the way one would hand-code it: one spinor accumulator per outer
// site, each of the 8 terms projected, permuted where it crosses a virtual
// node, multiplied by its link and added into the accumulator in place.
// It also does what the DSL's CPU backend does for fields beyond the caches,
// so that the comparison is of the loop bodies alone: software prefetch of
// everything the next outer site reads (8 neighbour spinors, 4 + 4 links)
// and non-temporal stores of the result.
// Conventions as in solvers/qcd/fermions/wilson_dirac.hpp; its result must equal the
// DSL's.

#include <cstdint>

#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "bench/dslash_operands.hpp"
#include "lattice/tensors/gamma.hpp"
#include "platform/parallel.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte::bench {

// acc += reconstruct<Mu, Sign>(h), without forming the full spinor.
template <int Mu, int Sign, class V>
inline __attribute__((always_inline)) void add_reconstructed(Spinor<V>& acc, const HalfSpinor<V>& h) {
  constexpr int k0 = -GammaBlocks::phase[Mu][0] + (Sign < 0 ? 2 : 0);
  constexpr int k1 = -GammaBlocks::phase[Mu][1] + (Sign < 0 ? 2 : 0);
  acc.v[0] = acc.v[0] + h.v[0];
  acc.v[1] = acc.v[1] + h.v[1];
  acc.v[2 + GammaBlocks::column[Mu][0]] = acc.v[2 + GammaBlocks::column[Mu][0]] + times_i_power<k0>(h.v[0]);
  acc.v[2 + GammaBlocks::column[Mu][1]] = acc.v[2 + GammaBlocks::column[Mu][1]] + times_i_power<k1>(h.v[1]);
}

template <class V, class T>
inline __attribute__((always_inline)) void permute_all(T& value, const std::int32_t* map) {
  for_each_leaf([&](V& leaf) LATTE_LAMBDA { leaf = backend::cpu::VectorOps::permute(leaf, map); }, value);
}

template <int Mu, class V>
inline __attribute__((always_inline)) void hop_direction(Spinor<V>& acc, std::int64_t o, const Spinor<V>* psi,
                                                         const ColourMatrix<V>* U, const DisplacementTable& forward,
                                                         const DisplacementTable& backward) {
  {  // (1 - gamma_mu) U_mu(x) psi(x + mu)
    const std::int64_t n = forward.neighbour[o];
    HalfSpinor<V> h = spin_project<Mu, -1>(psi[n]);
    if (const int p = forward.permutation[o]) permute_all<V>(h, forward.lane_map(p));
    add_reconstructed<Mu, -1>(acc, U[o] * h);
  }
  {  // (1 + gamma_mu) U_mu^+(x - mu) psi(x - mu)
    const std::int64_t n = backward.neighbour[o];
    HalfSpinor<V> h = adj_times(U[n], spin_project<Mu, +1>(psi[n]));
    if (const int p = backward.permutation[o]) permute_all<V>(h, backward.lane_map(p));
    add_reconstructed<Mu, +1>(acc, h);
  }
}

template <class R, class W>
void hand_written_dslash(Lattice<Spinor<R>, W>& out, const GaugeField<R, W>& gauge, const Lattice<Spinor<R>, W>& in) {
  const DslashOperands<R, W> d(out, gauge, in);
  using V = typename DslashOperands<R, W>::V;
  using Ops = backend::cpu::VectorOps;
  parallel_for(d.outer, [&](std::int64_t o) {
    d.prefetch(o + 1);
    Spinor<V> acc;
    for_each_leaf([](V& x) LATTE_LAMBDA { x = V(R(0)); }, acc);
    hop_direction<0>(acc, o, d.psi, d.U[0], *d.tables[0][0], *d.tables[0][1]);
    hop_direction<1>(acc, o, d.psi, d.U[1], *d.tables[1][0], *d.tables[1][1]);
    hop_direction<2>(acc, o, d.psi, d.U[2], *d.tables[2][0], *d.tables[2][1]);
    hop_direction<3>(acc, o, d.psi, d.U[3], *d.tables[3][0], *d.tables[3][1]);
    for_each_leaf([](V& target, const V& value) LATTE_LAMBDA { Ops::stream(target, value); }, d.chi[o], acc);
  });
}

}  // namespace latte::bench
