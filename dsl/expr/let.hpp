#pragma once
// let(operand, f): evaluate operand once per site and use its value several
// times in one fused statement,
//
//   chi = let(U * psi, [](const auto& x) { return x + 0.5 * x; });
//
// f is called once, when the node is built, with a placeholder node for the
// value (LetValue); what it returns is the body, an expression that may use
// the placeholder any number of times beside fields, shifts of fields and
// constants. At a site the statement evaluates operand once, keeps the value
// beside the site (dsl/exec/let_evaluator.hpp), and the body reads it from
// there. Without let, every use of a sub-expression is evaluated again: an
// SU(3) exponential written as a series evaluated its argument once per term.
//
// The value belongs to its site: the placeholder cannot be shifted (shift
// the operand, or let-bind the shifted expression). Lets nest, and a nested
// body may use the values of the lets around it.
//
// How a placeholder finds its value. Each let has a level, a number in its
// type: one more than the highest level of any placeholder in its operand
// or body. So inside a let's body every placeholder but its own has a lower
// level, and a placeholder's value is the one bound by the innermost let of
// its level around the point of use. The body's placeholders are found by
// calling f once more with a placeholder of no level (a probe) before the
// real call: f only builds nodes, so calling it twice costs nothing at run
// time (a let nested k deep builds its innermost body 2^k times at compile
// time). Levels rather than, say, f's closure type name the binding because
// a closure type may not appear in a CUDA kernel's template arguments.

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "dsl/expr/expression.hpp"
#include "dsl/expr/map.hpp"

namespace latte {

// The nodes that hold others (dsl/expr/shift.hpp, dsl/expr/checkerboard.hpp,
// dsl/expr/precision_cast.hpp), for max_let_level below.
template <class E> struct Shift;
template <class E, class O> struct Merge;
template <class To, class E> struct PrecisionCast;

// The placeholder for a let-bound value: a leaf with the operand's value
// type, precision, lane count and layout, reading no field data.
template <int Level, class Value, class Real, int Nsimd>
struct LetValue {
  static constexpr bool is_latte_expression = true;
  static constexpr int level = Level;
  using value_type = Value;
  using real_type = Real;
  static constexpr int nsimd = Nsimd;
  static constexpr std::size_t bytes_read_per_site = 0;

  const SiteLayout* site_layout = nullptr;

  const SiteLayout* layout() const { return site_layout; }
  bool reads(const void*) const { return false; }
  bool reads_shifted(const void*) const { return false; }

  static constexpr double flops_per_site() { return 0; }
  template <class Tally> void add_reads(Tally&, double) const {}
  template <class Namer> void describe(Namer& namer, int) const { namer.text(level_name()); }

  // x, y, z, then x3, x4, ... by level, as the statement profile names them.
  static std::string level_name() {
    if (Level >= 0 && Level < 3) return std::string(1, static_cast<char>('x' + Level));
    return "x" + std::to_string(Level);
  }
};

// The highest level of a placeholder in a node (-1: none). The probe
// placeholder (level -1) does not count.
template <class Node> struct max_let_level : std::integral_constant<int, -1> {};
template <int L, class V, class R, int N>
struct max_let_level<LetValue<L, V, R, N>> : std::integral_constant<int, L> {};
template <class F, class... Args>
struct max_let_level<Map<F, Args...>> : std::integral_constant<int, std::max({-1, max_let_level<Args>::value...})> {};
template <class E> struct max_let_level<Shift<E>> : max_let_level<E> {};
template <class E, class O>
struct max_let_level<Merge<E, O>> : std::integral_constant<int, std::max(max_let_level<E>::value, max_let_level<O>::value)> {};
template <class To, class E> struct max_let_level<PrecisionCast<To, E>> : max_let_level<E> {};

template <int Level, class Operand, class Body>
struct Let {
  static constexpr bool is_latte_expression = true;
  static constexpr int level = Level;
  using value_type = typename Body::value_type;
  using real_type = typename common_real<typename Operand::real_type, typename Body::real_type>::type;
  static constexpr int nsimd = common_nsimd<Operand, Body>();
  static constexpr std::size_t bytes_read_per_site = Operand::bytes_read_per_site + Body::bytes_read_per_site;

  Operand operand;
  Body body;
  const SiteLayout* site_layout;

  Let(const Operand& o, const Body& b) : operand(o), body(b), site_layout(common_layout(o, b)) {}

  const SiteLayout* layout() const { return site_layout; }
  bool reads(const void* p) const { return operand.reads(p) || body.reads(p); }
  bool reads_shifted(const void* p) const { return operand.reads_shifted(p) || body.reads_shifted(p); }

  // The operand counts once per site: that is the point.
  static double flops_per_site() { return Operand::flops_per_site() + Body::flops_per_site(); }
  template <class Tally> void add_reads(Tally& tally, double weight) const {
    operand.add_reads(tally, weight);
    body.add_reads(tally, weight);
  }
  template <class Namer> void describe(Namer& namer, int outer_precedence) const {
    const bool bracket = outer_precedence > 0;
    if (bracket) namer.text("(");
    namer.text("let " + LetValue<Level, void, void, 0>::level_name() + " = ");
    operand.describe(namer, 0);
    namer.text(" in ");
    body.describe(namer, 0);
    if (bracket) namer.text(")");
  }
};
template <int L, class O, class B>
struct max_let_level<Let<L, O, B>> : std::integral_constant<int, std::max({L, max_let_level<O>::value, max_let_level<B>::value})> {};

template <FieldOperand A, class F>
auto let(A&& operand, F&& function) {
  using Operand = node_t<A>;
  using Value = typename Operand::value_type;
  using Real = typename Operand::real_type;
  constexpr int nsimd = Operand::nsimd;
  static_assert(std::is_invocable_v<F&, const LetValue<-1, Value, Real, nsimd>&>,
                "Latte: let(operand, f): f must take the let-bound value, e.g. [](const auto& x) { return x * x; }");
  using Probe = decltype(to_node(function(std::declval<const LetValue<-1, Value, Real, nsimd>&>())));
  constexpr int level = std::max(max_let_level<Operand>::value, max_let_level<Probe>::value) + 1;
  Operand node = to_node(std::forward<A>(operand));
  const LetValue<level, Value, Real, nsimd> value{node.layout()};
  auto body = to_node(function(value));
  return Let<level, Operand, decltype(body)>(node, body);
}

}  // namespace latte
