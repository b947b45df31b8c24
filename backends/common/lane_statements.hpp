#pragma once
// The per-lane bodies of the backends' patterns: what one (outer site, lane)
// thread does in a reduction and in halo work. The simt backend runs them in
// OpenMP loops on the CPU; the CUDA backend runs the very same bodies, one
// GPU thread per (site, lane). The statements' kernels themselves are
// written once for both site types (dsl/exec/statement_kernels.hpp).

#include <cstdint>
#include <type_traits>
#include <utility>

#include "backends/common/reduction_blocks.hpp"
#include "backends/config.hpp"
#include "lattice/field_view.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/site_index.hpp"

namespace latte::lane {

// The accumulator type of a reduction kernel's values (kernel(site):
// dsl/exec/statement_kernels.hpp).
template <class Combine, class Kernel>
using accumulator_of = accumulator_t<Combine, std::remove_cvref_t<decltype(std::declval<const Kernel&>()(
                                                  LaneSite<typename Kernel::real_type>{0, 0}))>>;

// Add kernel(o, l) to the accumulators a (one per leaf of its value).
template <class Combine, class A, class Kernel>
LATTE_INLINE void accumulate_site(A& a, const Kernel& kernel, std::int64_t outer, int lane) {
  accumulate<Combine>(a, kernel(LaneSite<typename Kernel::real_type>{outer, lane}));
}

// Reduce block b of the sites into a.
template <class Combine, class A, class Kernel>
LATTE_INLINE void reduce_block(A& a, const Kernel& kernel, SiteRange sites, std::int64_t block) {
  const std::int64_t begin = block * reduction_block_sites;
  const std::int64_t end = begin + reduction_block_sites < sites.count ? begin + reduction_block_sites : sites.count;
  for (std::int64_t i = begin; i < end; ++i)
    for (int l = 0; l < Kernel::nsimd; ++l) accumulate_site<Combine>(a, kernel, sites[i], l);
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
