#pragma once
// Element-wise mathematics on site values: the functors behind exp(a),
// log(a), sqrt(a), sin, cos, tan, tanh, floor, abs, pow(a, b), atan2(a, b),
// min, max and clamp (dsl/expr/functions.hpp).
//
// On a real leaf each calls the library function by unqualified name after
// `using std::name`: a plain real (the simt backend, CUDA threads) takes the
// standard library's, an xsimd vector (the cpu backend) xsimd's vectorised
// one, found by argument-dependent lookup, and the flop counter its own
// (dsl/expr/flop_count.hpp). Write your own functors the same way: `using
// std::exp; return exp(x);` works on every leaf type, `std::exp(x)` only on
// plain reals.
//
// A real tensor (a vector or matrix of reals) takes the function entry by
// entry. On complex values exp, log and abs are the complex functions (abs:
// the modulus, a real); the others are not defined on complex numbers here
// and stop the compilation with one line that says so. Binary functions
// take two values of one type, or a tensor and a real (a constant is
// broadcast into the statement's precision and leaf type first).

#include <cmath>
#include <type_traits>

#include "lattice/tensors/complex.hpp"
#include "lattice/tensors/tensor.hpp"
#include "platform/build.hpp"

namespace latte {

// Whether a site value holds complex numbers anywhere.
template <class T> struct holds_complex : std::false_type {};
template <class R> struct holds_complex<Complex<R>> : std::true_type {};
template <class E, int N, class I> struct holds_complex<Vec<E, N, I>> : holds_complex<E> {};
template <class E, int N, class I> struct holds_complex<Mat<E, N, I>> : holds_complex<E> {};
template <class T> inline constexpr bool holds_complex_v = holds_complex<T>::value;

namespace math_detail {

// f on corresponding real leaves of a and b: two values of one type (or two
// leaves), or a tensor and a real leaf. (One value: transform_leaves.)
template <class A, class B, class F>
LATTE_INLINE auto leafwise(const A& a, const B& b, F f) {
  if constexpr (std::is_same_v<A, B>) {
    return transform_leaves<A>(f, a, b);
  } else if constexpr (RealLeaf<B>) {
    return transform_leaves<A>([&](const auto& x) LATTE_LAMBDA { return f(x, b); }, a);
  } else {
    static_assert(RealLeaf<A>, "Latte: a binary math function takes two values of one type, or a value and a real");
    return transform_leaves<B>([&](const auto& y) LATTE_LAMBDA { return f(a, y); }, b);
  }
}

}  // namespace math_detail

namespace functors {

// Each real function refuses complex values in one line.
#define LATTE_REAL_FUNCTION(Functor, function)                                                                    \
  struct Functor {                                                                                               \
    static constexpr const char* name = #function;                                                                \
    template <class A>                                                                                           \
    LATTE_INLINE A operator()(const A& a) const {                                                                \
      static_assert(!holds_complex_v<A>, "Latte: " #function "(...) is defined here on real values only, not on " \
                                         "complex ones (write it from real(z) and imag(z))");                    \
      return transform_leaves<A>([](const auto& x) LATTE_LAMBDA {                                                \
        using std::function;                                                                                     \
        return function(x);                                                                                      \
      }, a);                                                                                                     \
    }                                                                                                            \
  };
LATTE_REAL_FUNCTION(Sqrt, sqrt)
LATTE_REAL_FUNCTION(Sin, sin)
LATTE_REAL_FUNCTION(Cos, cos)
LATTE_REAL_FUNCTION(Tan, tan)
LATTE_REAL_FUNCTION(Tanh, tanh)
LATTE_REAL_FUNCTION(Floor, floor)
#undef LATTE_REAL_FUNCTION

#define LATTE_REAL_BINARY_FUNCTION(Functor, function)                                                          \
  struct Functor {                                                                                            \
    static constexpr const char* name = #function;                                                             \
    template <class A, class B>                                                                               \
    LATTE_INLINE auto operator()(const A& a, const B& b) const {                                              \
      static_assert(!holds_complex_v<A> && !holds_complex_v<B>,                                               \
                    "Latte: " #function "(...) is defined here on real values only, not on complex ones");     \
      return math_detail::leafwise(a, b, [](const auto& x, const auto& y) LATTE_LAMBDA {                      \
        using std::function;                                                                                  \
        return function(x, y);                                                                                \
      });                                                                                                     \
    }                                                                                                         \
  };
LATTE_REAL_BINARY_FUNCTION(Pow, pow)
LATTE_REAL_BINARY_FUNCTION(Atan2, atan2)
LATTE_REAL_BINARY_FUNCTION(Min, min)
LATTE_REAL_BINARY_FUNCTION(Max, max)
#undef LATTE_REAL_BINARY_FUNCTION

// clamp(x, low, high) = min(max(x, low), high).
struct Clamp {
  static constexpr const char* name = "clamp";
  template <class A, class L, class H>
  LATTE_INLINE auto operator()(const A& a, const L& low, const H& high) const {
    return Min{}(Max{}(a, low), high);
  }
};

// The three that are also complex functions. On a tensor of complex numbers
// they are refused: the exponential of a matrix is not the exponential of
// its entries, and a silent entry-wise one would be a trap.
struct Exp {
  static constexpr const char* name = "exp";
  template <class A>
  LATTE_INLINE A operator()(const A& a) const {
    using std::cos;
    using std::exp;
    using std::sin;
    if constexpr (is_complex_v<A>) {
      // e^(x + iy) = e^x (cos y + i sin y)
      const auto modulus = exp(a.re);
      return A(modulus * cos(a.im), modulus * sin(a.im));
    } else {
      static_assert(!holds_complex_v<A>, "Latte: exp(...) of a tensor of complex numbers is not taken entry by entry "
                                         "(a matrix exponential is not that); write the function you mean");
      return transform_leaves<A>([](const auto& x) LATTE_LAMBDA { return exp(x); }, a);
    }
  }
};
struct Log {
  static constexpr const char* name = "log";
  template <class A>
  LATTE_INLINE A operator()(const A& a) const {
    using std::atan2;
    using std::log;
    using std::sqrt;
    if constexpr (is_complex_v<A>) {
      // The principal value: log|z| + i arg z, arg in (-pi, pi].
      return A(log(sqrt(localNorm2(a))), atan2(a.im, a.re));
    } else {
      static_assert(!holds_complex_v<A>, "Latte: log(...) of a tensor of complex numbers is not taken entry by entry; "
                                         "write the function you mean");
      return transform_leaves<A>([](const auto& x) LATTE_LAMBDA { return log(x); }, a);
    }
  }
};
// |x| of reals entry by entry; the modulus |z| (a real) of a complex number.
struct Abs {
  static constexpr const char* name = "abs";
  template <class A>
  LATTE_INLINE auto operator()(const A& a) const {
    using std::abs;
    using std::sqrt;
    if constexpr (is_complex_v<A>) {
      return sqrt(localNorm2(a));
    } else {
      static_assert(!holds_complex_v<A>, "Latte: abs(...) of a tensor of complex numbers is not defined here; "
                                         "sqrt(localNorm2(...)) is its norm");
      return transform_leaves<A>([](const auto& x) LATTE_LAMBDA { return abs(x); }, a);
    }
  }
};

}  // namespace functors
}  // namespace latte
