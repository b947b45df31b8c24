#pragma once
// Statements on batches of right-hand sides (Batch, lattice/tensors/site_types.hpp)
// are evaluated one right-hand side at a time within each site.
//
// Written naively, out = M psi on a batch of N spinors evaluates every node
// of the expression for all N at once: the projected half spinors, their
// products with the links and the eight-term sum are each N times the size
// of a spinor, far beyond the registers, so every intermediate goes through
// the stack. Measured on the Wilson Dslash at 24^4 (Zen 5, AVX-512, double),
// N = 12 took 3.6 times as long per right-hand side as one spinor field.
//
// Instead the statement's node is rewritten, before it is prepared, into
// the node of one right-hand side whose index is chosen at run time: a view
// of a batch field becomes RhsElementView (its element k), a batch of
// coefficients RhsConstant (its coefficient k), rhs_norm2 and
// rhs_inner_product become the local norm and inner product, shifts,
// checkerboard gathers and precision casts are rebuilt around their
// rewritten operands, and nodes that hold no batch (the links) stay as they
// are. RhsLoop evaluates that one node N times at each site, the k-th time
// at RhsSite{site, k} (dsl/exec/rhs_site.hpp): the single-spinor code, once
// per right-hand side, and every link still comes from memory once per site
// (the later right-hand sides find it in the cache). A node the rewrite
// does not know (or a pack of separate fields into a batch) leaves the
// statement as it was.
//
// One evaluator serves all N right-hand sides, so the kernel's parameters
// are those of one right-hand side on every backend (cuda passes them to
// each launch), and a shift of a batch has one halo: its records hold the
// whole batch, packed by evaluating the shifted operand for each k in turn
// (RhsLoopEvaluator, dsl/exec/rhs_loop_evaluator.hpp), and the shift reads
// element k of them.

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "dsl/expr/expression.hpp"
#include "dsl/expr/functors.hpp"
#include "dsl/expr/map.hpp"
#include "lattice/fields/field_view.hpp"
#include "lattice/tensors/site_types.hpp"

namespace latte {

// The other nodes it rewrites (dsl/expr/shift.hpp, dsl/expr/checkerboard.hpp,
// dsl/expr/precision_cast.hpp), declared only: statements include this file.
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

// ---- the leaves of one right-hand side ------------------------------------------------
// Element k of a batch field, k read from the site (RhsSite) at run time.
// For the statement model and name it is the whole batch field: the N
// evaluations of RhsLoop read all of it.
template <class T, int Nsimd, int Words>
struct RhsElementView {
  static constexpr bool is_latte_expression = true;
  using value_type = typename T::element_type;
  using real_type = real_of_t<T>;
  static constexpr int nsimd = Nsimd;
  static constexpr int batch = batch_size_v<T>;
  static constexpr std::size_t bytes_read_per_site = sizeof(real_type) * words_v<value_type> * Nsimd;

  FieldView<T, Nsimd, Words> view;

  const SiteLayout* layout() const { return view.layout(); }
  bool reads(const void* p) const { return view.reads(p); }
  bool reads_shifted(const void*) const { return false; }
  static constexpr double flops_per_site() { return 0; }
  template <class Tally> void add_reads(Tally& tally, double weight) const { view.add_reads(tally, weight); }
  template <class Namer> void describe(Namer& namer, int precedence) const { view.describe(namer, precedence); }
};

// Coefficient k of a batch of coefficients (a solver's N step lengths).
template <class S>
struct RhsConstant {
  static constexpr bool is_latte_expression = true;
  using value_type = typename S::element_type;
  using real_type = void;
  static constexpr int nsimd = 0;
  static constexpr int batch = batch_size_v<S>;
  static constexpr std::size_t bytes_read_per_site = 0;

  S values;

