#pragma once
// Host-side parallel loops. Static scheduling keeps the site-to-thread map
// the same in every statement, so first-touch placement and caches line up
// from one statement to the next.

#include <cstdint>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace latte {

// A loop that moves fewer bytes than this runs on the calling thread alone
// (`team` false below: OpenMP's if clause, no team woken): starting a team
// costs more than such a loop's work, many times more where the threads
// sleep between loops (OMP_WAIT_POLICY=passive) or share their cores with
// other work. A lattice-Boltzmann step of a two-component mixture on 8 x 64
// sites took 5.5x as long on 2 threads as on 1 (test_lbm, Zen 5 VM,
// 2026-12-04, the other core compiling). The statements decide from their
// shape (backends/common/traversal.hpp); the bits never depend on it, as
// they never depend on the number of threads. Tests that check the latter
// set it to 0 so that their small lattices still run on every thread.
inline std::int64_t& team_above_bytes() {
  static std::int64_t bytes = std::int64_t(128) << 10;
  return bytes;
}
inline bool worth_a_team(std::int64_t bytes) { return bytes >= team_above_bytes(); }

template <class F>
void parallel_for(std::int64_t count, F&& body, bool team = true) {
#pragma omp parallel for schedule(static) if (team)
  for (std::int64_t i = 0; i < count; ++i) body(i);
}

// body(mine, i) for every i, each thread into its own copy of `start`, the
// copies then merged into the result in whatever order threads finish: for
// accumulators whose merge does not depend on order (the reductions').
template <class Accumulator, class Body, class Merge>
Accumulator parallel_accumulate(std::int64_t count, const Accumulator& start, Body&& body, Merge&& merge,
                                bool team = true) {
  Accumulator total = start;
#pragma omp parallel if (team)
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
