#pragma once
// A STREAM-style bandwidth probe that every benchmark binary runs beside its
// kernels, so that "fraction of STREAM" compares two figures taken on the
// same noisy shared machine within seconds of each other.
//
// It is deliberately a yardstick for what the DSL itself does, not for the
// machine's absolute best: plain loops with ordinary (write-allocate) stores,
// static OpenMP schedule, first touch in that same schedule, and memory on
// 2 MiB-aligned blocks advised for transparent huge pages as Latte's fields
// are. A non-temporal-store STREAM was ~30% faster here (TOOLCHAIN.md) and would make
// every DSL kernel look worse for a reason that has nothing to do with the DSL.
//
// Byte counts follow STREAM: copy c = a moves 16 B/element, triad
// a = b + s*c moves 24 B/element (write-allocate traffic is not counted, in
// STREAM or in the kernels' minimal-traffic models alike).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace latte::bench {

struct StreamOptions {
  std::size_t elements = std::size_t(1) << 26;  // per array: 512 MiB of doubles, far beyond any cache
  int repetitions = 10;                          // best of these is reported
  bool huge_pages = true;                        // match platform/memory/aligned_buffer.hpp
};

struct StreamResult {
  double copy_gbytes_per_s = 0;   // 1e9 bytes/s
  double triad_gbytes_per_s = 0;  // 1e9 bytes/s
  double copy_seconds = 0;        // best single pass
  double triad_seconds = 0;       // best single pass
  std::size_t elements = 0;
  int repetitions = 0;
  int threads = 1;
};

// STREAM's byte counts: copy 16 B and triad 24 B per element.
inline StreamResult stream_result(std::size_t elements, double copy_seconds, double triad_seconds, int repetitions,
                                  int threads) {
  const double n = static_cast<double>(elements);
  StreamResult result;
  result.copy_gbytes_per_s = 16.0 * n / copy_seconds * 1e-9;
  result.triad_gbytes_per_s = 24.0 * n / triad_seconds * 1e-9;
  result.copy_seconds = copy_seconds;
  result.triad_seconds = triad_seconds;
  result.elements = elements;
  result.repetitions = repetitions;
  result.threads = threads;
  return result;
}

// The processes that measure together. Under mpirun every rank runs its own
// probe at the same moment (started together by a barrier); a pass takes as
// long as the slowest rank's, and the bandwidth counts every rank's bytes:
// the machine's bandwidth as the ranks share it, as a decomposed kernel
// uses it.
struct ProbeTeam {
  int members = 1;
  std::function<void()> barrier = [] {};
  std::function<double(double)> slowest = [](double seconds) { return seconds; };
};

// The best copy and triad passes over a probe's life.
struct BestPasses {
  double copy = std::numeric_limits<double>::infinity();
  double triad = std::numeric_limits<double>::infinity();
  int repetitions = 0;
  void add(double copy_seconds, double triad_seconds, int passes) {
    copy = std::min(copy, copy_seconds);
    triad = std::min(triad, triad_seconds);
    repetitions += passes;
  }
};

namespace detail {

// One probe array. Its own allocation (not latte::AlignedBuffer) so that the
// yardstick stays independent of the library it judges.
class ProbeArray {
 public:
  ProbeArray(std::size_t n, bool huge_pages) : size_(n) {
    constexpr std::size_t huge = std::size_t(2) << 20;
    const std::size_t bytes = (n * sizeof(double) + huge - 1) / huge * huge;
    data_ = static_cast<double*>(std::aligned_alloc(huge, bytes));
    if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge_pages) madvise(data_, bytes, MADV_HUGEPAGE);
#else
    (void)huge_pages;
#endif
  }
  ProbeArray(const ProbeArray&) = delete;
  ProbeArray& operator=(const ProbeArray&) = delete;
  ~ProbeArray() { std::free(data_); }
  double* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  double* data_;
  std::size_t size_;
};

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline int probe_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace detail

