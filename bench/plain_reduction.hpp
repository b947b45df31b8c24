#pragma once
// The yardstick for reductions: a plain OpenMP sum of a field's reals with
// ordinary floating-point adds, in whatever order the threads produce them.
// It is what a reduction costs without reproducibility; Latte's reductions
// give the same bits for any number of ranks, SIMD width and thread count
// (platform/reproducible_sum.hpp), and the benchmark shows the price.

#include <cstddef>

namespace latte::bench {

inline double plain_sum(const double* data, std::size_t count) {
  double total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (std::size_t i = 0; i < count; ++i) total += data[i];
  return total;
}

inline double plain_norm2(const double* data, std::size_t count) {
  double total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (std::size_t i = 0; i < count; ++i) total += data[i] * data[i];
  return total;
}

}  // namespace latte::bench
