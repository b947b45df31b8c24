#pragma once
// The storage every Lattice uses, chosen with the backend (the other place,
// besides backend.hpp, that knows which backend this build has): plain host
// memory for cpu and simt; a device buffer with a tracked host mirror for
// cuda, and for simt with emulated device memory (a test configuration).

#if defined(LATTE_BACKEND_CUDA)
#include "backends/common/mirrored_memory.hpp"
#include "backends/cuda/cuda_device.hpp"
namespace latte { using FieldMemory = MirroredMemory<CudaDevice>; }
#elif defined(LATTE_EMULATE_DEVICE_MEMORY)
#include "backends/common/emulated_device.hpp"
#include "backends/common/mirrored_memory.hpp"
namespace latte { using FieldMemory = MirroredMemory<EmulatedDevice>; }
#else
#include "backends/common/host_memory.hpp"
namespace latte { using FieldMemory = HostMemory; }
#endif
