#pragma once
// Complex numbers over an arbitrary real "leaf": a plain float/double on the
// per-lane path, or a SIMD vector of reals on the vector path. Real and
// imaginary parts are kept in separate leaves, so a complex vector is two
// registers and the per-lane memory image is [re lanes..., im lanes...].
// std::complex is not used because it cannot hold SIMD leaves and is not
// usable in device code.

#include <cmath>
#include <type_traits>

#include "platform/build.hpp"

namespace latte {

// -x on a real or a SIMD vector of reals. Backends specialise it for their
// vector types so that the optimiser sees a negation it can fold into the
// next addition (a + -b becomes one subtraction, exactly): a vector
// library's negation is usually an opaque xor with the sign bit, which
// stays an extra instruction and an extra live register (the i's of the
// gamma matrices made a third of the Dslash's additions such pairs).
template <class R, class = void>
struct Negation {
  LATTE_INLINE static R of(const R& x) { return -x; }
};
template <class R> LATTE_INLINE R negated(const R& x) { return Negation<R>::of(x); }

template <class R>
struct Complex {
  R re;
  R im;

  Complex() = default;
  LATTE_INLINE constexpr Complex(const R& r, const R& i) : re(r), im(i) {}
  // A real number is a complex number with zero imaginary part; this lets
  // real constants and fields mix with complex ones.
  LATTE_INLINE constexpr Complex(const R& r) : re(r), im(R(0)) {}
  template <class S>
  LATTE_INLINE explicit constexpr Complex(const Complex<S>& other) : re(R(other.re)), im(R(other.im)) {}

  LATTE_INLINE Complex& operator+=(const Complex& b) { re = re + b.re; im = im + b.im; return *this; }
  LATTE_INLINE Complex& operator-=(const Complex& b) { re = re - b.re; im = im - b.im; return *this; }
  LATTE_INLINE Complex& operator*=(const Complex& b) { *this = *this * b; return *this; }

  friend LATTE_INLINE Complex operator+(const Complex& a, const Complex& b) { return {a.re + b.re, a.im + b.im}; }
  friend LATTE_INLINE Complex operator-(const Complex& a, const Complex& b) { return {a.re - b.re, a.im - b.im}; }
  friend LATTE_INLINE Complex operator-(const Complex& a) { return {negated(a.re), negated(a.im)}; }
  friend LATTE_INLINE Complex operator*(const Complex& a, const Complex& b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  friend LATTE_INLINE Complex operator*(const R& s, const Complex& b) { return {s * b.re, s * b.im}; }
  friend LATTE_INLINE Complex operator*(const Complex& a, const R& s) { return {a.re * s, a.im * s}; }
  friend LATTE_INLINE Complex operator/(const Complex& a, const R& s) { return {a.re / s, a.im / s}; }
  friend LATTE_INLINE Complex operator/(const Complex& a, const Complex& b) {
    const R d = b.re * b.re + b.im * b.im;
    return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
  }
};

// c + a * b and c + conj(a) * b, ordered so that each part contracts into two
// fused multiply-adds; acc + a * b would leave a multiply and an add per part
// (contraction may not reassociate).
template <class R>
LATTE_INLINE Complex<R> multiply_add(const Complex<R>& a, const Complex<R>& b, const Complex<R>& c) {
  return {c.re + a.re * b.re - a.im * b.im, c.im + a.re * b.im + a.im * b.re};
}
template <class R>
LATTE_INLINE Complex<R> conj_multiply_add(const Complex<R>& a, const Complex<R>& b, const Complex<R>& c) {
  return {c.re + a.re * b.re + a.im * b.im, c.im + a.re * b.im - a.im * b.re};
}

template <class R> LATTE_INLINE Complex<R> conj(const Complex<R>& z) { return {z.re, negated(z.im)}; }
template <class R> LATTE_INLINE R real(const Complex<R>& z) { return z.re; }
template <class R> LATTE_INLINE R imag(const Complex<R>& z) { return z.im; }
// x * y + z rounded once, on a real or a SIMD vector of reals (the
// backend's fma, found by argument-dependent lookup). The per-site terms of
// reductions are written with it, so that the compiler's freedom to contract
// a * b + c into an FMA, or not, cannot make a scalar and a vector build
// compute different terms: reductions then agree bit for bit across widths
// on machines with FMA (an SSE2 build has none, and differs).
//
// GCC may rewrite fma(x, y, c * d) as fma(c, d, x * y), and does so for
// vector FMAs where it does not for scalar ones; OpaqueValue hides from the
// optimiser that the addend is a product (backends specialise it for their
// vector types; for plain reals it is an empty asm on the register).
template <class R, class = void>
struct OpaqueValue {
  LATTE_INLINE static R of(R x) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
    if constexpr (std::is_arithmetic_v<R>) asm("" : "+x"(x));
#endif
    return x;
  }
};

// x * y + z with one rounding. For plain reals std::fma; backends
// specialise it for their vector types, because a library's vector fma may be
// x * y + z, which only becomes one instruction if the compiler chooses to
// contract it (xsimd 8.1 has no AVX-512 or SSE4.2 fma, and a sanitizer build
// or -ffp-contract=off does not contract).
template <class R, class = void>
struct RoundedOnceMultiplyAdd {
  LATTE_INLINE static R of(const R& x, const R& y, const R& z) {
    using std::fma;
    return fma(x, y, z);
  }
};

template <class R>
LATTE_INLINE R fused_multiply_add(const R& x, const R& y, const R& z) {
  return RoundedOnceMultiplyAdd<R>::of(x, y, OpaqueValue<R>::of(z));
}

// |z|^2, the local contribution to norm2.
template <class R> LATTE_INLINE R localNorm2(const Complex<R>& z) { return fused_multiply_add(z.re, z.re, z.im * z.im); }
// i*z and -i*z: sign flips and swaps, never a multiplication (these are what
// gamma matrices reduce to).
template <class R> LATTE_INLINE Complex<R> timesI(const Complex<R>& z) { return {negated(z.im), z.re}; }
template <class R> LATTE_INLINE Complex<R> timesMinusI(const Complex<R>& z) { return {z.im, negated(z.re)}; }

using ComplexD = Complex<double>;
using ComplexF = Complex<float>;

}  // namespace latte
