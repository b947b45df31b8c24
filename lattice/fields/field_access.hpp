#pragma once
// What a kernel holds of a field: one pointer. FieldAccess reads and writes
// a field's sites at a VectorSite (all lanes) or a LaneSite (one lane); it is
// the prepared form of a field leaf (dsl/exec/leaf_evaluators.hpp) and the base of the
// host-side FieldView (lattice/fields/field_view.hpp), which adds what only the
// host needs (layout, storage, element offset).
//
// Memory image: outer site o holds words_v<T> reals per lane, each as Nsimd
// consecutive lanes, so real k of lane l lives at
// data[(o * RecordWords + k) * Nsimd + l]. The vector path reads a whole
// rebind_t<T, batch> at once; the per-lane path reads with stride Nsimd,
// which on a GPU is a coalesced access across lanes. A view of one element
// of a larger record (element<i>(f) of a population field) has T the
// element and RecordWords the whole record's length, so loads and
// prefetches touch only that element.

#include <cstdint>
#include <type_traits>

#include "lattice/tensors/site_index.hpp"
#include "lattice/tensors/tensor.hpp"
#include "platform/build.hpp"

namespace latte {

template <class T, int Nsimd, int RecordWords = words_v<T>>
struct FieldAccess {
  using value_type = T;
  using real_type = real_of_t<T>;
  static constexpr int nsimd = Nsimd;
  static constexpr int site_words = words_v<T>;
  static constexpr int record_stride = RecordWords * Nsimd;  // reals from one outer site to the next
  static constexpr std::size_t bytes_read_per_site = sizeof(real_type) * site_words * Nsimd;

  real_type* data;

  template <class S>
  LATTE_INLINE decltype(auto) eval(const S& s) const { return load(s); }

  // Bring this field's record at s towards the cache (vector path only; the
  // per-lane path runs on GPUs, where latency is hidden by other threads).
  template <class S>
  LATTE_INLINE void prefetch(const S& s) const {
    if constexpr (S::is_vector)
      S::prefetch(data + s.outer * record_stride, sizeof(real_type) * site_words * Nsimd);
  }

  // A reference, not a copy: operators then read the leaves they need
  // straight from memory, and a large site (a 1.5 KB spinor) is never
  // staged through the stack.
  template <class V, class Ops>
  LATTE_INLINE const rebind_t<T, V>& load(const VectorSite<V, real_type, Ops>& s) const {
    using Site = rebind_t<T, V>;
    static_assert(sizeof(Site) == sizeof(real_type) * site_words * Nsimd,
                  "vector type does not match the field's SIMD layout");
    return *reinterpret_cast<const Site*>(data + s.outer * record_stride);
  }
  // Leaf by leaf, so that a value still in registers goes straight to memory
  // (a whole-struct assignment of a large site becomes a memcpy from the stack).
  template <class V, class Ops, class Value>
  LATTE_INLINE void store(const VectorSite<V, real_type, Ops>& s, const Value& value) const {
    using Site = rebind_t<T, V>;
    Site& target = *reinterpret_cast<Site*>(data + s.outer * record_stride);
    if constexpr (std::is_same_v<Value, Site>) {
      for_each_leaf([](V& out, const V& in) LATTE_LAMBDA { out = in; }, target, value);
    } else {
      const Site converted(value);  // e.g. a real expression stored into a complex field
      for_each_leaf([](V& out, const V& in) LATTE_LAMBDA { out = in; }, target, converted);
    }
  }

  // The same, bypassing the caches (see VectorOps::stream).
  template <class V, class Ops, class Value>
  LATTE_INLINE void stream(const VectorSite<V, real_type, Ops>& s, const Value& value) const {
    using Site = rebind_t<T, V>;
    Site& target = *reinterpret_cast<Site*>(data + s.outer * record_stride);
    const Site& converted = value;  // a temporary only when Value is not Site already
    for_each_leaf([](V& out, const V& in) LATTE_LAMBDA { VectorSite<V, real_type, Ops>::stream(out, in); }, target,
                  converted);
  }

  LATTE_INLINE T load(const LaneSite<real_type>& s) const {
    const real_type* base = data + s.outer * record_stride + s.lane;
    T value;
    int k = 0;
    for_each_leaf([&](real_type& x) LATTE_LAMBDA { x = base[(k++) * Nsimd]; }, value);
    return value;
  }
  LATTE_INLINE void store(const LaneSite<real_type>& s, const T& value) const {
    real_type* base = data + s.outer * record_stride + s.lane;
    int k = 0;
    for_each_leaf([&](const real_type& x) LATTE_LAMBDA { base[(k++) * Nsimd] = x; }, value);
  }
};

}  // namespace latte
