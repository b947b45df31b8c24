#pragma once
// The kernels of the CUDA lowering. Each fused DSL statement instantiates
// site_kernel or reduce_kernel with its statement kernel
// (dsl/exec/statement_kernels.hpp); a thread runs it at one (outer site,
// lane) pair, the same code the simt backend runs on the CPU. Thread i takes site i / N of the statement's
// sites and lane i % N, and lanes are the fastest memory index
// (lattice/fields/field_view.hpp), so the threads of a warp read consecutive
// addresses: coalesced. A shift across a virtual-node boundary is a load from
// the permuted lane, no shuffle.

#include <cstdint>

#include "backends/common/lane_statements.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "backends/common/traversal.hpp"

namespace latte::cuda {

// A statement's kernel at thread i's (outer site, lane).
template <class Kernel>
__global__ void site_kernel(Kernel kernel, SiteRange sites, std::int64_t threads) {
  constexpr int N = Kernel::nsimd;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < threads) kernel(LaneSite<typename Kernel::real_type>{sites[i / N], static_cast<int>(i % N)}, false);
}

// Tree merge of one accumulator per thread over a block (blockDim.x a power
// of two). Merges are exact, so the order does not matter for the result.
template <class Combine, class A>
__device__ A block_merge(A value, A* shared) {
  const unsigned t = threadIdx.x;
  shared[t] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) merge_accumulators<Combine>(shared[t], shared[t + s]);
    __syncthreads();
  }
  return shared[0];
}

template <class A>
__device__ A* shared_accumulators() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<A*>(shared_bytes);
}

// Each thread accumulates kernel(site) over its grid-stride sequence, each
// block its threads; partial[b] per block.
template <class Combine, class Kernel, class A>
__global__ void reduce_kernel(Kernel kernel, SiteRange sites, std::int64_t threads, A* partial) {
  constexpr int N = Kernel::nsimd;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  A acc = start_accumulator<Combine, A>();
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < threads; i += stride)
    lane::accumulate_site<Combine>(acc, kernel, sites[i / N], static_cast<int>(i % N));
  acc = block_merge<Combine>(acc, shared_accumulators<A>());
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

// The grid-level step: one block merges the blocks' partial accumulators.
template <class Combine, class A>
__global__ void merge_partials_kernel(const A* partial, int count, A* total) {
  A acc = start_accumulator<Combine, A>();
  for (int j = threadIdx.x; j < count; j += blockDim.x) merge_accumulators<Combine>(acc, partial[j]);
  acc = block_merge<Combine>(acc, shared_accumulators<A>());
  if (threadIdx.x == 0) *total = acc;
}

// Halo work (dsl/exec/halo_kernels.hpp): thread i runs the kernel at item i.
template <class Kernel>
__global__ void halo_kernel(Kernel kernel, std::int64_t items) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < items) kernel(HaloItemAt<LaneSiteOf>{i});
}

}  // namespace latte::cuda
