#pragma once
// Host-side parallel loops. Static scheduling keeps the site-to-thread map
// the same in every statement, so first-touch placement and caches line up
// from one statement to the next.

#include <cstdint>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace latte {

template <class F>
void parallel_for(std::int64_t count, F&& body) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) body(i);
}

// body(mine, i) for every i, each thread into its own copy of `start`, the
// copies then merged into the result in whatever order threads finish: for
// accumulators whose merge does not depend on order (the reductions').
template <class Accumulator, class Body, class Merge>
Accumulator parallel_accumulate(std::int64_t count, const Accumulator& start, Body&& body, Merge&& merge) {
  Accumulator total = start;
#pragma omp parallel
  {
    Accumulator mine = start;
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < count; ++i) body(mine, i);
#pragma omp critical(latte_parallel_accumulate)
    merge(total, mine);
  }
  return total;
}

// Threads the host loops use (benchmarks report it).
inline int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace latte
