#pragma once
// Statements on batches of right-hand sides (Batch, lattice/site_types.hpp)
// are evaluated one right-hand side at a time within each site.
//
// Written naively, out = M psi on a batch of N spinors evaluates every node
// of the expression for all N at once: the projected half spinors, their
// products with the links and the eight-term sum are each N times the size
// of a spinor, far beyond the registers, so every intermediate goes through
// the stack. Measured on the Wilson Dslash at 24^4 (Zen 5, AVX-512, double),
// N = 12 took 3.6 times as long per right-hand side as one spinor field.
//
// Instead the statement's node is rewritten, before it is bound, into N
// nodes of one type, node k computing right-hand side k: a view of a batch
// field becomes the view of its element k, a batch of coefficients its
// coefficient k, rhs_norm2 and rhs_inner_product become the local norm and
// inner product, shifts, checkerboard gathers and precision casts are
// rebuilt around their rewritten operands, and nodes that hold no batch
// (the links) stay as they are. RhsLoop evaluates the N in turn at each
// site: the single-spinor code, once per right-hand side, and every link
// still comes from memory once per site (the later right-hand sides find it
// in the cache). A node the rewrite does not know (or a pack of separate
// fields into a batch) leaves the statement as it was.
//
// The cuda lowering keeps whole-batch evaluation (Backend::lowers_batches_by_rhs
// is false there): RhsLoop's evaluator holds N evaluators, N times the
// kernel parameters.

#include <cstddef>
#include <type_traits>
#include <utility>

#include "dsl/expression.hpp"
#include "dsl/functors.hpp"
#include "dsl/map.hpp"
#include "lattice/field_view.hpp"
#include "lattice/site_types.hpp"

namespace latte {

// The other nodes it rewrites (dsl/shift.hpp, dsl/checkerboard.hpp,
// dsl/precision_cast.hpp), declared only: statements include this file.
template <class E> struct Shift;
template <class E, class O> struct Merge;
template <class To, class E> struct PrecisionCast;

template <class T> inline constexpr bool is_batch_value = batch_size_v<T> > 0;

// The functor that computes element k of F's batch-valued result from
// element k of its batch operands (F itself for every elementwise one).
template <class F> struct per_rhs_functor { using type = F; };
template <> struct per_rhs_functor<functors::RhsNorm2> { using type = functors::LocalNorm2; };
template <> struct per_rhs_functor<functors::RhsInnerProduct> { using type = functors::LocalInnerProduct; };

// Functors that build or take apart a batch do not act element by element.
template <class F> inline constexpr bool maps_over_batches = true;
template <int N, class Index> inline constexpr bool maps_over_batches<functors::Pack<N, Index>> = false;
template <int I> inline constexpr bool maps_over_batches<functors::Element<I>> = false;

// ---- which nodes the rewrite knows ----------------------------------------------
template <class Node> struct lowers_by_rhs : std::false_type {};
template <class T, int Nsimd, int Words> struct lowers_by_rhs<FieldView<T, Nsimd, Words>> : std::true_type {};
template <class S> struct lowers_by_rhs<Constant<S>> : std::true_type {};
template <class F, class... Args>
struct lowers_by_rhs<Map<F, Args...>>
    : std::bool_constant<!is_batch_value<typename Map<F, Args...>::value_type> ||
                         (maps_over_batches<F> && (lowers_by_rhs<Args>::value && ...))> {};
template <class E> struct lowers_by_rhs<Shift<E>> : lowers_by_rhs<E> {};
template <class E, class O> struct lowers_by_rhs<Merge<E, O>> : std::bool_constant<lowers_by_rhs<E>::value && lowers_by_rhs<O>::value> {};
template <class To, class E> struct lowers_by_rhs<PrecisionCast<To, E>> : lowers_by_rhs<E> {};

// ---- rhs_element(node, k): the node of right-hand side k ----------------------------
template <class T, int Nsimd, int Words>
auto rhs_element(const FieldView<T, Nsimd, Words>& view, int k) {
  if constexpr (is_batch_value<T>) {
    using E = typename T::element_type;
    const int step = k * words_v<E> * Nsimd;
    return FieldView<E, Nsimd, Words>{view.data ? view.data + step : nullptr, view.site_layout, view.memory,
                                      view.offset + step};
  } else {
    return view;
  }
}
template <class S>
auto rhs_element(const Constant<S>& c, int k) {
  if constexpr (is_batch_value<S>) return Constant<typename S::element_type>{c.value.v[k]};
  else return c;
}
template <class E>
auto rhs_element(const Shift<E>& s, int k);
template <class E, class O>
auto rhs_element(const Merge<E, O>& m, int k);
template <class To, class E>
auto rhs_element(const PrecisionCast<To, E>& c, int k);

template <class F, class... Args>
auto rhs_element(const Map<F, Args...>& m, int k) {
  if constexpr (!is_batch_value<typename Map<F, Args...>::value_type>) {
    return m;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using Element = Map<typename per_rhs_functor<F>::type, decltype(rhs_element(slot<I>(m.operands), k))...>;
      return Element(rhs_element(slot<I>(m.operands), k)...);
    }(std::index_sequence_for<Args...>{});
  }
}
template <class E>
auto rhs_element(const Shift<E>& s, int k) {
  if constexpr (!is_batch_value<typename E::value_type>) {
    return s;
  } else {
    auto operand = rhs_element(s.operand, k);
    return Shift<decltype(operand)>(operand, s);
  }
}
template <class E, class O>
auto rhs_element(const Merge<E, O>& m, int k) {
  auto even = rhs_element(m.even, k);
  auto odd = rhs_element(m.odd, k);
  return Merge<typename decltype(even)::operand_type, typename decltype(odd)::operand_type>{even, odd};
}
template <class To, class E>
auto rhs_element(const PrecisionCast<To, E>& c, int k) {
  auto operand = rhs_element(c.operand, k);
  return PrecisionCast<To, decltype(operand)>{operand};
}

// N element nodes evaluated in turn: the batch value of the statement.
template <class Element, int N>
struct RhsLoop {
  static constexpr bool is_latte_expression = true;
  using value_type = Batch<typename Element::value_type, N>;
  using real_type = typename Element::real_type;
  static constexpr int nsimd = Element::nsimd;
  static constexpr std::size_t bytes_read_per_site = N * Element::bytes_read_per_site;

  Element elements[N];

  const SiteLayout* layout() const { return elements[0].layout(); }
  bool reads(const void* p) const { return elements[0].reads(p); }
  bool reads_shifted(const void* p) const { return elements[0].reads_shifted(p); }
  static double flops_per_site() { return N * Element::flops_per_site(); }
  template <class Tally> void add_reads(Tally& tally, double weight) const {
    for (const auto& e : elements) e.add_reads(tally, weight);
  }
  template <class Namer> void describe(Namer& namer, int precedence) const {
    elements[0].describe(namer, precedence);
  }
};

// The node a statement runs: RhsLoop where the rewrite applies, else node.
template <class Backend, class Node>
auto lower_batches(const Node& node) {
  using Value = typename Node::value_type;
  if constexpr (Backend::lowers_batches_by_rhs && is_batch_value<Value> && lowers_by_rhs<Node>::value) {
    constexpr int N = batch_size_v<Value>;
    using Element = decltype(rhs_element(node, 0));
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return RhsLoop<Element, N>{{rhs_element(node, static_cast<int>(K))...}};
    }(std::make_index_sequence<N>{});
  } else {
    return node;
  }
}

}  // namespace latte
