#pragma once
// The evaluators of a statement on a batch of right-hand sides lowered to
// one right-hand side (dsl/expr/batch_lowering.hpp): the leaves that read
// element k of a batch, and RhsLoop's evaluator that runs k = 0 .. N-1 at
// each site; the latter also packs a shifted batch's halo (the operand's
// whole batch at the message's source sites, dsl/exec/shift_evaluator.hpp).

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dsl/exec/prepare.hpp"
#include "dsl/exec/rhs_site.hpp"
#include "dsl/expr/batch_lowering.hpp"
#include "lattice/fields/field_access.hpp"
#include "lattice/tensors/site_types.hpp"

namespace latte {

// Element s.rhs of a batch field: the batch's data pointer, moved by one
// element's words per right-hand side.
template <class E, int Nsimd, int RecordWords>
struct RhsFieldAccess {
  using value_type = E;
  using real_type = real_of_t<E>;
  static constexpr int nsimd = Nsimd;
  static constexpr std::size_t bytes_read_per_site = sizeof(real_type) * words_v<E> * Nsimd;
  static constexpr std::int64_t rhs_stride = std::int64_t(words_v<E>) * Nsimd;

  real_type* data;

  template <class Site>
  LATTE_INLINE FieldAccess<E, Nsimd, RecordWords> element(const Site& s) const {
    static_assert(requires { s.rhs; }, "Latte: an element of a batch is read only inside a statement's RhsLoop");
    return {data + s.rhs * rhs_stride};
  }
  template <class Site>
  LATTE_INLINE decltype(auto) eval(const Site& s) const { return element(s).load(s); }
  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const { element(s).prefetch(s); }
};

template <class T, int Nsimd, int Words, class Context>
RhsFieldAccess<typename T::element_type, Nsimd, Words> make_evaluator(const RhsElementView<T, Nsimd, Words>& node,
                                                                      Context& context) {
  FieldView<T, Nsimd, Words> bound = node.view;
  bound.bind(context.side(), Access::read);
  return {bound.data};
}

// Coefficient s.rhs of a batch of coefficients.
template <class S>
struct RhsConstantEvaluator {
  using value_type = typename S::element_type;
  using real_type = void;
  static constexpr int nsimd = 0;
  static constexpr std::size_t bytes_read_per_site = 0;

  S values;

  template <class Site> LATTE_INLINE void prefetch(const Site&) const {}
  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    return Constant<value_type>{values.v[s.rhs]}.eval(s);
  }
};

template <class S, class Context>
RhsConstantEvaluator<S> make_evaluator(const RhsConstant<S>& node, Context&) {
  return {node.values};
}

// RhsLoop: the element's evaluator at RhsSite{site, k} for k = 0 .. N-1.
template <class Element, int N>
struct RhsLoopEvaluator {
  using value_type = Batch<typename Element::value_type, N>;
  using real_type = typename Element::real_type;
  static constexpr int nsimd = Element::nsimd;
  static constexpr std::size_t bytes_read_per_site = N * Element::bytes_read_per_site;

  Element element;

  // A site's batch (18 KB for 12 spinors in double at AVX-512, read from 8
  // neighbours) is more than the first-level cache holds. So where the
  // statement streams from memory, the backend's prefetch one site ahead
  // brings right-hand side 0 to the first level and the rest only to the
  // second, and eval brings each next right-hand side to the first level
  // while it computes the one before. Dslash at 24^4, 12 right-hand sides
  // (bench_wilson, 2 threads, Zen 5, 2026-11-27, three alternations against
  // all of a site to the first level): 33-38 -> 38-42 GFLOPS in double,
  // 69-74 -> 77-86 in single. With the fields in cache (8^4,
  // --no-interleave) the extra prefetches cost 10-15 %: there the whole
  // site goes to the first level as before.
  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    if constexpr (requires { s.to_second_level(); }) {
      if (s.from_memory) {
        element.prefetch(RhsSite<Site>{s, 0});
        const auto ahead = s.to_second_level();
        for (int k = 1; k < N; ++k) element.prefetch(RhsSite<decltype(ahead)>{ahead, k});
        return;
      }
    }
    for (int k = 0; k < N; ++k) element.prefetch(RhsSite<Site>{s, k});
  }
  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    using Value = std::remove_cvref_t<decltype(element.eval(RhsSite<Site>{s, 0}))>;
    Batch<Value, N> out;
    for (int k = 0; k < N; ++k) {
      if constexpr (requires { s.from_memory; })
        if (s.from_memory && k + 1 < N) element.prefetch(RhsSite<Site>{s, k + 1});
      out.v[k] = element.eval(RhsSite<Site>{s, k});
    }
    return out;
  }
};

template <class Element, int N, class Context>
auto make_evaluator(const RhsLoop<Element, N>& node, Context& context) {
  auto element = make_evaluator(node.element, context);
  return RhsLoopEvaluator<decltype(element), N>{element};
}

}  // namespace latte
