#pragma once
// The CUDA backend: every fused statement is one kernel launch on the
// default stream (statements stay in program order and run back to back);
// reductions are a block-level tree per block, then one block combining the
// blocks' partial results, in a fixed order for a given launch shape.
// Field data lives on the device (backends/cuda/mirrored_memory.hpp).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/kernel_names.hpp"
#include "backends/cuda/launch.hpp"
#include "backends/cuda/statement_kernels.hpp"
#include "lattice/field_view.hpp"
#include "lattice/memory_side.hpp"

namespace latte::backend {

struct Cuda {
  static constexpr const char* name = "cuda";
  static constexpr MemorySide memory_side = MemorySide::device;

  // Statements are asynchronous; timers and host code that need them done wait here.
  static void synchronize() { cuda::check(cudaDeviceSynchronize(), "waiting for the device"); }

  template <class T, int N, class E, class Op>
  static void assign(const FieldView<T, N>& dst, const E& e, Op op) {
    const std::int64_t threads = dst.site_layout->outer_volume() * N;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::assign_kernel<T, N, E, Op>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, threads);
    cuda::assign_kernel<T, N, E, Op><<<grid.blocks, grid.block>>>(dst, e, op, threads);
    cuda::after_launch(&cuda::describe_assign<T, E, Op>);
  }

  template <class Combine, class E>
  static auto reduce(const E& e) {
    constexpr int N = E::nsimd;
    using Result = decltype(lane::value_in_double(e, 0, 0));
    const std::int64_t threads = e.layout()->outer_volume() * N;
    static const cuda::LaunchShape shape =
        cuda::launch_shape(cuda::reduce_kernel<Combine, N, E, Result>, sizeof(Result));
    const Grid grid = grid_for(shape, threads);
    Result* partial = scratch<Result>(grid.blocks + 1);
    cuda::reduce_kernel<Combine, N, E, Result>
        <<<grid.blocks, grid.block, grid.block * sizeof(Result)>>>(e, threads, partial + 1);
    cuda::after_launch(&cuda::describe_reduce<E>);
    return finish<Combine>(partial, grid.blocks);
  }

  template <class Combine, class T, int N, class E, class Op, class R>
  static auto assign_reduce(const FieldView<T, N>& dst, const E& e, Op op, const R& r) {
    using Result = decltype(lane::value_in_double(r, 0, 0));
    const std::int64_t threads = dst.site_layout->outer_volume() * N;
    static const cuda::LaunchShape shape =
        cuda::launch_shape(cuda::assign_reduce_kernel<Combine, T, N, E, Op, R, Result>, sizeof(Result));
    const Grid grid = grid_for(shape, threads);
    Result* partial = scratch<Result>(grid.blocks + 1);
    cuda::assign_reduce_kernel<Combine, T, N, E, Op, R, Result>
        <<<grid.blocks, grid.block, grid.block * sizeof(Result)>>>(dst, e, op, r, threads, partial + 1);
    cuda::after_launch(&cuda::describe_assign_reduce<T, E, R>);
    return finish<Combine>(partial, grid.blocks);
  }

 private:
  struct Grid {
    unsigned blocks;
    unsigned block;
  };

  // As many blocks as are resident at once, but never a thread without a
  // site: blocks shrink (in powers of two) on small lattices.
  static Grid grid_for(const cuda::LaunchShape& shape, std::int64_t threads) {
    std::int64_t block = shape.block;
    while (block > threads) block /= 2;
    std::int64_t blocks = threads / block;
    if (blocks > shape.resident_blocks) blocks = shape.resident_blocks;
    return {static_cast<unsigned>(blocks), static_cast<unsigned>(block)};
  }

  // partial[1..blocks] hold the blocks' results; partial[0] receives the total.
  template <class Combine, class Result>
  static Result finish(Result* partial, unsigned blocks) {
    unsigned block = 1;
    while (block * 2 <= blocks && block * 2 <= 256 && block * 2 * sizeof(Result) <= 32 * 1024) block *= 2;
    cuda::combine_partials_kernel<Combine, Result>
        <<<1, block, block * sizeof(Result)>>>(partial + 1, static_cast<int>(blocks), partial);
    cuda::after_launch(&cuda::describe_reduce<Result>);
    Result total;
    cuda::check(cudaMemcpy(&total, partial, sizeof(Result), cudaMemcpyDeviceToHost),
                "copying a reduction's result to the host");
    return total;
  }

  // Device scratch for partial results, grown as needed and kept: a
  // reduction per CG iteration must not pay for cudaMalloc.
  template <class Result>
  static Result* scratch(std::size_t count) {
    static void* buffer = nullptr;
    static std::size_t capacity = 0;
    const std::size_t bytes = count * sizeof(Result);
    if (bytes > capacity) {
      cuda::release(buffer);
      buffer = cuda::allocate(bytes, "partial results of a reduction");
      capacity = bytes;
    }
    return static_cast<Result*>(buffer);
  }
};

}  // namespace latte::backend
