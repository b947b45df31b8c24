#pragma once
// The per-lane lowering of a statement: what one (outer site, lane) thread
// does. The simt backend runs these bodies in OpenMP loops on the CPU; the
// CUDA backend runs the very same bodies, one GPU thread per (site, lane).
// Keeping them here, free of any loop or launch, is what lets the CPU test
// suite exercise the GPU's evaluation logic.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "backends/common/push_targets.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "backends/config.hpp"
#include "lattice/field_view.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/site_index.hpp"

namespace latte::lane {

// dst(o, l) op= e(o, l)
template <class T, int N, class E, class Op>
LATTE_INLINE void assign(const FieldView<T, N>& dst, const E& e, Op, std::int64_t outer, int lane) {
  using Real = real_of_t<T>;
  const LaneSite<Real> s{outer, lane};
  if constexpr (Op::reads_destination) dst.store(s, Op::apply(dst.load(s), e.eval(s)));
  else dst.store(s, Op::apply(T{}, e.eval(s)));
}

// Add e(o, l) to the accumulators a (one per leaf of e's value).
template <class Combine, class A, class E>
LATTE_INLINE void accumulate_site(A& a, const E& e, std::int64_t outer, int lane) {
  accumulate<Combine>(a, e.eval(LaneSite<typename E::real_type>{outer, lane}));
}

// The accumulator type of e's values.
template <class Combine, class E>
using accumulator_of = accumulator_t<Combine, std::remove_cvref_t<decltype(std::declval<const E&>().eval(
                                                  LaneSite<typename E::real_type>{0, 0}))>>;

// Reduce block b of the sites into a.
template <class Combine, class A, class E>
LATTE_INLINE void reduce_block(A& a, const E& e, SiteRange sites, std::int64_t block) {
  const std::int64_t begin = block * reduction_block_sites;
  const std::int64_t end = begin + reduction_block_sites < sites.count ? begin + reduction_block_sites : sites.count;
  for (std::int64_t i = begin; i < end; ++i)
    for (int l = 0; l < E::nsimd; ++l) accumulate_site<Combine>(a, e, sites[i], l);
}

// Assign block b of the sites and reduce r over it, each lane reading back
// the value it has just written.
template <class Combine, class A, class T, int N, class E, class Op, class R>
LATTE_INLINE void assign_reduce_block(A& a, const FieldView<T, N>& dst, const E& e, Op op, const R& r, SiteRange sites,
                                      std::int64_t block) {
  const std::int64_t begin = block * reduction_block_sites;
  const std::int64_t end = begin + reduction_block_sites < sites.count ? begin + reduction_block_sites : sites.count;
  for (std::int64_t i = begin; i < end; ++i)
    for (int l = 0; l < N; ++l) {
      assign(dst, e, op, sites[i], l);
      accumulate_site<Combine>(a, r, sites[i], l);
    }
}

// Halo item i: the value of e at the item's source (outer site, lane), its
// reals where the payload keeps them (HaloItem::position).
template <class E>
LATTE_INLINE void pack_item(const E& e, const HaloItem& item, std::int64_t i, typename E::real_type* payload) {
  using Real = typename E::real_type;
  const auto value = e.eval(LaneSite<Real>{item.source_outer, item.source_lane});
  constexpr int words = words_v<std::remove_cvref_t<decltype(value)>>;
  int w = 0;
  for_each_leaf([&](const auto& x) LATTE_LAMBDA { payload[item.position(i, words, w++)] = static_cast<Real>(x); }, value);
}

// Halo item i into its slot's record: words reals per lane, lanes fastest,
// as a field stores a site (lattice/field_view.hpp).
template <class Real>
LATTE_INLINE void unpack_item(const HaloItem& item, std::int64_t i, const Real* payload, Real* records, int words,
                              int nsimd) {
  Real* out = records + static_cast<std::int64_t>(item.slot) * words * nsimd + item.lane;
  for (int w = 0; w < words; ++w) out[w * nsimd] = payload[item.position(i, words, w)];
}

// dst(x + d_k)[k] = e(x)[k] for every element k (dsl/push.hpp). The whole
// value is computed before the first store: a push may write the very
// locations it reads.
template <class T, int N, class E, int K>
LATTE_INLINE void push(const FieldView<T, N>& dst, const E& e, const PushTargets<real_of_t<T>, K>& to,
                       std::int64_t outer, int lane) {
  using Real = real_of_t<T>;
  constexpr int element_words = words_v<typename T::element_type>;
  const T value = e.eval(LaneSite<Real>{outer, lane});
  for (int k = 0; k < K; ++k) {
    const DisplacementView& t = to.table[k];
    Real* out;
    if (!t.neighbour) {
      out = dst.data + outer * FieldView<T, N>::record_stride + k * element_words * N + lane;
    } else {
      const int p = t.permutation[outer];
      const std::int64_t n = t.neighbour[outer];
      if (p == DisplacementTable::halo_entry) out = to.records[k] + n * element_words * N + lane;
      else out = dst.data + n * FieldView<T, N>::record_stride + k * element_words * N + t.lane_map(p)[lane];
    }
    int w = 0;
    for_each_leaf([&](const Real& x) LATTE_LAMBDA { out[(w++) * N] = x; }, value.v[k]);
  }
}

// The reverse of unpack_item, for a push's halo: the record's (slot, lane)
// into the payload that goes back to the rank that owns the site.
template <class Real>
LATTE_INLINE void return_item(const HaloItem& item, std::int64_t i, const Real* records, Real* payload, int words,
                              int nsimd) {
  const Real* in = records + static_cast<std::int64_t>(item.slot) * words * nsimd + item.lane;
  for (int w = 0; w < words; ++w) payload[item.position(i, words, w)] = in[w * nsimd];
}

// The reverse of pack_item: a returned item into the field at its source
// (outer site, lane). `field` points at the pushed element of outer site 0.
template <class Real>
LATTE_INLINE void deliver_item(const HaloItem& item, std::int64_t i, const Real* payload, Real* field,
                               int record_stride, int words, int nsimd) {
  Real* out = field + static_cast<std::int64_t>(item.source_outer) * record_stride + item.source_lane;
  for (int w = 0; w < words; ++w) out[w * nsimd] = payload[item.position(i, words, w)];
}

}  // namespace latte::lane
