#pragma once
// Whether the site algebra defines an operation on the operands of a DSL
// operator or function, asked when its node is built rather than when a
// statement runs it. A refused operation stops there with one
// static_assert that says in words what is refused, and the compiler's
// note names the operands' kinds (lattice/tensors/site_kinds.hpp):
//
//   error: static assertion failed: Latte: a * b is refused: ...
//   note: 'latte::site_algebra<latte::functors::Times, latte::kind::spinor,
//          latte::kind::spinor>::defined' evaluates to false
//
// instead of a page of failed overloads from inside the statement's
// kernels. Each operator and function writes its refusal as
//
//   if constexpr (site_defined<F, A, B>) {
//     return map_unless_refused<F>(a, b);
//   } else {
//     static_assert(site_algebra_of<F, A, B>::defined, "Latte: ... is refused: ...");
//     return RefusedExpression{};
//   }
//
// The question is asked of the functor F on the operands' per-lane values,
// the call Map makes to find its value_type (dsl/expr/map.hpp), so it costs one
// overload resolution the node needs anyway. It holds exactly when that
// call is well formed: the functors name their site operation in their
// return types (dsl/expr/functors.hpp), and the site operations say in their
// constraints what they accept (lattice/tensors/tensor_ops.hpp).

#include <type_traits>

#include "dsl/expr/expression.hpp"
#include "dsl/expr/map.hpp"
#include "lattice/tensors/site_kinds.hpp"

namespace latte {

// What a refused operation gives after its static_assert: an expression
// that every DSL operator and function, assignment and reduction takes
// without a further word (they return it, or do nothing), so that the one
// refusal stays the only error of the statement.
struct RefusedExpression {
  static constexpr bool is_latte_expression = true;
};

template <class... Operands>
inline constexpr bool any_refused = (std::is_same_v<std::remove_cvref_t<Operands>, RefusedExpression> || ...);

// The per-lane value of Operand among the operands of one node.
template <class Operand, class... Operands>
using operand_lane_t =
    lane_value_t<typename common_real<typename node_t<Operands>::real_type...>::type, node_t<Operand>>;

template <class F, class... Lanes>
concept lanes_accept = requires(const F& f, const Lanes&... lanes) { f(lanes...); };

// Whether map<F>(operands...) has a site value. An operand already refused
// counts as defined: it was reported where it was built.
template <class F, class... Operands>
concept site_defined = any_refused<Operands...> || lanes_accept<F, operand_lane_t<Operands, Operands...>...>;

// Named only in the static_assert of an operation that site_defined
// refused, so defined is false; what it is for is its name, which the
// compiler prints with the kinds of the operands spelled out.
template <class Operation, class... Kinds> struct site_algebra {
  static constexpr bool defined = false;
};
template <class F, class... Operands>
using site_algebra_of = site_algebra<F, kind_t<operand_lane_t<Operands, Operands...>>...>;

// map<F>(operands...) for an operation site_defined accepted.
template <class F, class... A> auto map_unless_refused(A&&... operands) {
  if constexpr (any_refused<A...>) return RefusedExpression{};
  else return map<F>(std::forward<A>(operands)...);
}

}  // namespace latte
