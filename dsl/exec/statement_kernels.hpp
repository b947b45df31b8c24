#pragma once
// Every statement form, written once as a kernel over either site type: a
// VectorSite (one outer site, all lanes: the cpu backend) or a LaneSite
// (one outer site and lane: the simt backend and CUDA threads). Backends
// only walk sites (backends/common/backend_contract.hpp: for_each_site calls
// kernel(site, streaming) and kernel.prefetch(next, destination);
// reduce_sites accumulates kernel(site)); what happens at a site is here.
//
// Kernels hold evaluators (dsl/exec/prepare.hpp) and FieldAccess
// destinations: trivially copyable, and nothing the host alone needs.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "dsl/expr/map.hpp"
#include "lattice/fields/field_access.hpp"
#include "lattice/tensors/site_index.hpp"
#include "platform/displacement_table.hpp"

namespace latte {

// dst op= e.
template <class T, int N, class E, class Op>
struct AssignKernel {
  using real_type = real_of_t<T>;
  static constexpr int nsimd = N;
  FieldAccess<T, N> dst;
  E e;

  template <class Site>
  LATTE_INLINE void prefetch(const Site& next, bool destination) const {
    e.prefetch(next);
    if (destination) dst.prefetch(next);
  }
  template <class Site>
  LATTE_INLINE void operator()(const Site& s, bool streaming) const {
    if constexpr (Op::reads_destination) {
      dst.store(s, Op::apply(dst.load(s), e.eval(s)));
    } else if constexpr (Site::is_vector) {
      const auto& value = e.eval(s);
      if (streaming) dst.stream(s, value);
      else dst.store(s, value);
    } else {
      dst.store(s, Op::apply(T{}, e.eval(s)));
    }
  }
};

// dst op= e, and the value of r (which may read dst at the same site) for
// the statement's reduction.
template <class T, int N, class E, class Op, class R>
struct AssignReduceKernel {
  using real_type = real_of_t<T>;
  static constexpr int nsimd = N;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site + R::bytes_read_per_site;
  AssignKernel<T, N, E, Op> assign;
  R r;

  template <class Site>
  LATTE_INLINE void prefetch(const Site& next, bool destination) const {
    assign.prefetch(next, destination);
  }
  template <class Site>
  LATTE_INLINE auto operator()(const Site& s) const {
    assign(s, false);
    return r.eval(s);
  }
};

// The value of e, for a reduction.
template <class E>
struct ReduceKernel {
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;
  E e;

  template <class Site> LATTE_INLINE void prefetch(const Site& next, bool) const { e.prefetch(next); }
  template <class Site> LATTE_INLINE auto operator()(const Site& s) const { return e.eval(s); }
};

// Several destinations in one pass (dsl/statements/assign_all.hpp): every value of the
// site is computed before the first store, so an expression may read any
// destination at the site itself.
template <class Destinations, class Expressions> struct MultiAssignKernel;
template <class DestinationIndices, class... D, class ExpressionIndices, class... E>
struct MultiAssignKernel<OperandPack<DestinationIndices, D...>, OperandPack<ExpressionIndices, E...>> {
  using first = std::tuple_element_t<0, std::tuple<D...>>;
  using real_type = typename first::real_type;
  static constexpr int nsimd = first::nsimd;
  static_assert(((std::is_same_v<typename D::real_type, real_type> && D::nsimd == nsimd) && ...),
                "Latte: the destinations of one statement share their precision and SIMD layout");
  OperandPack<DestinationIndices, D...> dst;
  OperandPack<ExpressionIndices, E...> e;

  template <class Site>
  LATTE_INLINE void prefetch(const Site& next, bool destination) const {
    each([&]<std::size_t I>(std::integral_constant<std::size_t, I>) LATTE_LAMBDA {
      slot<I>(e).prefetch(next);
      if (destination) slot<I>(dst).prefetch(next);
    });
  }
  template <class Site>
  LATTE_INLINE void operator()(const Site& s, bool streaming) const {
    store_all(s, streaming, std::index_sequence_for<D...>{});
  }

