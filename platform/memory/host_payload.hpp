#pragma once
// A halo message's payload for backends that run on the host (cpu, simt):
// one aligned buffer that pack writes, MPI sends or receives, and unpack
// reads. There is nothing to stage, so staging costs nothing here.

#include <cstddef>

#include "platform/memory/aligned_buffer.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/memory/payload_route.hpp"

namespace latte {

class HostPayload {
 public:
  HostPayload() = default;
  // describe() and the route would matter for device memory; host memory has one buffer.
  template <class Describe>
  HostPayload(std::size_t bytes, Describe&& /*describe*/, PayloadRoute) : buffer_(bytes) {}

  std::size_t bytes() const { return buffer_.bytes(); }
  // The memory side matters only where fields live on a device
  // (platform/memory/staged_payload.hpp); here every side is the host.
  void* kernel_data(MemorySide) { return buffer_.data(); }
  void* message_data(MemorySide) { return buffer_.data(); }
  void stage_to_host(MemorySide) {}
  void stage_to_device(MemorySide) {}

 private:
  AlignedBuffer buffer_;
};

}  // namespace latte
