#pragma once
// Page-locked ("pinned") host memory for halo staging buffers. The GPU's
// copy engines read and write it directly (DMA), so a copy between it and
// device memory can run asynchronously on a stream while kernels run; a copy
// from ordinary pageable memory goes through a driver bounce buffer and
// holds the host. Pinned memory is a scarce, slow-to-allocate resource, so
// only the payloads of messages between ranks get it, once, and keep it.

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

#include "platform/cuda/cuda_error.hpp"

namespace latte::cuda {

inline void* allocate_pinned(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  const cudaError_t status = cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
  if (status != cudaSuccess) {
    cudaGetLastError();  // an allocation failure is not sticky; clear it
    throw CudaError("Latte (CUDA): cannot allocate " + format_bytes(static_cast<double>(bytes)) +
                    " of pinned host memory for " + what + ": " + error_text(status));
  }
  return p;
}

// Never throws: used by destructors, which may run after the runtime shut down.
inline void release_pinned(void* p) noexcept {
  if (p) cudaFreeHost(p);
}

// Whether p lies in memory the runtime knows as pinned host memory.
inline bool is_pinned(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

}  // namespace latte::cuda
