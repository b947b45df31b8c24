#pragma once
// Reductions: how the values of sites combine, leaf by leaf, into one
// result. Each combine names the accumulator a double leaf goes into and
// how accumulators merge; every backend accumulates site values with
// add(), merges partial accumulators with merge() in any grouping it likes,
// and the rank-local accumulators of a statement are merged over the ranks
// before value() gives the result.
//
// None of them depends on the order of its terms, so a reduction gives the
// same bits for any number of ranks, process grid, SIMD width, thread count
// and backend:
//  - sums go into a ReproducibleSum (binned, exact to 80 bits below the
//    largest term, rounded once);
//  - maxima and minima are exact; NaN wins over any number, and +0 beats -0
//    for the maximum (-0 for the minimum), whichever comes first.
// Backends still cut outer sites into fixed blocks (reduction_block_sites)
// so that SIMD and thread-local partials stay small.

#include <cstdint>
#include <limits>

#include "lattice/tensors/tensor.hpp"
#include "platform/build.hpp"
#include "platform/reproducible_sum.hpp"

namespace latte {

inline constexpr std::int64_t reduction_block_sites = 128;

inline std::int64_t reduction_blocks(std::int64_t sites) {
  return (sites + reduction_block_sites - 1) / reduction_block_sites;
}

struct SumCombine {
  using accumulator = ReproducibleSum;
  LATTE_INLINE static accumulator start() { return {}; }
  LATTE_INLINE static void add(accumulator& a, double x) { a.add(x); }
  LATTE_INLINE static void merge(accumulator& a, const accumulator& b) { a.merge(b); }
  static double value(const accumulator& a) { return a.value(); }
};

// The larger of a and b whatever their order (x may be a real or a SIMD vector).
template <class X>
LATTE_INLINE X ordered_max(const X& a, const X& b) {
  if constexpr (std::is_arithmetic_v<X>) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == b) return a == 0 ? a + b : a;  // +0 + -0 = +0
    return a > b ? a : b;
  } else {
    X r = select(a > b, a, b);
    r = select((a == b) & (a == X(0)), a + b, r);
    r = select(b != b, b, r);
    return select(a != a, a, r);
  }
}
template <class X>
LATTE_INLINE X ordered_min(const X& a, const X& b) {
  return -ordered_max(-a, -b);
}

struct MaxCombine {
  using accumulator = double;
  LATTE_INLINE static accumulator start() { return -std::numeric_limits<double>::infinity(); }
  LATTE_INLINE static void add(accumulator& a, double x) { a = ordered_max(a, x); }
  LATTE_INLINE static void merge(accumulator& a, const accumulator& b) { a = ordered_max(a, b); }
  template <class X> LATTE_INLINE static X leaf(const X& a, const X& b) { return ordered_max(a, b); }
  static double value(const accumulator& a) { return a; }
};
struct MinCombine {
  using accumulator = double;
  LATTE_INLINE static accumulator start() { return std::numeric_limits<double>::infinity(); }
  LATTE_INLINE static void add(accumulator& a, double x) { a = ordered_min(a, x); }
  LATTE_INLINE static void merge(accumulator& a, const accumulator& b) { a = ordered_min(a, b); }
  template <class X> LATTE_INLINE static X leaf(const X& a, const X& b) { return ordered_min(a, b); }
  static double value(const accumulator& a) { return a; }
};

// ---- the same, for site tensors of values ------------------------------------------
// accumulator_t<Combine, V>: one accumulator per leaf of the site value V.
template <class Combine, class V> using accumulator_t = rebind_t<V, typename Combine::accumulator>;

template <class Combine, class A>
LATTE_INLINE A start_accumulator() {
  A a;
  for_each_leaf([](auto& leaf) LATTE_LAMBDA { leaf = Combine::start(); }, a);
  return a;
}

template <class Combine, class A, class V>
LATTE_INLINE void accumulate(A& a, const V& value) {
  for_each_leaf([](auto& acc, const auto& x) LATTE_LAMBDA { Combine::add(acc, static_cast<double>(x)); }, a, value);
}

template <class Combine, class A>
LATTE_INLINE void merge_accumulators(A& a, const A& b) {
  for_each_leaf([](auto& x, const auto& y) LATTE_LAMBDA { Combine::merge(x, y); }, a, b);
}

// The result in double precision: the site value's shape with double leaves.
template <class Combine, class A>
auto accumulated_value(const A& a) {
  using Result = rebind_t<A, double>;
  Result r;
  for_each_leaf([](double& out, const auto& acc) { out = Combine::value(acc); }, r, a);
  return r;
}

}  // namespace latte
