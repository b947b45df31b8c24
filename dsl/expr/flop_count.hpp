#pragma once
// Flops per site of a pointwise functor, counted from its own code.
//
// A functor is generic in its leaf type (it runs on plain reals, SIMD
// vectors and GPU threads alike), so it can also run once on CountedReal, a
// leaf that computes nothing and counts every floating-point operation that
// reaches it. The count is then what the code does, not what a comment says,
// and it follows every change to the code. Conventions, the usual ones of
// lattice flop counts:
//   a + b, a - b, a * b, a / b    1 flop each; fma(x, y, z) 2
//   -a (sign flips), i * z (a swap and a sign flip), conj, adj, transpose,
//   element selection, packing, comparisons and selects: 0
//   sqrt, abs, exp, log, sin, cos, tan, tanh, atan2, pow: 1 (one call of the
//   library's function, as lattice codes count them, not its instructions);
//   floor, min, max: 0
// so a complex multiply is 6, a complex multiply-add 8, SU(3) x colour
// vector 66 (9 multiplies and 6 additions of complex numbers), spin
// projection 12 (6 complex additions) and spin reconstruction 0. Operations
// on compile-time constants that a functor writes as arithmetic on reals
// (V(6.0 * w_i)) are done in double before they become leaves: 0.
//
// A functor that wants another figure (say one that calls code the counter
// cannot follow) declares it:  static constexpr double flops = ...;

#include <cstdint>
#include <type_traits>

#include "lattice/tensors/tensor.hpp"
#include "platform/build.hpp"

namespace latte {

// A leaf that counts. Thread-local tally: counting runs on the calling
// thread, once per functor and site types (counted_flops below caches it).
struct CountedReal {
  CountedReal() = default;
  LATTE_HOST_DEVICE constexpr CountedReal(double) {}  // constants and conversions are free

  static std::int64_t& tally() {
    static thread_local std::int64_t operations = 0;
    return operations;
  }
  // Host and device alike to the compiler, as the code it runs through is;
  // it only ever runs on the host.
  LATTE_HOST_DEVICE static CountedReal counted(int operations) {
#if !defined(__CUDA_ARCH__)
    tally() += operations;
#else
    (void)operations;
#endif
    return {};
  }

  LATTE_HOST_DEVICE friend CountedReal operator+(CountedReal, CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal operator-(CountedReal, CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal operator*(CountedReal, CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal operator/(CountedReal, CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal operator-(CountedReal) { return {}; }
  LATTE_HOST_DEVICE friend CountedReal operator+(CountedReal) { return {}; }
  LATTE_HOST_DEVICE CountedReal& operator+=(CountedReal) { return *this = counted(1); }
  LATTE_HOST_DEVICE CountedReal& operator-=(CountedReal) { return *this = counted(1); }
  LATTE_HOST_DEVICE CountedReal& operator*=(CountedReal) { return *this = counted(1); }
  LATTE_HOST_DEVICE CountedReal& operator/=(CountedReal) { return *this = counted(1); }
  LATTE_HOST_DEVICE friend bool operator<(CountedReal, CountedReal) { return false; }
  LATTE_HOST_DEVICE friend bool operator>(CountedReal, CountedReal) { return false; }
  LATTE_HOST_DEVICE friend bool operator<=(CountedReal, CountedReal) { return false; }
  LATTE_HOST_DEVICE friend bool operator>=(CountedReal, CountedReal) { return false; }
  LATTE_HOST_DEVICE friend bool operator==(CountedReal, CountedReal) { return false; }
  LATTE_HOST_DEVICE friend bool operator!=(CountedReal, CountedReal) { return false; }

  LATTE_HOST_DEVICE friend CountedReal fma(CountedReal, CountedReal, CountedReal) { return counted(2); }
  LATTE_HOST_DEVICE friend CountedReal sqrt(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal abs(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal fabs(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal exp(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal log(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal sin(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal cos(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal acos(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal tan(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal tanh(CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal atan2(CountedReal, CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal pow(CountedReal, CountedReal) { return counted(1); }
  LATTE_HOST_DEVICE friend CountedReal floor(CountedReal) { return {}; }
  LATTE_HOST_DEVICE friend CountedReal min(CountedReal, CountedReal) { return {}; }
  LATTE_HOST_DEVICE friend CountedReal max(CountedReal, CountedReal) { return {}; }
};
template <> struct is_simd_leaf<CountedReal> : std::true_type {};  // a leaf real, as a vector of reals is

template <class F> concept DeclaresFlops = requires { F::flops; };

// Flops of one call of F on site values of types Values... (real leaves).
template <class F, class... Values>
double counted_flops() {
  if constexpr (DeclaresFlops<F>) {
    return static_cast<double>(F::flops);
  } else {
    static const double flops = [] {
      const std::int64_t before = CountedReal::tally();
      (void)F{}(rebind_t<Values, CountedReal>{}...);
      return static_cast<double>(CountedReal::tally() - before);
    }();
    return flops;
  }
}

}  // namespace latte
