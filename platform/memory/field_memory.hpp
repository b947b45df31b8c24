#pragma once
// The storage every Lattice uses: the build's field memory, named by
// platform/build.hpp (this is the other place, besides backends/backend.hpp,
// that includes what the build chose). Plain host memory for cpu and simt; a
// device buffer with a tracked host mirror for cuda, and for simt with
// emulated device memory (a test configuration).
// Halo message payloads get storage of their own (HaloPayload): on device
// memory, a device buffer plus, for messages between ranks, a pinned host
// buffer to stage through; payload_route_between_ranks() says whether such
// messages are staged or handed to MPI in device memory (CUDA-aware MPI).

#include "platform/build.hpp"
#include "platform/memory/payload_route.hpp"

#if LATTE_BUILD_MEMORY == LATTE_BUILD_CUDA_MEMORY
#include "platform/comms/cuda_aware_mpi.hpp"
#include "platform/cuda/cuda_device.hpp"
#include "platform/memory/mirrored_memory.hpp"
#include "platform/memory/staged_payload.hpp"
namespace latte {
using FieldMemory = MirroredMemory<CudaDevice>;
using HaloPayload = StagedPayload<CudaDevice>;
inline PayloadRoute payload_route_between_ranks() {
  return comms::mpi_reads_device_memory() ? PayloadRoute::direct : PayloadRoute::staged;
}
}  // namespace latte
#elif LATTE_BUILD_MEMORY == LATTE_BUILD_EMULATED_DEVICE_MEMORY
#include "platform/memory/emulated_device.hpp"
#include "platform/memory/mirrored_memory.hpp"
#include "platform/memory/staged_payload.hpp"
namespace latte {
using FieldMemory = MirroredMemory<EmulatedDevice>;
using HaloPayload = StagedPayload<EmulatedDevice>;
inline PayloadRoute payload_route_between_ranks() { return PayloadRoute::staged; }
}  // namespace latte
#else
#include "platform/memory/host_memory.hpp"
#include "platform/memory/host_payload.hpp"
namespace latte {
using FieldMemory = HostMemory;
using HaloPayload = HostPayload;
inline PayloadRoute payload_route_between_ranks() { return PayloadRoute::staged; }  // one buffer serves every route
}  // namespace latte
#endif
