#pragma once
// Deterministic reductions: outer sites are cut into fixed blocks, each block
// is reduced in site order, and block results are combined in block order.
// Nothing depends on the number of threads, so a given layout gives the same
// bits on every run and every thread count.

#include <cstdint>
#include <algorithm>
#include <type_traits>
#include <vector>

#include "backends/config.hpp"
#include "lattice/tensor.hpp"

namespace latte {

inline constexpr std::int64_t reduction_block_sites = 128;

inline std::int64_t reduction_blocks(std::int64_t outer_volume) {
  return (outer_volume + reduction_block_sites - 1) / reduction_block_sites;
}

// How partial results combine, leaf by leaf.
struct SumCombine {
  template <class X> LATTE_INLINE static X leaf(const X& a, const X& b) { return a + b; }
};
struct MaxCombine {
  template <class X> LATTE_INLINE static X leaf(const X& a, const X& b) {
    using std::max;
    return max(a, b);
  }
};
struct MinCombine {
  template <class X> LATTE_INLINE static X leaf(const X& a, const X& b) {
    using std::min;
    return min(a, b);
  }
};

template <class Combine, class T>
LATTE_INLINE T combine(const T& a, const T& b) {
  return transform_leaves<T>([](const auto& x, const auto& y) LATTE_LAMBDA { return Combine::leaf(x, y); }, a, b);
}

// Combine block results in block order.
template <class Combine, class Result>
Result combine_blocks(const std::vector<Result>& partial) {
  Result total = partial[0];
  for (std::size_t b = 1; b < partial.size(); ++b) total = combine<Combine>(total, partial[b]);
  return total;
}

}  // namespace latte
