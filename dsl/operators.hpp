#pragma once
// Arithmetic and comparison operators on lattice expressions, written once
// and constrained by one concept: at least one operand is a field or an
// expression, the other may also be a constant. Each returns a lazy node.

#include <utility>

#include "dsl/functors.hpp"
#include "dsl/map.hpp"

namespace latte {

template <class T> inline constexpr bool is_adjoint_node = false;
template <class X> inline constexpr bool is_adjoint_node<Map<functors::Adj, X>> = true;

template <class A, class B> concept LatticeOperands =
    Operand<std::remove_cvref_t<A>> && Operand<std::remove_cvref_t<B>> &&
    (FieldOperand<std::remove_cvref_t<A>> || FieldOperand<std::remove_cvref_t<B>>);

template <class A, class B> requires LatticeOperands<A, B>
auto operator+(A&& a, B&& b) { return map<functors::Plus>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires LatticeOperands<A, B>
auto operator-(A&& a, B&& b) { return map<functors::Minus>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires LatticeOperands<A, B>
auto operator*(A&& a, B&& b) {
  using Left = std::remove_cvref_t<A>;
  if constexpr (is_adjoint_node<Left>) {
    // adj(x) * b is evaluated as one product that reads x transposed.
    return map<functors::AdjTimes>(slot<0>(a.operands), std::forward<B>(b));
  } else {
    return map<functors::Times>(std::forward<A>(a), std::forward<B>(b));
  }
}
template <class A, class B> requires LatticeOperands<A, B>
auto operator/(A&& a, B&& b) { return map<functors::Divide>(std::forward<A>(a), std::forward<B>(b)); }
template <class A> requires FieldOperand<std::remove_cvref_t<A>>
auto operator-(A&& a) { return map<functors::Negate>(std::forward<A>(a)); }

template <class A, class B> requires LatticeOperands<A, B>
auto operator<(A&& a, B&& b) { return map<functors::Less>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires LatticeOperands<A, B>
auto operator>(A&& a, B&& b) { return map<functors::Greater>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires LatticeOperands<A, B>
auto operator<=(A&& a, B&& b) { return map<functors::LessEqual>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires LatticeOperands<A, B>
auto operator>=(A&& a, B&& b) { return map<functors::GreaterEqual>(std::forward<A>(a), std::forward<B>(b)); }

}  // namespace latte

// Fields built from these expressions are assigned with statements: a file
// that includes only this header can write them (included last: dsl/assign.hpp
// needs the DSL headers this one is built on, complete).
#include "dsl/assign.hpp"
