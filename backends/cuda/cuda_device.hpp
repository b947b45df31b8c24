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
  static void copy_to_device(void* to, const void* from, std::size_t bytes, const std::string& what) {
    cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), what);
  }
  static void copy_to_host(void* to, const void* from, std::size_t bytes, const std::string& what) {
    cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), what);
  }
};

}  // namespace latte
