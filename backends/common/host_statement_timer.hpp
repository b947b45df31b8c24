#pragma once
// The statement profile's clock and STREAM reference on backends whose
// statements run on the host and are done when they return (cpu, simt):
// wall time around the statement, and a triad measured by a plain loop.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>

namespace latte::backend {

class HostStatementTimer {
 public:
  HostStatementTimer() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

// STREAM triad a = b + s c over three arrays of 2^24 doubles (128 MiB each,
// far beyond any cache), every thread on its own slice as statements are
// split, first touched by the thread that uses it. The best of five passes,
// counting 24 bytes per element (no write-allocate), as STREAM does.
inline double host_stream_triad_gbytes_per_s() {
  constexpr std::ptrdiff_t n = std::ptrdiff_t(1) << 24;
  const std::unique_ptr<double[]> a(new double[n]), b(new double[n]), c(new double[n]);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = 1;
    c[i] = 2;
  }
  double best = 1e300;
  for (int pass = 0; pass < 5; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    double* __restrict x = a.get();
    const double* __restrict y = b.get();
    const double* __restrict z = c.get();
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) x[i] = y[i] + 3.0 * z[i];
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return 24.0 * static_cast<double>(n) / best * 1e-9;
}

}  // namespace latte::backend