 private:
  template <class Body>
  LATTE_INLINE static void each(Body&& body) {
    [&]<std::size_t... I>(std::index_sequence<I...>) LATTE_LAMBDA {
      (body(std::integral_constant<std::size_t, I>{}), ...);
    }(std::index_sequence_for<D...>{});
  }
  template <class Site, std::size_t... I>
  LATTE_INLINE void store_all(const Site& s, bool streaming, std::index_sequence<I...>) const {
    // Values in the destinations' own types (one conversion, as a single
    // statement's store makes), all of them before any store.
    const std::tuple<stored_value<I, Site>...> values{stored_value<I, Site>(slot<I>(e).eval(s))...};
    if constexpr (Site::is_vector) {
      if (streaming) {
        (slot<I>(dst).stream(s, std::get<I>(values)), ...);
        return;
      }
    }
    (slot<I>(dst).store(s, std::get<I>(values)), ...);
  }
  template <std::size_t I, class Site>
  using stored_value = rebind_t<typename std::tuple_element_t<I, std::tuple<D...>>::value_type, typename Site::leaf_type>;
};

// dst(x + d_k)[k] = e(x)[k] for every element k (dsl/statements/push.hpp). The whole
// value of a site is computed before its first store: a push may write the
// very locations it reads. A vector site stores an element that crosses a
// virtual-node boundary with the inverse of the lane permutation a shift
// along d_k applies; a lane site stores its lane where shift(f, d_k) would
// read it. One bound for another block goes to the push's halo records.
template <class T, int N, class E, int K>
struct PushKernel {
  using Real = real_of_t<T>;
  using real_type = Real;
  static constexpr int nsimd = N;
  static constexpr int element_words = words_v<typename T::element_type>;
  static constexpr std::int64_t record_stride = FieldAccess<T, N>::record_stride;
  FieldAccess<T, N> dst;
  E e;
  DisplacementView table[K];  // per element; a null neighbour array: the element stays
  Real* records[K];           // per element: the halo records, where its table has a halo
  // At an interior site (traversal with interior flags: only when every
  // target table is interior_regular) every element's target is a fixed
  // distance from the site's own record.
  std::int64_t interior_target[K];

  template <class Site> LATTE_INLINE void prefetch(const Site& next, bool) const { e.prefetch(next); }

  template <class Site>
  LATTE_INLINE void operator()(const Site& s, bool) const {
    if constexpr (Site::is_vector) store_vector(s);
    else store_lane(s);
  }

 private:
  template <class Site>
  LATTE_INLINE void store_vector(const Site& s) const {
    using V = typename Site::leaf_type;
    using Value = rebind_t<T, V>;
    using ElementValue = rebind_t<typename T::element_type, V>;
    const Value value = e.eval(s);
    const auto copy_element = [](const ElementValue& element, Real* out) LATTE_LAMBDA {
      for_each_leaf([](V& o, const V& in) LATTE_LAMBDA { o = in; }, *reinterpret_cast<ElementValue*>(out), element);
    };
    // Most sites are interior; GCC would take the early return for the rare
    // case and lay this path out of line (as for a shift's neighbour,
    // dsl/exec/shift_evaluator.hpp).
    if (s.interior) [[likely]] {
      Real* const record = dst.data + s.outer * record_stride;
      [&]<std::size_t... k>(std::index_sequence<k...>) LATTE_LAMBDA {
        (copy_element(value.v[k], record + interior_target[k]), ...);
      }(std::make_index_sequence<K>{});
      return;
    }
    const auto store_element = [&](auto k) LATTE_LAMBDA {
      const DisplacementView& t = table[k];
      ElementValue element = value.v[k];
      Real* out;
      if (!t.neighbour) {
        out = dst.data + s.outer * record_stride + k * element_words * N;
      } else {
        const int p = t.permutation[s.outer];
        const std::int64_t n = t.neighbour[s.outer];
        if (p == DisplacementTable::halo_entry) {
          out = records[k] + n * element_words * N;
        } else {
          out = dst.data + n * record_stride + k * element_words * N;
          if (p != 0) {
            const std::int32_t* map = t.lane_map(p);
            alignas(64) std::int32_t inverse[N];
            for (int l = 0; l < N; ++l) inverse[map[l]] = l;
            Site::permute(element, inverse);
          }
        }
      }
      copy_element(element, out);
    };
    [&]<std::size_t... k>(std::index_sequence<k...>) LATTE_LAMBDA {
      (store_element(std::integral_constant<int, static_cast<int>(k)>{}), ...);
    }(std::make_index_sequence<K>{});
  }

  template <class Site>
  LATTE_INLINE void store_lane(const Site& s) const {
    const std::int64_t outer = s.outer;
    const int lane = s.lane;
    const T value = e.eval(s);
    for (int k = 0; k < K; ++k) {
      const DisplacementView& t = table[k];
      Real* out;
      if (!t.neighbour) {
        out = dst.data + outer * record_stride + k * element_words * N + lane;
      } else {
        const int p = t.permutation[outer];
        const std::int64_t n = t.neighbour[outer];
        if (p == DisplacementTable::halo_entry) out = records[k] + n * element_words * N + lane;
        else out = dst.data + n * record_stride + k * element_words * N + t.lane_map(p)[lane];
      }
      int w = 0;
      for_each_leaf([&](const Real& x) LATTE_LAMBDA { out[(w++) * N] = x; }, value.v[k]);
    }
  }
};

}  // namespace latte
