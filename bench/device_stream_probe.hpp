#pragma once
// The device counterpart of bench/stream_probe.hpp for the cuda backend:
// STREAM copy and triad over three arrays in device memory, timed with CUDA
// events, best pass reported. Same byte counts as STREAM (16 and 24 bytes per
// element), same interface, so bench/session.hpp uses either. Arrays of
// 2^27 doubles (1 GiB each) are 20 times an H100's 50 MB L2 cache.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include "bench/stream_probe.hpp"
#include "platform/cuda/cuda_error.hpp"

namespace latte::bench {

namespace detail {
template <class Real>
__global__ void device_copy(Real* c, const Real* a, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
template <class Real>
__global__ void device_triad(Real* a, const Real* b, const Real* c, Real s, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
template <class Real>
__global__ void device_fill(Real* p, Real value, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}
}  // namespace detail

class DeviceStreamProbe {
 public:
  static StreamOptions device_defaults(StreamOptions options) {
    if (options.elements == StreamOptions{}.elements) options.elements = std::size_t(1) << 27;
    return options;
  }

  // One device per process: a team of ranks (each with its own GPU) is
  // measured by each rank for its own device.
  explicit DeviceStreamProbe(const StreamOptions& options = {}, const ProbeTeam& = {})
      : options_(device_defaults(options)) {
    const std::size_t bytes = options_.elements * sizeof(double);
    a_ = static_cast<double*>(cuda::allocate(bytes, "the device STREAM probe"));
    b_ = static_cast<double*>(cuda::allocate(bytes, "the device STREAM probe"));
    c_ = static_cast<double*>(cuda::allocate(bytes, "the device STREAM probe"));
    const auto n = static_cast<std::int64_t>(options_.elements);
    detail::device_fill<<<blocks(), threads>>>(a_, 1.0, n);
    detail::device_fill<<<blocks(), threads>>>(b_, 1.0, n);
    detail::device_fill<<<blocks(), threads>>>(c_, 0.0, n);
    cuda::check(cudaDeviceSynchronize(), "filling the device STREAM arrays");
    cuda::check(cudaEventCreate(&start_), "creating CUDA events");
    cuda::check(cudaEventCreate(&stop_), "creating CUDA events");
  }
  DeviceStreamProbe(const DeviceStreamProbe&) = delete;
  DeviceStreamProbe& operator=(const DeviceStreamProbe&) = delete;
  ~DeviceStreamProbe() {
    cuda::release(a_);
    cuda::release(b_);
    cuda::release(c_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  StreamResult measure(int repetitions) {
    const auto n = static_cast<std::int64_t>(options_.elements);
    double best_copy = std::numeric_limits<double>::infinity();
    double best_triad = std::numeric_limits<double>::infinity();
    for (int rep = 0; rep < repetitions; ++rep) {
      best_copy = std::min(best_copy, timed([&] { detail::device_copy<<<blocks(), threads>>>(c_, a_, n); }));
      best_triad = std::min(best_triad, timed([&] { detail::device_triad<<<blocks(), threads>>>(a_, b_, c_, scale, n); }));
      expected_c_ = expected_a_;
      expected_a_ = 1.0 + scale * expected_c_;
    }
    for (std::int64_t i : {std::int64_t(0), n / 2, n - 1}) {
      double a = 0, c = 0;
      cuda::check(cudaMemcpy(&a, a_ + i, sizeof a, cudaMemcpyDeviceToHost), "reading back the STREAM arrays");
      cuda::check(cudaMemcpy(&c, c_ + i, sizeof c, cudaMemcpyDeviceToHost), "reading back the STREAM arrays");
      if (a != expected_a_ || c != expected_c_)
        throw std::runtime_error("device stream probe: wrong values at element " + std::to_string(i));
    }
    best_.add(best_copy, best_triad, repetitions);
    return stream_result(options_.elements, best_copy, best_triad, repetitions, 0);
  }
  StreamResult measure() { return measure(options_.repetitions); }
  StreamResult best() const { return stream_result(options_.elements, best_.copy, best_.triad, best_.repetitions, 0); }
  const StreamOptions& options() const { return options_; }

 private:
  static constexpr double scale = 0.5;  // as in StreamProbe: exact, converging values
  static constexpr int threads = 256;
  unsigned blocks() const { return static_cast<unsigned>((options_.elements + threads - 1) / threads); }

  template <class Launch>
  double timed(Launch launch) {
    cuda::check(cudaEventRecord(start_), "recording a CUDA event");
    launch();
    cuda::check(cudaEventRecord(stop_), "recording a CUDA event");
    cuda::check(cudaEventSynchronize(stop_), "running the device STREAM probe");
    float milliseconds = 0;
    cuda::check(cudaEventElapsedTime(&milliseconds, start_, stop_), "timing the device STREAM probe");
    return milliseconds * 1e-3;
  }

  StreamOptions options_;
  double *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
  cudaEvent_t start_{}, stop_{};
  double expected_a_ = 1.0, expected_c_ = 0.0;
  BestPasses best_;
};

}  // namespace latte::bench