  const SiteLayout* layout() const { return nullptr; }
  bool reads(const void*) const { return false; }
  bool reads_shifted(const void*) const { return false; }
  static constexpr double flops_per_site() { return 0; }
  template <class Tally> void add_reads(Tally&, double) const {}
  template <class Namer> void describe(Namer& namer, int precedence) const {
    Constant<S>{values}.describe(namer, precedence);
  }
};

// The batch size a node of one right-hand side depends on (0: none; such
// a node is the same for every right-hand side).
template <class Node> inline constexpr int rhs_batch_v = 0;
template <class T, int Nsimd, int Words> inline constexpr int rhs_batch_v<RhsElementView<T, Nsimd, Words>> = batch_size_v<T>;
template <class S> inline constexpr int rhs_batch_v<RhsConstant<S>> = batch_size_v<S>;
template <class F, class... Args>
inline constexpr int rhs_batch_v<Map<F, Args...>> = std::max({0, rhs_batch_v<Args>...});
template <class E> inline constexpr int rhs_batch_v<Shift<E>> = rhs_batch_v<E>;
template <class E, class O> inline constexpr int rhs_batch_v<Merge<E, O>> = std::max(rhs_batch_v<E>, rhs_batch_v<O>);
template <class To, class E> inline constexpr int rhs_batch_v<PrecisionCast<To, E>> = rhs_batch_v<E>;

// ---- rhs_element(node): the node of one right-hand side ---------------------------------
template <class T, int Nsimd, int Words>
auto rhs_element(const FieldView<T, Nsimd, Words>& view) {
  if constexpr (is_batch_value<T>) return RhsElementView<T, Nsimd, Words>{view};
  else return view;
}
template <class S>
auto rhs_element(const Constant<S>& c) {
  if constexpr (is_batch_value<S>) return RhsConstant<S>{c.value};
  else return c;
}
template <class E>
auto rhs_element(const Shift<E>& s);
template <class E, class O>
auto rhs_element(const Merge<E, O>& m);
template <class To, class E>
auto rhs_element(const PrecisionCast<To, E>& c);

template <class F, class... Args>
auto rhs_element(const Map<F, Args...>& m) {
  if constexpr (!is_batch_value<typename Map<F, Args...>::value_type>) {
    return m;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using Element = Map<typename per_rhs_functor<F>::type, decltype(rhs_element(slot<I>(m.operands)))...>;
      return Element(rhs_element(slot<I>(m.operands))...);
    }(std::index_sequence_for<Args...>{});
  }
}
template <class E>
auto rhs_element(const Shift<E>& s) {
  if constexpr (!is_batch_value<typename E::value_type>) {
    return s;
  } else {
    auto operand = rhs_element(s.operand);
    return Shift<decltype(operand)>(operand, s);
  }
}
template <class E, class O>
auto rhs_element(const Merge<E, O>& m) {
  auto even = rhs_element(m.even);
  auto odd = rhs_element(m.odd);
  return Merge<typename decltype(even)::operand_type, typename decltype(odd)::operand_type>{even, odd};
}
template <class To, class E>
auto rhs_element(const PrecisionCast<To, E>& c) {
  auto operand = rhs_element(c.operand);
  return PrecisionCast<To, decltype(operand)>{operand};
}

// The node of one right-hand side evaluated N times: the batch value of the statement.
template <class Element, int N>
struct RhsLoop {
  static constexpr bool is_latte_expression = true;
  using value_type = Batch<typename Element::value_type, N>;
  using real_type = typename Element::real_type;
  static constexpr int nsimd = Element::nsimd;
  static constexpr std::size_t bytes_read_per_site = N * Element::bytes_read_per_site;

  Element element;

  const SiteLayout* layout() const { return element.layout(); }
  bool reads(const void* p) const { return element.reads(p); }
  bool reads_shifted(const void* p) const { return element.reads_shifted(p); }
  static double flops_per_site() { return N * Element::flops_per_site(); }
  // The batch leaves report their whole fields (RhsElementView), the others once.
  template <class Tally> void add_reads(Tally& tally, double weight) const { element.add_reads(tally, weight); }
  template <class Namer> void describe(Namer& namer, int precedence) const { element.describe(namer, precedence); }
};

// The node a statement runs: RhsLoop where the rewrite applies, else node.
template <class Node>
auto lower_batches(const Node& node) {
  using Value = typename Node::value_type;
  if constexpr (is_batch_value<Value> && lowers_by_rhs<Node>::value) {
    auto element = rhs_element(node);
    return RhsLoop<decltype(element), batch_size_v<Value>>{element};
  } else {
    return node;
  }
}

}  // namespace latte