// Owns the three arrays (first-touched once) so that a benchmark can run
// STREAM passes between its kernel repetitions without reallocating: on a
// shared machine whose available bandwidth changes from second to second,
// only measurements interleaved in time see the same machine.
class StreamProbe {
 public:
  explicit StreamProbe(const StreamOptions& options = {}, ProbeTeam team = {})
      : options_(options),
        team_(std::move(team)),
        a_(checked(options).elements, options.huge_pages),
        b_(options.elements, options.huge_pages),
        c_(options.elements, options.huge_pages) {
    const auto n = static_cast<std::ptrdiff_t>(options.elements);
    double *const a = a_.data(), *const b = b_.data(), *const c = c_.data();
    // First touch in the timed loops' schedule places each page where the
    // thread that streams it runs (one NUMA node here, but not everywhere).
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      a[i] = 1.0;
      b[i] = 1.0;
      c[i] = 0.0;
    }
  }

  // repetitions x (copy, triad); returns the best of these passes alone.
  // Throws std::runtime_error if the arrays do not hold the expected values
  // afterwards (which also keeps the compiler from discarding the loops).
  StreamResult measure(int repetitions) {
    const auto n = static_cast<std::ptrdiff_t>(options_.elements);
    double *const a = a_.data(), *const b = b_.data(), *const c = c_.data();
    double best_copy = std::numeric_limits<double>::infinity();
    double best_triad = std::numeric_limits<double>::infinity();
    for (int rep = 0; rep < repetitions; ++rep) {
      team_.barrier();
      double t0 = detail::now_seconds();
      // GCC 12 keeps this a vector loop (checked with objdump); were it
      // turned into a memcpy call, glibc would use non-temporal stores at
      // these sizes and the probe would no longer be like-for-like.
#pragma omp parallel for schedule(static)
      for (std::ptrdiff_t i = 0; i < n; ++i) c[i] = a[i];
      best_copy = std::min(best_copy, team_.slowest(detail::now_seconds() - t0));

      team_.barrier();
      t0 = detail::now_seconds();
#pragma omp parallel for schedule(static)
      for (std::ptrdiff_t i = 0; i < n; ++i) a[i] = b[i] + scale * c[i];
      best_triad = std::min(best_triad, team_.slowest(detail::now_seconds() - t0));

      expected_c_ = expected_a_;
      expected_a_ = 1.0 + scale * expected_c_;
    }
    for (std::ptrdiff_t i : {std::ptrdiff_t(0), n / 2, n - 1})
      if (a[i] != expected_a_ || c[i] != expected_c_ || b[i] != 1.0)
        throw std::runtime_error("stream_probe: wrong values at element " + std::to_string(i));

    best_.add(best_copy, best_triad, repetitions);
    return make_result(best_copy, best_triad, repetitions);
  }
  StreamResult measure() { return measure(options_.repetitions); }

  // The best passes over every measure() call so far.
  StreamResult best() const { return make_result(best_.copy, best_.triad, best_.repetitions); }
  const StreamOptions& options() const { return options_; }

 private:
  // s = 1/2 makes a -> b / (1 - s) = 2 converge instead of growing, so any
  // repetition count stays finite; scaling by 1/2 is exact, so the expected
  // values are exact with or without FMA contraction.
  static constexpr double scale = 0.5;

  static const StreamOptions& checked(const StreamOptions& options) {
    if (options.elements == 0 || options.repetitions < 1)
      throw std::invalid_argument("stream_probe: need at least one element and one repetition");
    return options;
  }

  StreamResult make_result(double copy_seconds, double triad_seconds, int repetitions) const {
    return stream_result(options_.elements * static_cast<std::size_t>(team_.members), copy_seconds, triad_seconds,
                         repetitions, detail::probe_threads());
  }

  StreamOptions options_;
  ProbeTeam team_;
  detail::ProbeArray a_, b_, c_;
  double expected_a_ = 1.0, expected_c_ = 0.0;
  BestPasses best_;
};

// One-shot probe: allocate, first-touch, best of options.repetitions passes.
inline StreamResult stream_probe(const StreamOptions& options = {}) { return StreamProbe(options).measure(); }

}  // namespace latte::bench
