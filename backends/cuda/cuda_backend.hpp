#pragma once
// The CUDA backend: every fused statement is one kernel launch on the
// default stream (statements stay in program order and run back to back);
// halo packs, payload copies and unpacks run on a stream of their own
// (backends/cuda/halo_stream.hpp), ordered against statements by events;
// reductions merge per-thread accumulators in a block-level tree, then one
// block merges the blocks' partials (merges are exact: the result does not
// depend on the launch shape). The contract every backend meets is written
// in backends/backend_contract.hpp.
// Field data lives on the device (backends/common/mirrored_memory.hpp).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/halo_stream.hpp"
#include "backends/cuda/statement_timer.hpp"
#include "backends/cuda/kernel_names.hpp"
#include "backends/cuda/launch.hpp"
#include "backends/cuda/statement_kernels.hpp"
#include "lattice/field_view.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/memory_side.hpp"

namespace latte::backend {

struct Cuda {
  static constexpr const char* name = "cuda";
  // The statement profile's clock and STREAM reference (dsl/statement_profile.hpp).
  using StatementTimer = cuda::EventTimer;
  static double stream_triad_gbytes_per_s() { return cuda::device_stream_triad_gbytes_per_s(); }
  static constexpr MemorySide memory_side = MemorySide::device;

  // Statements are asynchronous; timers and host code that need them done wait here.
  static void synchronize() { cuda::check(cudaDeviceSynchronize(), "waiting for the device"); }

  template <class T, int N, class E, class Op>
  static void assign(const FieldView<T, N>& dst, const E& e, Op op, SiteRange sites) {
    const std::int64_t threads = sites.count * N;
    if (threads == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::assign_kernel<T, N, E, Op>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, threads);
    cuda::assign_kernel<T, N, E, Op><<<grid.blocks, grid.block>>>(dst, e, op, sites, threads);
    cuda::after_launch(&cuda::describe_assign<T, E, Op>);
  }

  template <class T, int N, class E, int K>
  static void push(const FieldView<T, N>& dst, const E& e, const PushTargets<real_of_t<T>, K>& to, SiteRange sites) {
    const std::int64_t threads = sites.count * N;
    if (threads == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::push_kernel<T, N, E, K>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, threads);
    cuda::push_kernel<T, N, E, K><<<grid.blocks, grid.block>>>(dst, e, to, sites, threads);
    cuda::after_launch(&cuda::describe_push<T, E>);
  }

  template <class Combine, class E>
  static auto reduce(const E& e, SiteRange sites) {
    constexpr int N = E::nsimd;
    using A = lane::accumulator_of<Combine, E>;
    const std::int64_t threads = sites.count * N;
    if (threads == 0) return start_accumulator<Combine, A>();
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::reduce_kernel<Combine, N, E, A>, sizeof(A));
    const Grid grid = grid_for(shape, threads);
    A* partial = scratch<A>(grid.blocks + 1);
    cuda::reduce_kernel<Combine, N, E, A><<<grid.blocks, grid.block, grid.block * sizeof(A)>>>(e, sites, threads, partial + 1);
    cuda::after_launch(&cuda::describe_reduce<E>);
    return finish<Combine>(partial, grid.blocks);
  }

  template <class Combine, class T, int N, class E, class Op, class R>
  static auto assign_reduce(const FieldView<T, N>& dst, const E& e, Op op, const R& r, SiteRange sites) {
    using A = lane::accumulator_of<Combine, R>;
    const std::int64_t threads = sites.count * N;
    if (threads == 0) return start_accumulator<Combine, A>();
    static const cuda::LaunchShape shape =
        cuda::launch_shape(cuda::assign_reduce_kernel<Combine, T, N, E, Op, R, A>, sizeof(A));
    const Grid grid = grid_for(shape, threads);
    A* partial = scratch<A>(grid.blocks + 1);
    cuda::assign_reduce_kernel<Combine, T, N, E, Op, R, A>
        <<<grid.blocks, grid.block, grid.block * sizeof(A)>>>(dst, e, op, r, sites, threads, partial + 1);
    cuda::after_launch(&cuda::describe_assign_reduce<T, E, R>);
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

  template <class E>
  static void pack(const E& e, HaloItemsView items, typename E::real_type* payload) {
    if (items.items == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::pack_kernel<E>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, items.items);
    cuda::pack_kernel<E><<<grid.blocks, grid.block, 0, cuda::halo_stream()>>>(e, items, payload);
    cuda::after_launch(&cuda::describe_pack<E>);
  }

  template <class Real>
  static void unpack(HaloItemsView items, const void* payload, void* records, int words, int nsimd) {
    if (items.items == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::unpack_kernel<Real>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, items.items);
    cuda::unpack_kernel<Real><<<grid.blocks, grid.block, 0, cuda::halo_stream()>>>(
        items, static_cast<const Real*>(payload), static_cast<Real*>(records), words, nsimd);
    cuda::after_launch(&cuda::describe_unpack<Real>);
  }

  // A push's halo, backwards, on the halo stream like pack and unpack.
  template <class Real>
  static void return_halo(HaloItemsView items, const void* records, void* payload, int words, int nsimd) {
    if (items.items == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::return_kernel<Real>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, items.items);
    cuda::return_kernel<Real><<<grid.blocks, grid.block, 0, cuda::halo_stream()>>>(
        items, static_cast<const Real*>(records), static_cast<Real*>(payload), words, nsimd);
    cuda::after_launch(&cuda::describe_return<Real>);
  }
  template <class Real>
  static void deliver_halo(HaloItemsView items, const void* payload, void* field, int record_stride, int words,
                           int nsimd) {
    if (items.items == 0) return;
    static const cuda::LaunchShape shape = cuda::launch_shape(cuda::deliver_kernel<Real>);
    const cuda::StatementGrid grid = cuda::statement_grid(shape, items.items);
    cuda::deliver_kernel<Real><<<grid.blocks, grid.block, 0, cuda::halo_stream()>>>(
        items, static_cast<const Real*>(payload), static_cast<Real*>(field), record_stride, words, nsimd);
    cuda::after_launch(&cuda::describe_deliver<Real>);
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
