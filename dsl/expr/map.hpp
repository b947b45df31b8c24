#pragma once
// Map<F, Args...>: the one variadic node for every pointwise operation
// (unary, binary, ternary). F is a functor on site tensors, with or without
// state: a collision model with its relaxation rates, a clover term with its
// c_sw. It is copied into the statement's evaluator (dsl/exec/map_evaluator.hpp),
// so it must be trivially copyable and callable where kernels run
// (LATTE_INLINE). The operands are stored in a flat aggregate so deep
// expressions stay cheap to instantiate.

#include <cstddef>
#include <string>
#include <utility>

#include "dsl/expr/expression.hpp"
#include "dsl/expr/flop_count.hpp"

namespace latte {

template <std::size_t I, class T> struct OperandSlot { T value; };

template <class Indices, class... T> struct OperandPack;
template <std::size_t... I, class... T>
struct OperandPack<std::index_sequence<I...>, T...> : OperandSlot<I, T>... {};

template <std::size_t I, class T> LATTE_INLINE const T& slot(const OperandSlot<I, T>& s) { return s.value; }
template <std::size_t I, class T> LATTE_INLINE T& slot(OperandSlot<I, T>& s) { return s.value; }

// The per-lane value operand A gives in a node whose fields' real type is
// Real (void when every operand is a constant): constants take the
// precision of the fields they meet.
template <class Real, class A>
using lane_value_t =
    std::conditional_t<std::is_void_v<Real>, typename A::value_type, rebind_t<typename A::value_type, Real>>;

template <class F, class... Args>
struct Map {
  static constexpr bool is_latte_expression = true;
  using real_type = typename common_real<typename Args::real_type...>::type;
  static constexpr int nsimd = common_nsimd<Args...>();
  static_assert(((Args::nsimd == 0 || Args::nsimd == nsimd) && ...),
                "Latte: an expression mixes fields of different SIMD widths");
  using Pack = OperandPack<std::index_sequence_for<Args...>, Args...>;
  template <class A> using lane_value = lane_value_t<real_type, A>;
  using value_type = decltype(std::declval<const F&>()(std::declval<lane_value<Args>>()...));
  static constexpr std::size_t bytes_read_per_site = (std::size_t(0) + ... + Args::bytes_read_per_site);
  static_assert(std::is_trivially_copyable_v<F>, "Latte: a map's functor must be trivially copyable");

  [[no_unique_address]] F function;
  Pack operands;
  const SiteLayout* site_layout;

  explicit Map(const Args&... args) : function{}, operands{{args}...}, site_layout(common_layout(args...)) {}
  Map(const F& f, const Args&... args) : function(f), operands{{args}...}, site_layout(common_layout(args...)) {}

  const SiteLayout* layout() const { return site_layout; }
  bool reads(const void* p) const { return any([&](const auto& a) { return a.reads(p); }); }
  bool reads_shifted(const void* p) const { return any([&](const auto& a) { return a.reads_shifted(p); }); }


  // The statement model (dsl/expr/statement_model.hpp).
  static double flops_per_site() { return counted_flops<F, lane_value<Args>...>() + (0.0 + ... + Args::flops_per_site()); }
  template <class Tally> void add_reads(Tally& tally, double weight) const {
    each([&](const auto& a) { a.add_reads(tally, weight); });
  }
  // Infix functors (F::infix, F::precedence) print as a + b, others as name(a, b).
  template <class Namer> void describe(Namer& namer, int outer_precedence) const {
    if constexpr (requires { F::infix; }) {
      const bool bracket = F::precedence < outer_precedence;
      if (bracket) namer.text("(");
      std::size_t i = 0;
      each([&](const auto& a) {
        if (i) namer.text(F::infix);
        if (i == 0 && sizeof...(Args) == 1) namer.text(F::infix);  // a prefix operator (negation)
        // The right operand of - and / binds tighter: a - (b - c).
        a.describe(namer, F::precedence + (i > 0 ? 1 : 0));
        ++i;
      });
      if (bracket) namer.text(")");
    } else if constexpr (requires { F::element_index; }) {
      slot<0>(operands).describe(namer, 4);
      namer.text("[" + std::to_string(F::element_index) + "]");
    } else {
      if constexpr (requires { F::name; }) namer.text(F::name);
      else namer.text("f");
      namer.text("(");
      std::size_t i = 0;
      each([&](const auto& a) {
        if (i++) namer.text(", ");
        a.describe(namer, 0);
      });
      namer.text(")");
    }
  }

 private:
  template <class Body> void each(Body&& body) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (body(slot<I>(operands)), ...); }(std::index_sequence_for<Args...>{});
  }

  template <class P> bool any(P predicate) const {
    return any_impl(predicate, std::index_sequence_for<Args...>{});
  }
  template <class P, std::size_t... I> bool any_impl(P predicate, std::index_sequence<I...>) const {
    return (predicate(slot<I>(operands)) || ...);
  }
};

// map<F>(operands...): build a node from fields, expressions and constants
// with a functor made by F{}; map(f, operands...) with the functor object f
// (which carries its parameters into every kernel).
template <class F, class... A>
auto map(A&&... operands) {
  return Map<F, node_t<A>...>(to_node(std::forward<A>(operands))...);
}
template <class F, class... A> requires(!Operand<std::remove_cvref_t<F>> && sizeof...(A) > 0 && (Operand<std::remove_cvref_t<A>> && ...))
auto map(const F& f, A&&... operands) {
  return Map<F, node_t<A>...>(f, to_node(std::forward<A>(operands))...);
}

}  // namespace latte
