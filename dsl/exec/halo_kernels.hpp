#pragma once
// The halo work of every statement, written once as kernels over either
// place a backend walks a message in (backends/common/traversal.hpp): a group of
// items that share one source record (the cpu backend: vector sites, all
// lanes at once) or one item (the simt backend and CUDA threads: one lane).
// Backends only walk (for_each_halo_item); what happens to an item is here.
//
//   PackKernel      forward, at the source rank: the shifted operand's value
//                   at the items' source sites, into the payload
//   UnpackKernel    forward, at the destination rank: the payload into the
//                   halo records the shift reads
//   ReturnKernel    backward (a push), at the destination rank: the halo
//                   records the push wrote, into the payload
//   DeliverKernel   backward, at the source rank: the payload into the field
//                   at the items' source sites
//
// A payload keeps each group's items word by word: word w of item i lies at
// HaloItem::position(i, words, w); a whole group (every lane of one record)
// is one record's bytes, so the vector backend moves it with one copy.
// Records and fields keep a site as words of nsimd lanes, lanes fastest
// (lattice/fields/field_view.hpp).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "backends/common/traversal.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/tensors/site_index.hpp"
#include "lattice/tensors/tensor.hpp"
#include "platform/build.hpp"

namespace latte {

// A group's items one after the other, each by the kernel's per-item body.
template <class Kernel, template <class, int> class SiteOf>
LATTE_INLINE void each_item_of_group(const Kernel& kernel, const HaloItemsView& items, HaloGroupAt<SiteOf> at) {
  for (std::int32_t i = items.group_start[at.group]; i < items.group_start[at.group + 1]; ++i)
    kernel(HaloItemAt<SiteOf>{i});
}

template <class E>
struct PackKernel {
  using Real = typename E::real_type;
  static constexpr const char* what = "halo gather";
  E e;
  HaloItemsView items;
  Real* payload;

  // Each source record evaluated once, all lanes (as the statements
  // evaluate it, so the bits equal those on one rank), then stored whole or
  // lane by lane.
  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloGroupAt<SiteOf> at) const {
    using S = SiteOf<Real, E::nsimd>;
    const std::int32_t begin = items.group_start[at.group], end = items.group_start[at.group + 1];
    const auto& value = e.eval(S{items.item[begin].source_outer});
    constexpr int words = static_cast<int>(sizeof(value) / (sizeof(Real) * E::nsimd));
    static_assert(sizeof(value) == sizeof(Real) * words * E::nsimd, "a site value is words x lanes reals");
    Real* out = payload + static_cast<std::int64_t>(begin) * words;
    if (items.whole_group[at.group]) {
      std::memcpy(out, &value, sizeof(value));
      return;
    }
    const Real* lanes = reinterpret_cast<const Real*>(&value);
    const std::int32_t size = end - begin;
    for (std::int32_t k = 0; k < size; ++k) {
      const int lane = items.item[begin + k].source_lane;
      for (int w = 0; w < words; ++w) out[w * size + k] = lanes[w * E::nsimd + lane];
    }
  }

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloItemAt<SiteOf> at) const {
    const HaloItem& item = items.item[at.item];
    const auto value = e.eval(SiteOf<Real, E::nsimd>{item.source_outer, item.source_lane});
    constexpr int words = words_v<std::remove_cvref_t<decltype(value)>>;
    int w = 0;
    for_each_leaf([&](const auto& x) LATTE_LAMBDA { payload[item.position(at.item, words, w++)] = static_cast<Real>(x); },
                  value);
  }
};

template <class Real>
struct UnpackKernel {
  static constexpr const char* what = "halo scatter";
  HaloItemsView items;
  const Real* payload;
  Real* records;
  int words, nsimd;

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloGroupAt<SiteOf> at) const {
    const std::int32_t begin = items.group_start[at.group];
    if (items.whole_group[at.group]) {
      const std::int64_t record = static_cast<std::int64_t>(words) * nsimd;
      std::memcpy(records + items.item[begin].slot * record, payload + static_cast<std::int64_t>(begin) * words,
                  sizeof(Real) * static_cast<std::size_t>(record));
      return;
    }
    each_item_of_group(*this, items, at);
  }

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloItemAt<SiteOf> at) const {
    const HaloItem& item = items.item[at.item];
    Real* out = records + static_cast<std::int64_t>(item.slot) * words * nsimd + item.lane;
    for (int w = 0; w < words; ++w) out[w * nsimd] = payload[item.position(at.item, words, w)];
  }
};

// Only sites on a block face take part in a push's halo, lane by lane: a
// group is its items one after the other.
template <class Real>
struct ReturnKernel {
  static constexpr const char* what = "push's halo gather";
  HaloItemsView items;
  const Real* records;
  Real* payload;
  int words, nsimd;

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloGroupAt<SiteOf> at) const {
    each_item_of_group(*this, items, at);
  }

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloItemAt<SiteOf> at) const {
    const HaloItem& item = items.item[at.item];
    const Real* in = records + static_cast<std::int64_t>(item.slot) * words * nsimd + item.lane;
    for (int w = 0; w < words; ++w) payload[item.position(at.item, words, w)] = in[w * nsimd];
  }
};

// `field` points at the pushed element of outer site 0; a site's record is
// record_stride reals.
template <class Real>
struct DeliverKernel {
  static constexpr const char* what = "push's halo delivery";
  HaloItemsView items;
  const Real* payload;
  Real* field;
  int record_stride, words, nsimd;

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloGroupAt<SiteOf> at) const {
    each_item_of_group(*this, items, at);
  }

  template <template <class, int> class SiteOf>
  LATTE_INLINE void operator()(HaloItemAt<SiteOf> at) const {
    const HaloItem& item = items.item[at.item];
    Real* out = field + static_cast<std::int64_t>(item.source_outer) * record_stride + item.source_lane;
    for (int w = 0; w < words; ++w) out[w * nsimd] = payload[item.position(at.item, words, w)];
  }
};

}  // namespace latte
