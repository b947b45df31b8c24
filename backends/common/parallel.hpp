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

// Threads the host loops use (benchmarks report it).
inline int host_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace latte
