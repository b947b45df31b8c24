#pragma once
// Arithmetic and comparison operators on lattice expressions, written once
// and constrained by one concept: at least one operand is a field or an
// expression, the other may also be a constant. Each returns a lazy node,
// or, where the site algebra does not define the operation for the kinds of
// its operands, stops the compilation there with one line that says so
// (dsl/expr/site_algebra_check.hpp).

#include <utility>

#include "dsl/expr/functors.hpp"
#include "dsl/expr/map.hpp"
#include "dsl/expr/site_algebra_check.hpp"

namespace latte {

template <class T> inline constexpr bool is_adjoint_node = false;
template <class X> inline constexpr bool is_adjoint_node<Map<functors::Adj, X>> = true;

template <class A, class B> concept LatticeOperands =
    Operand<std::remove_cvref_t<A>> && Operand<std::remove_cvref_t<B>> &&
    (FieldOperand<std::remove_cvref_t<A>> || FieldOperand<std::remove_cvref_t<B>>);

template <class A, class B> requires LatticeOperands<A, B>
auto operator+(A&& a, B&& b) {
  if constexpr (site_defined<functors::Plus, A, B>) {
    return map_unless_refused<functors::Plus>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::Plus, A, B>::defined,
                  "Latte: a + b is refused: the site algebra adds only values of one kind");
    return RefusedExpression{};
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator-(A&& a, B&& b) {
  if constexpr (site_defined<functors::Minus, A, B>) {
    return map_unless_refused<functors::Minus>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::Minus, A, B>::defined,
                  "Latte: a - b is refused: the site algebra subtracts only values of one kind");
    return RefusedExpression{};
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator*(A&& a, B&& b) {
  if constexpr (!site_defined<functors::Times, A, B>) {
    static_assert(site_algebra_of<functors::Times, A, B>::defined,
                  "Latte: a * b is refused: the site algebra has no product of these two kinds");
    return RefusedExpression{};
  } else if constexpr (is_adjoint_node<std::remove_cvref_t<A>> && !any_refused<B>) {
    // adj(x) * b is evaluated as one product that reads x transposed
    // (lattice/tensors/tensor_ops.hpp: adj_times accepts what a * b accepts).
    return map<functors::AdjTimes>(slot<0>(a.operands), std::forward<B>(b));
  } else {
    return map_unless_refused<functors::Times>(std::forward<A>(a), std::forward<B>(b));
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator/(A&& a, B&& b) {
  if constexpr (site_defined<functors::Divide, A, B>) {
    return map_unless_refused<functors::Divide>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::Divide, A, B>::defined,
                  "Latte: a / b is refused: the site algebra divides only by a real or complex number");
    return RefusedExpression{};
  }
}
template <class A> requires FieldOperand<std::remove_cvref_t<A>>
auto operator-(A&& a) { return map_unless_refused<functors::Negate>(std::forward<A>(a)); }

template <class A, class B> requires LatticeOperands<A, B>
auto operator<(A&& a, B&& b) {
  if constexpr (site_defined<functors::Less, A, B>) {
    return map_unless_refused<functors::Less>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::Less, A, B>::defined,
                  "Latte: a < b is refused: the site algebra compares only real values");
    return RefusedExpression{};
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator>(A&& a, B&& b) {
  if constexpr (site_defined<functors::Greater, A, B>) {
    return map_unless_refused<functors::Greater>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::Greater, A, B>::defined,
                  "Latte: a > b is refused: the site algebra compares only real values");
    return RefusedExpression{};
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator<=(A&& a, B&& b) {
  if constexpr (site_defined<functors::LessEqual, A, B>) {
    return map_unless_refused<functors::LessEqual>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::LessEqual, A, B>::defined,
                  "Latte: a <= b is refused: the site algebra compares only real values");
    return RefusedExpression{};
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator>=(A&& a, B&& b) {
  if constexpr (site_defined<functors::GreaterEqual, A, B>) {
    return map_unless_refused<functors::GreaterEqual>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::GreaterEqual, A, B>::defined,
                  "Latte: a >= b is refused: the site algebra compares only real values");
    return RefusedExpression{};
  }
}

}  // namespace latte
