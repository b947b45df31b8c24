#pragma once
// Launch configuration, chosen once per kernel (per fused statement type).
//
// Heuristic, documented here because it decides performance: statements are
// memory-bound, and a memory-bound kernel needs as many loads in flight as
// the chip can hold, i.e. maximal occupancy. The occupancy calculator knows
// each kernel's register and shared-memory use, so we take the block size it
// says gives the highest occupancy (cudaOccupancyMaxPotentialBlockSize). A
// register-heavy kernel gets an odd size that a fixed 256 would waste: the
// sm_90 Wilson Dslash in double uses 166 registers (ptxas -v), so 384
// threads fit per multiprocessor and a block of 256 would leave a third
// unused. A lattice too small to give every multiprocessor two blocks gets
// blocks halved (down to 64 threads) so that it still spreads over the chip
// (statement_blocks). LATTE_CUDA_BLOCK=<n> in the environment overrides the
// size for experiments. Grid-stride kernels (the reductions) launch exactly
// as many blocks as can be resident at once.

#include <cstdint>
#include <cstdlib>
#include <string>

#include <cuda_runtime.h>

#include "platform/cuda/cuda_error.hpp"

namespace latte::cuda {

struct DeviceFacts {
  int multiprocessors = 1;
  std::string name;
};

inline const DeviceFacts& device_facts() {
  static const DeviceFacts facts = [] {
    int device = 0;
    check(cudaGetDevice(&device), "finding the CUDA device");
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, device), "reading the CUDA device's properties");
    return DeviceFacts{properties.multiProcessorCount, properties.name};
  }();
  return facts;
}

// Read when a kernel's shape is first chosen (once per statement type).
inline int block_size_override() {
  const char* value = std::getenv("LATTE_CUDA_BLOCK");
  return value ? std::atoi(value) : 0;
}

struct LaunchShape {
  int block = 256;           // threads per block
  int resident_blocks = 1;   // blocks that fit on the whole device at once
  bool forced = false;       // LATTE_CUDA_BLOCK set: keep the block size as it is
};

// One shape per kernel: the first call computes it.
template <class Kernel>
LaunchShape launch_shape(Kernel kernel, std::size_t shared_bytes_per_thread = 0) {
  int min_grid = 0, block = 0;
  if (shared_bytes_per_thread == 0) {
    check(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, 0), "choosing a block size");
  } else {
    // Reductions keep one partial result per thread in shared memory, which
    // must stay within the 48 KiB a block gets without opting in to more: a
    // sum of 12 x 12 complex matrices (2304 bytes) gets blocks of 8.
    block = 256;
    while (block > 1 && static_cast<std::size_t>(block) * shared_bytes_per_thread > 32 * 1024) block /= 2;
  }
  const int forced = block_size_override();
  if (forced > 0) block = forced;
  // A forced block size the kernel cannot have is reported by its launch,
  // which names the statement; here it only leaves occupancy unknown.
  int per_multiprocessor = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block,
                                                    shared_bytes_per_thread * block) != cudaSuccess)
    cudaGetLastError();
  if (per_multiprocessor < 1) per_multiprocessor = 1;
  return {block, per_multiprocessor * device_facts().multiprocessors, forced > 0};
}

// Block size and count for a statement of `threads` threads.
struct StatementGrid {
  unsigned blocks;
  unsigned block;
};
inline StatementGrid statement_grid(const LaunchShape& shape, std::int64_t threads) {
  std::int64_t block = shape.block;
  const std::int64_t enough = 2 * static_cast<std::int64_t>(device_facts().multiprocessors);
  while (block > 64 && (threads + block - 1) / block < enough && !shape.forced) block /= 2;
  return {static_cast<unsigned>((threads + block - 1) / block), static_cast<unsigned>(block)};
}

// After every launch: a bad launch is reported at once, with the statement;
// with LATTE_CUDA_SYNC=1 the kernel is also waited for.
inline void after_launch(Describer describe) {
  last_kernel_describer() = describe;
  if (const cudaError_t status = cudaGetLastError(); status != cudaSuccess) check(status, "launching " + describe());
  if (synchronous_launches()) check(cudaDeviceSynchronize(), "running " + describe());
}

}  // namespace latte::cuda
