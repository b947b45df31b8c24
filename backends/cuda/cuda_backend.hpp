#pragma once
// The CUDA backend: every fused statement (its kernel written once in
// dsl/exec/statement_kernels.hpp) is one launch on the default stream (statements stay in program order and run back to back);
// halo packs, payload copies and unpacks run on a stream of their own
// (platform/cuda/halo_stream.hpp), ordered against statements by events;
// reductions merge per-thread accumulators in a block-level tree, then one
// block merges the blocks' partials (merges are exact: the result does not
// depend on the launch shape). The contract every backend meets is written
// in backends/common/backend_contract.hpp.
// Field data lives on the device (platform/memory/mirrored_memory.hpp).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "backends/cuda/kernel_names.hpp"
#include "backends/cuda/launch.hpp"
#include "backends/cuda/statement_kernels.hpp"
#include "backends/cuda/statement_timer.hpp"
#include "backends/common/traversal.hpp"
#include "lattice/fields/field_view.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/cuda/cuda_error.hpp"
#include "platform/cuda/halo_stream.hpp"
#include "platform/memory/memory_side.hpp"

namespace latte::backend {

struct Cuda {
  static constexpr const char* name = "cuda";
  // Whether fields of Real may have `bytes` per virtual-node vector: lanes are threads: any whole number of them.
  template <class Real> static constexpr bool has_vectors(int bytes) { return bytes % static_cast<int>(sizeof(Real)) == 0; }
  // The statement profile's clock and STREAM reference (dsl/statements/statement_profile.hpp).
  using StatementTimer = cuda::EventTimer;
  static double stream_triad_gbytes_per_s() { return cuda::device_stream_triad_gbytes_per_s(); }
  static constexpr MemorySide memory_side = MemorySide::device;

  // Statements are asynchronous; timers and host code that need them done wait here.
  static void synchronize() { cuda::check(cudaDeviceSynchronize(), "waiting for the device"); }

  // Every site in order: threads hide latency, no prefetching or tiling.
  static Traversal traversal(const StatementShape&, SiteRange sites, const SiteLayout&, const std::uint8_t*) {
    return Traversal{sites};
  }

  // One launch: thread i runs kernel(site i / N, lane i % N).
  template <class Kernel>
  static void for_each_site(const Traversal& t, const Kernel& kernel) {
    const std::int64_t threads = t.sites.count * Kernel::nsimd;
    if (threads == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::site_kernel<Kernel>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, threads);
    cuda::site_kernel<Kernel><<<grid.blocks, grid.block>>>(kernel, t.sites, threads);
    cuda::after_launch(&cuda::describe_statement<Kernel>);
  }

  // Per-thread accumulators merged in each block, then the blocks' in one.
  template <class Combine, class Kernel>
  static auto reduce_sites(const Traversal& t, const Kernel& kernel) {
    using A = lane::accumulator_of<Combine, Kernel>;
    const std::int64_t threads = t.sites.count * Kernel::nsimd;
    if (threads == 0) return start_accumulator<Combine, A>();
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::reduce_kernel<Combine, Kernel, A>, sizeof(A));
    const Grid grid = grid_for(shape, threads);
    A* partial = scratch<A>(grid.blocks + 1);
    cuda::reduce_kernel<Combine, Kernel, A>
        <<<grid.blocks, grid.block, grid.block * sizeof(A)>>>(kernel, t.sites, threads, partial + 1);
    cuda::after_launch(&cuda::describe_reduce<Kernel>);
    return finish<Combine>(partial, grid.blocks);
  }

  // Halo gather and scatter as device kernels on the halo stream: a halo
  // never brings a field to the host, only its payload (staged by the
  // statement plan through pinned memory, or handed to a CUDA-aware MPI).
  // The plan brackets them: halo_begin() before the packs, halo_staged()
  // before MPI reads the payloads, halo_end() after the unpacks.
  static void halo_begin() { cuda::begin_halo_work(); }
  static void halo_staged() { cuda::wait_for_staging(); }
  static void halo_end() { cuda::end_halo_work(); }

  // One launch on the halo stream: thread i runs kernel(item i).
  template <class Kernel>
  static void for_each_halo_item(HaloItemsView items, const Kernel& kernel) {
    if (items.items == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::halo_kernel<Kernel>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, items.items);
    cuda::halo_kernel<Kernel><<<grid.blocks, grid.block, 0, cuda::halo_stream()>>>(kernel, items.items);
    cuda::after_launch(&cuda::describe_halo<Kernel>);
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

  // partial[1..blocks] hold the blocks' accumulators; partial[0] receives their merge.
  template <class Combine, class A>
  static A finish(A* partial, unsigned blocks) {
    unsigned block = 1;
    while (block * 2 <= blocks && block * 2 <= 256 && block * 2 * sizeof(A) <= 32 * 1024) block *= 2;
    cuda::merge_partials_kernel<Combine, A><<<1, block, block * sizeof(A)>>>(partial + 1, static_cast<int>(blocks), partial);
    cuda::after_launch(&cuda::describe_reduce<A>);
    A total;
    cuda::check(cudaMemcpy(&total, partial, sizeof(A), cudaMemcpyDeviceToHost), "copying a reduction's result to the host");
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
