#pragma once
// The one place where the build's backend, named by platform/build.hpp, is
// taken: its files are included here and it becomes backend::Default
// (platform/memory/field_memory.hpp takes the matching field storage).
// Everything above this header talks to latte::backend::Default; the per-lane simt backend stays reachable by name
// in every build, so tests compare lowerings in one binary (on the cuda
// backend: device kernels against the same per-lane code on the host).

#include "backends/common/backend_contract.hpp"
#include "backends/simt/simt_backend.hpp"
#include "platform/build.hpp"

#if LATTE_BUILD_BACKEND == LATTE_BUILD_CUDA
#include "backends/cuda/cuda_backend.hpp"
namespace latte::backend { using Default = Cuda; }
#elif LATTE_BUILD_BACKEND == LATTE_BUILD_SIMT && LATTE_BUILD_MEMORY == LATTE_BUILD_EMULATED_DEVICE_MEMORY
#include "platform/memory/emulated_device.hpp"
namespace latte::backend {
// The simt lowering on the "device" copy of mirrored fields: the CPU test
// configuration of the cuda backend's memory residency and halo staging.
struct SimtOnEmulatedDevice : Simt {
  static constexpr const char* name = "simt-emulated-device";
  static constexpr MemorySide memory_side = MemorySide::device;
  // Payload copies to the host are held back until here, as the cuda
  // backend's copies on its halo stream are done only once it waits.
  static void halo_staged() { EmulatedDevice::complete_staging(); }
};
using Default = SimtOnEmulatedDevice;
}  // namespace latte::backend
#elif LATTE_BUILD_BACKEND == LATTE_BUILD_SIMT
namespace latte::backend { using Default = Simt; }
#else
#include "backends/cpu/cpu_backend.hpp"
namespace latte::backend { using Default = Cpu; }
#endif

namespace latte::backend {
static_assert(StatementBackend<Default> && StatementBackend<Simt>, "a backend does not meet backends/common/backend_contract.hpp");
}  // namespace latte::backend
