#pragma once
// The stream halo work runs on (cuda backend): pack kernels, the copies of
// payloads to and from pinned host memory, and unpack kernels. Statement
// kernels are launched on the default stream, which (the legacy default
// stream, as nvcc compiles by default) waits for and blocks every blocking
// stream; a stream created non-blocking is exempt, so the interior kernel of
// a statement can run while that statement's halos are unpacked.
//
// Program order is kept with events, never by waiting on the whole device:
//   begin_halo_work()   halo work queued from now on starts after every
//                       statement queued before (a pack reads fields that
//                       earlier statements write);
//   wait_for_staging()  the host waits for the packs and copies queued so far
//                       (before MPI reads the payloads);
//   end_halo_work()     statements queued from now on start after the unpacks
//                       (the surface kernel reads the halo records).
// begin_halo_work() first waits for the previous exchange's halo work, whose
// copies read the pinned receive buffers that MPI is about to fill again.
//
// The stream has the highest priority the device offers, so that the few
// blocks of a pack or unpack kernel are scheduled ahead of blocks of the
// interior kernel still waiting for a multiprocessor.

#include <cuda_runtime.h>

#include "platform/cuda/cuda_error.hpp"

namespace latte::cuda {

// Statement kernels are launched with no stream argument: the default stream.
inline constexpr cudaStream_t statement_stream = nullptr;

struct HaloStream {
  cudaStream_t stream = nullptr;
  cudaEvent_t statements_queued = nullptr;  // recorded on the statement stream
  cudaEvent_t halos_unpacked = nullptr;     // recorded on the halo stream
};

// Made on first use and never destroyed: destructors of static objects may
// run after the CUDA runtime has shut down.
inline const HaloStream& halo_stream_state() {
  static const HaloStream state = [] {
    HaloStream s;
    int least = 0, greatest = 0;
    check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "asking for the device's stream priorities");
    check(cudaStreamCreateWithPriority(&s.stream, cudaStreamNonBlocking, greatest), "creating the halo stream");
    check(cudaEventCreateWithFlags(&s.statements_queued, cudaEventDisableTiming), "creating an event of the halo stream");
    check(cudaEventCreateWithFlags(&s.halos_unpacked, cudaEventDisableTiming), "creating an event of the halo stream");
    return s;
  }();
  return state;
}

inline cudaStream_t halo_stream() { return halo_stream_state().stream; }

inline void begin_halo_work() {
  const HaloStream& s = halo_stream_state();
  check(cudaStreamSynchronize(s.stream), "waiting for the previous halo exchange");
  check(cudaEventRecord(s.statements_queued, statement_stream), "ordering halo work after the statements before it");
  check(cudaStreamWaitEvent(s.stream, s.statements_queued, 0), "ordering halo work after the statements before it");
}

inline void wait_for_staging() {
  check(cudaStreamSynchronize(halo_stream_state().stream), "packing halos and copying them to the host");
}

inline void end_halo_work() {
  const HaloStream& s = halo_stream_state();
  check(cudaEventRecord(s.halos_unpacked, s.stream), "ordering statements after the halo unpacks");
  check(cudaStreamWaitEvent(statement_stream, s.halos_unpacked, 0), "ordering statements after the halo unpacks");
}

}  // namespace latte::cuda
