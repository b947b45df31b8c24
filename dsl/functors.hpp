#pragma once
// The pointwise functors Map applies. Each is stateless and works on any
// site tensor with scalar or SIMD leaves; the calls are unqualified so that
// the site-level overloads (lattice/tensor_ops.hpp) and, for SIMD leaves,
// the backend's vector functions are found by argument-dependent lookup.

#include <cmath>
#include <type_traits>

#include "backends/config.hpp"
#include "lattice/tensor_ops.hpp"

namespace latte::functors {

struct Plus { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a + b; } };
struct Minus { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a - b; } };
struct Times { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a * b; } };
struct Divide { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a / b; } };
struct Negate { template <class A> LATTE_INLINE auto operator()(const A& a) const { return -a; } };

// adj(a) * b without forming adj(a): the left operand is read transposed.
struct AdjTimes {
  template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return adj_times(a, b); }
};
struct Conj { template <class A> LATTE_INLINE auto operator()(const A& a) const { return conj(a); } };
struct Adj { template <class A> LATTE_INLINE auto operator()(const A& a) const { return adj(a); } };
struct Transpose { template <class A> LATTE_INLINE auto operator()(const A& a) const { return transpose(a); } };
struct Trace { template <class A> LATTE_INLINE auto operator()(const A& a) const { return trace(a); } };
struct Real { template <class A> LATTE_INLINE auto operator()(const A& a) const { return real(a); } };
struct Imag { template <class A> LATTE_INLINE auto operator()(const A& a) const { return imag(a); } };
struct TimesI { template <class A> LATTE_INLINE auto operator()(const A& a) const { return timesI(a); } };
struct TimesMinusI { template <class A> LATTE_INLINE auto operator()(const A& a) const { return timesMinusI(a); } };
struct LocalNorm2 { template <class A> LATTE_INLINE auto operator()(const A& a) const { return localNorm2(a); } };
struct LocalInnerProduct {
  template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return localInnerProduct(a, b); }
};

struct Sqrt {
  template <class A> LATTE_INLINE A operator()(const A& a) const {
    using std::sqrt;
    return sqrt(a);
  }
};
struct Abs {
  template <class A> LATTE_INLINE A operator()(const A& a) const {
    using std::abs;
    return abs(a);
  }
};

struct Less { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a < b; } };
struct Greater { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a > b; } };
struct LessEqual { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a <= b; } };
struct GreaterEqual { template <class A, class B> LATTE_INLINE auto operator()(const A& a, const B& b) const { return a >= b; } };

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
  template <class A> LATTE_INLINE auto operator()(const A& a) const { return a.v[I]; }
};
// Build a vector site tensor from its elements.
template <int N, class Index> struct Pack {
  template <class... A> LATTE_INLINE auto operator()(const A&... a) const {
    using E = std::common_type_t<A...>;
    return Vec<E, N, Index>{{a...}};
  }
};

}  // namespace latte::functors
