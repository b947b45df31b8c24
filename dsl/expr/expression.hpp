#pragma once
// The expression protocol. A node E provides
//   E::is_latte_expression           tag
//   E::value_type                    per-lane value (reals are float/double)
//   E::real_type, E::nsimd           precision and lane count of its fields
//                                    (void and 0 for a constant)
//   layout()                         the SiteLayout of its fields (or null)
//   reads(p), reads_shifted(p)       does it read data p (at a neighbour)?
//   E::bytes_read_per_site           bytes of field data a site's evaluation
//                                    reads, counted per read (a field read
//                                    through 8 shifts counts 8 times): how long
//                                    a site takes, which decides prefetching
//   flops_per_site(), add_reads(tally, w), describe(namer, precedence)
//                                    the statement model and name
//                                    (dsl/expr/statement_model.hpp)
// and make_evaluator(node, context) (dsl/exec/) turns it into the evaluator
// a kernel runs: nodes describe, evaluators read sites (dsl/exec/prepare.hpp).
// Nodes hold their operands by value; leaves are views of named fields, so a
// node never owns field data and never dangles while those fields live.

#include <concepts>
#include <type_traits>
#include <utility>

#include "lattice/fields/lattice_type.hpp"
#include "lattice/tensors/tensor_ops.hpp"
#include "platform/errors.hpp"

namespace latte {

template <class E> concept Expression = HasExpressionTag<E>;

// Anything that can stand beside an expression as a broadcast constant:
// numbers, complex numbers and site tensors of them.
template <class T> concept ConstantOperand =
    std::is_arithmetic_v<std::remove_cvref_t<T>> || is_complex_v<std::remove_cvref_t<T>> ||
    is_tensor_v<std::remove_cvref_t<T>>;

// convert_leaves<To>(x): the same tensor with leaves of type To (a real or
// a SIMD vector of reals built from one).
template <class Leaf, class T>
LATTE_INLINE rebind_t<T, Leaf> convert_leaves(const T& x) {
  if constexpr (std::is_same_v<rebind_t<T, Leaf>, T>) {
    return x;
  } else {
    return transform_leaves<rebind_t<T, Leaf>>([](const auto& v) LATTE_LAMBDA { return Leaf(v); }, x);
  }
}

template <class S>
struct Constant {
  static constexpr bool is_latte_expression = true;
  using value_type = S;
  using real_type = void;
  static constexpr int nsimd = 0;
  static constexpr std::size_t bytes_read_per_site = 0;
  S value;

  const SiteLayout* layout() const { return nullptr; }
  bool reads(const void*) const { return false; }
  bool reads_shifted(const void*) const { return false; }

  template <class Site> LATTE_INLINE void prefetch(const Site&) const {}

  static constexpr double flops_per_site() { return 0; }
  template <class Tally> void add_reads(Tally&, double) const {}
  // A statement's name shows what kind of constant, not its value: a solver
  // runs the same statement with a new coefficient every iteration.
  template <class Namer> void describe(Namer& namer, int) const {
    bool zero = true;
    for_each_leaf([&](const auto& x) { zero = zero && x == 0; }, value);
    if (zero) namer.text("0");
    else if constexpr (std::is_arithmetic_v<S>) namer.text("s");
    else if constexpr (is_complex_v<S>) namer.text("z");
    else namer.text("const");
  }

  // Broadcast into the statement's precision and leaf type.
  template <class Site>
  LATTE_INLINE auto eval(const Site&) const {
    using Real = typename Site::real_type;
    return convert_leaves<typename Site::leaf_type>(convert_leaves<Real>(value));
  }
};

// Operands held lazily by a node. A temporary field would dangle, so it is
// refused at compile time; name it first.
template <class T, class W>
auto to_node(const Lattice<T, W>& field) { return field.node(); }
template <class T, class W>
auto to_node(Lattice<T, W>&&) {
  static_assert(sizeof(T) == 0,
                "Latte: a temporary field cannot be an operand of an expression that is kept "
                "(it would dangle); give it a name first");
}
template <Expression E> E to_node(const E& e) { return e; }
template <ConstantOperand S> Constant<std::remove_cvref_t<S>> to_node(const S& s) { return {s}; }

// Operands of a statement that is evaluated at once (assignment, reduction):
// temporaries are fine there.
template <class T, class W>
auto as_node(const Lattice<T, W>& field) { return field.node(); }
template <Expression E> E as_node(const E& e) { return e; }
template <ConstantOperand S> Constant<std::remove_cvref_t<S>> as_node(const S& s) { return {s}; }

template <class T> using node_t = decltype(to_node(std::declval<const std::remove_cvref_t<T>&>()));

template <class T> concept Operand = Expression<T> || is_lattice_v<T> || ConstantOperand<T>;
template <class T> concept FieldOperand = Expression<T> || is_lattice_v<T>;

// ---- combining the precision and layout of operands -----------------------------------
template <class... R> struct common_real { using type = void; };
template <class R, class... Rest> struct common_real<R, Rest...> {
  using rest = typename common_real<Rest...>::type;
  static_assert(std::is_void_v<R> || std::is_void_v<rest> || std::is_same_v<R, rest>,
                "Latte: an expression mixes fields of different precision; convert one explicitly");
  using type = std::conditional_t<std::is_void_v<R>, rest, R>;
};

template <class... E> constexpr int common_nsimd() {
  int n = 0;
  ((n = E::nsimd ? E::nsimd : n), ...);
  return n;
}

// The layout shared by all operands, or a GeometryMismatch naming both.
template <class... E>
const SiteLayout* common_layout(const E&... operands) {
  const SiteLayout* common = nullptr;
  auto merge = [&](const SiteLayout* l) LATTE_LAMBDA {
    if (!l) return;
    if (!common) common = l;
    else if (common != l && !common->same_as(*l))
      throw GeometryMismatch("Latte: fields of different geometries in one expression: " + common->describe() +
                             " and " + l->describe());
  };
  (merge(operands.layout()), ...);
  return common;
}

}  // namespace latte
