#pragma once
// Device memory through the CUDA runtime, for MirroredMemory: plain
// cudaMalloc (no managed memory), errors that say what was being done.

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

#include "backends/cuda/cuda_error.hpp"

namespace latte {

struct CudaDevice {
  static void* allocate(std::size_t bytes, const std::string& what) { return cuda::allocate(bytes, what); }
  static void release(void* p) noexcept { cuda::release(p); }
  // The message (doing + what) is put together only on failure: copies of
  // halo buffers happen in every statement and must not allocate.
  static void copy_to_device(void* to, const void* from, std::size_t bytes, const char* doing, const std::string& what) {
    const cudaError_t status = cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice);
    if (status != cudaSuccess) cuda::check(status, doing + what);
  }
  static void copy_to_host(void* to, const void* from, std::size_t bytes, const char* doing, const std::string& what) {
    const cudaError_t status = cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost);
    if (status != cudaSuccess) cuda::check(status, doing + what);
  }
};

}  // namespace latte
