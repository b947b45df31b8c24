#pragma once
// The kernels of the CUDA lowering. Each fused DSL statement instantiates
// them once; a thread evaluates one (outer site, lane) pair with the per-lane
// bodies of backends/common/lane_statements.hpp, the same code the simt
// backend runs on the CPU. Thread i takes outer site i / N and lane i % N,
// and lanes are the fastest memory index (lattice/field_view.hpp), so the
// threads of a warp read consecutive addresses: coalesced. A shift across a
// virtual-node boundary is a load from the permuted lane, no shuffle.

#include <cstdint>

#include "backends/common/lane_statements.hpp"
#include "backends/common/reduction_blocks.hpp"

namespace latte::cuda {

template <class T, int N, class E, class Op>
__global__ void assign_kernel(FieldView<T, N> dst, E e, Op op, std::int64_t threads) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < threads) lane::assign(dst, e, op, i / N, static_cast<int>(i % N));
}

// Tree reduction of one value per thread over a block (blockDim.x a power
// of two), in a fixed order: deterministic for a given launch shape.
template <class Combine, class Result>
__device__ Result block_reduce(Result value, Result* shared) {
  const unsigned t = threadIdx.x;
  shared[t] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) shared[t] = combine<Combine>(shared[t], shared[t + s]);
    __syncthreads();
  }
  return shared[0];
}

template <class Result>
__device__ Result* shared_results() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<Result*>(shared_bytes);
}

// Each thread reduces its grid-stride sequence (the launch guarantees at
// least one site per thread), each block its threads; partial[b] per block.
template <class Combine, int N, class E, class Result>
__global__ void reduce_kernel(E e, std::int64_t threads, Result* partial) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  Result acc = lane::value_in_double(e, i / N, static_cast<int>(i % N));
  for (i += stride; i < threads; i += stride)
    acc = combine<Combine>(acc, lane::value_in_double(e, i / N, static_cast<int>(i % N)));
  acc = block_reduce<Combine>(acc, shared_results<Result>());
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

// The same, assigning dst op= e at each site first; r may read dst there.
template <class Combine, class T, int N, class E, class Op, class R, class Result>
__global__ void assign_reduce_kernel(FieldView<T, N> dst, E e, Op op, R r, std::int64_t threads, Result* partial) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  lane::assign(dst, e, op, i / N, static_cast<int>(i % N));
  Result acc = lane::value_in_double(r, i / N, static_cast<int>(i % N));
  for (i += stride; i < threads; i += stride) {
    lane::assign(dst, e, op, i / N, static_cast<int>(i % N));
    acc = combine<Combine>(acc, lane::value_in_double(r, i / N, static_cast<int>(i % N)));
  }
  acc = block_reduce<Combine>(acc, shared_results<Result>());
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

// The grid-level step: one block combines the blocks' partial results.
template <class Combine, class Result>
__global__ void combine_partials_kernel(const Result* partial, int count, Result* total) {
  Result acc = partial[threadIdx.x];
  for (int j = threadIdx.x + blockDim.x; j < count; j += blockDim.x) acc = combine<Combine>(acc, partial[j]);
  acc = block_reduce<Combine>(acc, shared_results<Result>());
  if (threadIdx.x == 0) *total = acc;
}

}  // namespace latte::cuda
