#pragma once
// Device memory through the CUDA runtime, for MirroredMemory: plain
// cudaMalloc (no managed memory), errors that say what was being done. Halo
// payloads (platform/memory/staged_payload.hpp) add pinned host buffers and
// copies queued on the halo stream (platform/cuda/halo_stream.hpp).

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

#include "platform/cuda/cuda_error.hpp"
#include "platform/cuda/halo_stream.hpp"
#include "platform/cuda/pinned_memory.hpp"

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

  // Fills and copies within device memory, queued on the default stream
  // behind the statements before them, as the statements' kernels are.
  static void fill_zero(void* to, std::size_t bytes, const std::string& what) {
    const cudaError_t status = cudaMemset(to, 0, bytes);
    if (status != cudaSuccess) cuda::check(status, "clearing " + what);
  }
  static void copy_on_device(void* to, const void* from, std::size_t bytes, const std::string& what) {
    const cudaError_t status = cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToDevice);
    if (status != cudaSuccess) cuda::check(status, "copying " + what + " on the device");
  }

  // Halo staging: asynchronous copies on the halo stream, between device
  // memory and pinned host memory.
  static void* allocate_pinned(std::size_t bytes, const std::string& what) { return cuda::allocate_pinned(bytes, what); }
  static void release_pinned(void* p) noexcept { cuda::release_pinned(p); }
  static bool is_pinned(const void* p) { return cuda::is_pinned(p); }
  static void stage_to_host(void* to, const void* from, std::size_t bytes, const std::string& what) {
    const cudaError_t status = cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, cuda::halo_stream());
    if (status != cudaSuccess) cuda::check(status, "copying " + what + " to pinned host memory");
  }
  static void stage_to_device(void* to, const void* from, std::size_t bytes, const std::string& what) {
    const cudaError_t status = cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToDevice, cuda::halo_stream());
    if (status != cudaSuccess) cuda::check(status, "copying " + what + " from pinned host memory");
  }
};

}  // namespace latte
