#pragma once
// The statement profile's clock and STREAM reference on cuda. Statements
// are asynchronous, so wall time on the host would measure the launch: the
// time is that between two events on the default stream, where statements
// run, and the profile waits for the second (profiling serialises the
// program; it costs nothing when off). The reference is a device triad,
// a = b + s c over three arrays of 2^25 doubles (far beyond the L2 cache),
// timed by events, the best of five.

#include <cstdint>

#include <cuda_runtime.h>

#include "platform/cuda/cuda_error.hpp"

namespace latte::cuda {

class EventTimer {
 public:
  EventTimer() { check(cudaEventRecord(events().start, 0), "recording a profile event"); }
  double seconds() const {
    const Events& e = events();
    check(cudaEventRecord(e.stop, 0), "recording a profile event");
    check(cudaEventSynchronize(e.stop), "waiting for a profiled statement");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, e.start, e.stop), "reading a profile event");
    return milliseconds * 1e-3;
  }

 private:
  struct Events {
    cudaEvent_t start, stop;
    Events() {
      check(cudaEventCreate(&start), "creating a profile event");
      check(cudaEventCreate(&stop), "creating a profile event");
    }
  };
  // One pair for the process: statements are profiled one at a time.
  static const Events& events() {
    static const Events e;
    return e;
  }
};

template <class Real>
__global__ void stream_triad_kernel(Real* a, const Real* b, const Real* c, Real s, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    a[i] = b[i] + s * c[i];
}

inline double device_stream_triad_gbytes_per_s() {
  constexpr std::int64_t n = std::int64_t(1) << 25;
  double* arrays = nullptr;
  check(cudaMalloc(&arrays, 3 * n * sizeof(double)), "allocating the profile's STREAM arrays");
  check(cudaMemset(arrays, 0, 3 * n * sizeof(double)), "clearing the profile's STREAM arrays");
  int device = 0, processors = 0;
  check(cudaGetDevice(&device), "querying the device");
  check(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device), "querying the device");
  float best = 1e30f;
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "creating a profile event");
  check(cudaEventCreate(&stop), "creating a profile event");
  for (int pass = 0; pass < 6; ++pass) {  // the first warms up
    check(cudaEventRecord(start, 0), "recording a profile event");
    stream_triad_kernel<double><<<processors * 8, 256>>>(arrays, arrays + n, arrays + 2 * n, 3.0, n);
    check(cudaEventRecord(stop, 0), "recording a profile event");
    check(cudaEventSynchronize(stop), "running the profile's STREAM triad");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, start, stop), "reading a profile event");
    if (pass > 0 && milliseconds < best) best = milliseconds;
  }
  check(cudaEventDestroy(start), "destroying a profile event");
  check(cudaEventDestroy(stop), "destroying a profile event");
  check(cudaFree(arrays), "freeing the profile's STREAM arrays");
  return 24.0 * static_cast<double>(n) / (best * 1e-3) * 1e-9;
}

}  // namespace latte::cuda
