#pragma once
// Named pointwise functions on lattice expressions. Each is a lazy Map node;
// the site-level meaning is in lattice/tensors/tensor_ops.hpp. Those defined on some
// kinds of site value only (adj, transpose, trace, the inner products) refuse
// the others where they are called, with one line that names the kind
// (dsl/expr/site_algebra_check.hpp).

#include <utility>

#include "dsl/expr/functors.hpp"
#include "dsl/expr/map.hpp"
#include "dsl/expr/site_algebra_check.hpp"

namespace latte {

template <class A> concept FieldArgument = FieldOperand<std::remove_cvref_t<A>>;

template <FieldArgument A> auto adj(A&& a) {
  if constexpr (site_defined<functors::Adj, A>) {
    return map_unless_refused<functors::Adj>(std::forward<A>(a));
  } else {
    static_assert(site_algebra_of<functors::Adj, A>::defined,
                  "Latte: adj(a) is refused: the adjoint is of a matrix, a complex number or a real only");
    return RefusedExpression{};
  }
}
template <FieldArgument A> auto conj(A&& a) { return map_unless_refused<functors::Conj>(std::forward<A>(a)); }
template <FieldArgument A> auto transpose(A&& a) {
  if constexpr (site_defined<functors::Transpose, A>) {
    return map_unless_refused<functors::Transpose>(std::forward<A>(a));
  } else {
    static_assert(site_algebra_of<functors::Transpose, A>::defined,
                  "Latte: transpose(a) is refused: only a matrix is transposed");
    return RefusedExpression{};
  }
}
template <FieldArgument A> auto trace(A&& a) {
  if constexpr (site_defined<functors::Trace, A>) {
    return map_unless_refused<functors::Trace>(std::forward<A>(a));
  } else {
    static_assert(site_algebra_of<functors::Trace, A>::defined,
                  "Latte: trace(a) is refused: the trace is of a matrix only");
    return RefusedExpression{};
  }
}
template <FieldArgument A> auto real(A&& a) { return map_unless_refused<functors::Real>(std::forward<A>(a)); }
template <FieldArgument A> auto imag(A&& a) { return map_unless_refused<functors::Imag>(std::forward<A>(a)); }
template <FieldArgument A> auto timesI(A&& a) { return map_unless_refused<functors::TimesI>(std::forward<A>(a)); }
template <FieldArgument A> auto timesMinusI(A&& a) {
  return map_unless_refused<functors::TimesMinusI>(std::forward<A>(a));
}
// Element-wise mathematics (dsl/expr/math_functors.hpp): on real fields and real
// tensors entry by entry, vectorised on the cpu backend; exp, log and abs
// also on complex fields. Binary ones take two fields, or a field and a
// constant: pow(rho, 2.0), min(a, b), clamp(phi, -1.0, 1.0).
template <FieldArgument A> auto sqrt(A&& a) { return map_unless_refused<functors::Sqrt>(std::forward<A>(a)); }
template <FieldArgument A> auto abs(A&& a) { return map_unless_refused<functors::Abs>(std::forward<A>(a)); }
template <FieldArgument A> auto exp(A&& a) { return map_unless_refused<functors::Exp>(std::forward<A>(a)); }
template <FieldArgument A> auto log(A&& a) { return map_unless_refused<functors::Log>(std::forward<A>(a)); }
template <FieldArgument A> auto sin(A&& a) { return map_unless_refused<functors::Sin>(std::forward<A>(a)); }
template <FieldArgument A> auto cos(A&& a) { return map_unless_refused<functors::Cos>(std::forward<A>(a)); }
template <FieldArgument A> auto tan(A&& a) { return map_unless_refused<functors::Tan>(std::forward<A>(a)); }
template <FieldArgument A> auto tanh(A&& a) { return map_unless_refused<functors::Tanh>(std::forward<A>(a)); }
template <FieldArgument A> auto floor(A&& a) { return map_unless_refused<functors::Floor>(std::forward<A>(a)); }
template <class A, class B> requires(FieldArgument<A> || FieldArgument<B>)
auto pow(A&& a, B&& b) { return map_unless_refused<functors::Pow>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires(FieldArgument<A> || FieldArgument<B>)
auto atan2(A&& y, B&& x) { return map_unless_refused<functors::Atan2>(std::forward<A>(y), std::forward<B>(x)); }
template <class A, class B> requires(FieldArgument<A> || FieldArgument<B>)
auto min(A&& a, B&& b) { return map_unless_refused<functors::Min>(std::forward<A>(a), std::forward<B>(b)); }
template <class A, class B> requires(FieldArgument<A> || FieldArgument<B>)
auto max(A&& a, B&& b) { return map_unless_refused<functors::Max>(std::forward<A>(a), std::forward<B>(b)); }
template <FieldArgument A, class L, class H>
auto clamp(A&& a, L&& low, H&& high) {
  return map_unless_refused<functors::Clamp>(std::forward<A>(a), std::forward<L>(low), std::forward<H>(high));
}
// |a(x)|^2 and <a(x), b(x)> at every site, before any sum over the lattice.
template <FieldArgument A> auto localNorm2(A&& a) {
  return map_unless_refused<functors::LocalNorm2>(std::forward<A>(a));
}
template <class A, class B> requires(FieldArgument<A> || FieldArgument<B>)
auto localInnerProduct(A&& a, B&& b) {
  if constexpr (site_defined<functors::LocalInnerProduct, A, B>) {
    return map_unless_refused<functors::LocalInnerProduct>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::LocalInnerProduct, A, B>::defined,
                  "Latte: localInnerProduct(a, b) is refused: an inner product is of two values of one kind");
    return RefusedExpression{};
  }
}
// For a batch of right-hand sides: |a_k(x)|^2 and <a_k(x), b_k(x)> for each
// k, a batch of reals or complex numbers at every site; sum() of it gives
// the norm or inner product of every right-hand side from one pass.
template <FieldArgument A> auto rhs_norm2(A&& a) {
  if constexpr (site_defined<functors::RhsNorm2, A>) {
    return map_unless_refused<functors::RhsNorm2>(std::forward<A>(a));
  } else {
    static_assert(site_algebra_of<functors::RhsNorm2, A>::defined,
                  "Latte: rhs_norm2(a) is refused: it is of a batch of right-hand sides only");
    return RefusedExpression{};
  }
}
template <class A, class B> requires(FieldArgument<A> || FieldArgument<B>)
auto rhs_inner_product(A&& a, B&& b) {
  if constexpr (site_defined<functors::RhsInnerProduct, A, B>) {
    return map_unless_refused<functors::RhsInnerProduct>(std::forward<A>(a), std::forward<B>(b));
  } else {
    static_assert(site_algebra_of<functors::RhsInnerProduct, A, B>::defined,
                  "Latte: rhs_inner_product(a, b) is refused: it is of two batches of one kind only");
    return RefusedExpression{};
  }
}

// where(mask, a, b): a where the mask holds, b elsewhere. The mask is a
// comparison (x < y) or a real field that is nonzero where it holds.
template <class M, class A, class B> requires(FieldArgument<M> && Operand<std::remove_cvref_t<A>> &&
                                             Operand<std::remove_cvref_t<B>>)
auto where(M&& mask, A&& a, B&& b) {
  return map_unless_refused<functors::Select>(std::forward<M>(mask), std::forward<A>(a), std::forward<B>(b));
}

// element<I>(f): the I-th element of a vector-valued field (a population f_i,
// a spin component); pack<Vec<...>>(e0, e1, ...) builds one from elements.
template <int I, FieldArgument A> auto element(A&& a) {
  using Operand = std::remove_cvref_t<A>;
  if constexpr (is_lattice_v<Operand>) {
    // Of a stored field: a view of that element's slice of each site record.
    using Site = typename Operand::value_type;
    using Element = typename Site::element_type;
    static_assert(is_vec<Site>::value && I >= 0 && I < Site::size, "element<I> needs a vector site and I in range");
    const auto whole = to_node(std::forward<A>(a));
    constexpr int offset = I * words_v<Element> * Operand::nsimd;
    return FieldView<Element, Operand::nsimd, words_v<Site>>{nullptr, whole.site_layout, whole.memory, offset};
  } else {
    return map_unless_refused<functors::Element<I>>(std::forward<A>(a));
  }
}
template <class VecType, class... A> requires(sizeof...(A) == VecType::size)
auto pack(A&&... elements) {
  return map_unless_refused<functors::Pack<VecType::size, typename VecType::index_kind>>(std::forward<A>(elements)...);
}

}  // namespace latte
