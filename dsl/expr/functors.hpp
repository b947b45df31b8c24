#pragma once
// The pointwise functors Map applies. Each is stateless and works on any
// site tensor with scalar or SIMD leaves; the calls are unqualified so that
// the site-level overloads (lattice/tensors/tensor_ops.hpp) and, for SIMD leaves,
// the backend's vector functions are found by argument-dependent lookup.
// The return types name the site operation (-> decltype(a * b)), so that a
// call the site algebra does not define is no candidate rather than an error
// inside the body: dsl/expr/site_algebra_check.hpp asks that question of them.
// Each also says how a statement's name writes it (dsl/expr/statement_model.hpp):
// an infix symbol and its precedence, or a name; its flops are counted from
// its code (dsl/expr/flop_count.hpp).

#include <cmath>
#include <type_traits>

#include "dsl/expr/math_functors.hpp"
#include "lattice/tensors/tensor_ops.hpp"
#include "platform/build.hpp"

namespace latte::functors {

struct Plus {
  static constexpr const char* infix = " + ";
  static constexpr int precedence = 1;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a + b) { return a + b; }
};
struct Minus {
  static constexpr const char* infix = " - ";
  static constexpr int precedence = 1;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a - b) { return a - b; }
};
struct Times {
  static constexpr const char* infix = " * ";
  static constexpr int precedence = 2;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a * b) { return a * b; }
};
struct Divide {
  static constexpr const char* infix = " / ";
  static constexpr int precedence = 2;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a / b) { return a / b; }
};
struct Negate {
  static constexpr const char* infix = "-";
  static constexpr int precedence = 3;
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(-a) { return -a; }
};

// adj(a) * b without forming adj(a): the left operand is read transposed.
struct AdjTimes {
  static constexpr const char* name = "adj_times";
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(adj_times(a, b)) { return adj_times(a, b); }
};
struct Conj {
  static constexpr const char* name = "conj";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(conj(a)) { return conj(a); }
};
struct Adj {
  static constexpr const char* name = "adj";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(adj(a)) { return adj(a); }
};
struct Transpose {
  static constexpr const char* name = "transpose";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(transpose(a)) { return transpose(a); }
};
struct Trace {
  static constexpr const char* name = "trace";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(trace(a)) { return trace(a); }
};
struct Real {
  static constexpr const char* name = "real";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(real(a)) { return real(a); }
};
struct Imag {
  static constexpr const char* name = "imag";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(imag(a)) { return imag(a); }
};
struct TimesI {
  static constexpr const char* name = "i";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(timesI(a)) { return timesI(a); }
};
struct TimesMinusI {
  static constexpr const char* name = "-i";
  template <class A>
  LATTE_INLINE auto operator()(const A& a) const -> decltype(timesMinusI(a)) { return timesMinusI(a); }
};
struct LocalNorm2 {
  static constexpr const char* name = "norm2";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(localNorm2(a)) { return localNorm2(a); }
};
struct LocalInnerProduct {
  static constexpr const char* name = "inner";
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(localInnerProduct(a, b)) {
    return localInnerProduct(a, b);
  }
};
// The same for each right-hand side of a batch separately.
struct RhsNorm2 {
  static constexpr const char* name = "rhs_norm2";
  template <class A> LATTE_INLINE auto operator()(const A& a) const -> decltype(rhs_norm2(a)) { return rhs_norm2(a); }
};
struct RhsInnerProduct {
  static constexpr const char* name = "rhs_inner";
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(rhs_inner_product(a, b)) {
    return rhs_inner_product(a, b);
  }
};

struct Less {
  static constexpr const char* infix = " < ";
  static constexpr int precedence = 0;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a < b) { return a < b; }
};
struct Greater {
  static constexpr const char* infix = " > ";
  static constexpr int precedence = 0;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a > b) { return a > b; }
};
struct LessEqual {
  static constexpr const char* infix = " <= ";
  static constexpr int precedence = 0;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a <= b) { return a <= b; }
};
struct GreaterEqual {
  static constexpr const char* infix = " >= ";
  static constexpr int precedence = 0;
  template <class A, class B>
  LATTE_INLINE auto operator()(const A& a, const B& b) const -> decltype(a >= b) { return a >= b; }
};

// where(mask, a, b): the mask is either a comparison result (bool or a SIMD
// mask) or a real field read as "nonzero is true", so a stored 0/1 mask
// field works directly.
template <class M> LATTE_INLINE auto as_mask(const M& m) {
  if constexpr (std::is_same_v<decltype(m != m), M>) return m;  // already a mask
  else return m != M(0);
}
template <class M, class T> LATTE_INLINE T select_leaf(const M& mask, const T& a, const T& b) {
  if constexpr (std::is_same_v<M, bool>) return mask ? a : b;
  else return select(mask, a, b);  // the backend's vector select, found by ADL
}
struct Select {
  static constexpr const char* name = "where";
  template <class M, class A, class B>
  LATTE_INLINE A operator()(const M& m, const A& a, const B& b) const {
    static_assert(std::is_same_v<A, B>, "Latte: where(mask, a, b) needs a and b of the same site type");
    const auto mask = as_mask(m);
    return transform_leaves<A>([&](const auto& x, const auto& y) LATTE_LAMBDA { return select_leaf(mask, x, y); }, a, b);
  }
};

// The I-th element of a vector site tensor (f_i of LB populations, a spin
// component of a spinor).
template <int I> struct Element {
  static constexpr int element_index = I;
  template <class A> LATTE_INLINE auto operator()(const A& a) const { return a.v[I]; }
};
// Build a vector site tensor from its elements.
template <int N, class Index> struct Pack {
  static constexpr const char* name = "pack";
  template <class... A> LATTE_INLINE auto operator()(const A&... a) const {
    using E = std::common_type_t<A...>;
    return Vec<E, N, Index>{{a...}};
  }
};

}  // namespace latte::functors
