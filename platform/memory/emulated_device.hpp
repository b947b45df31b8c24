#pragma once
// "Device" memory that is a second host buffer, for MirroredMemory in the
// simt backend's emulated-device configuration (LATTE_EMULATE_DEVICE_MEMORY):
// statements run on one copy, host code on the other, and every copy between
// them goes through the residency bookkeeping the CUDA backend uses. A
// statement that forgot to bind a field, or host code that took the wrong
// access, then computes with stale data and the CPU test suite sees it.
// Halo payloads are staged through emulated pinned memory with held-back
// copies (platform/memory/emulated_staging.hpp), as the cuda backend stages
// them through pinned memory on its halo stream.

#include <cstddef>
#include <cstring>
#include <new>
#include <string>

#include "platform/memory/aligned_buffer.hpp"
#include "platform/memory/emulated_staging.hpp"

namespace latte {

struct EmulatedDevice {
  static void* allocate(std::size_t bytes, const std::string&) {
    void* p = ::operator new(bytes, std::align_val_t{AlignedBuffer::alignment});
    // Fresh device memory holds garbage, not zeros: make reading it visible.
    std::memset(p, 0xff, bytes);
    return p;
  }
  static void release(void* p) noexcept {
    if (p) ::operator delete(p, std::align_val_t{AlignedBuffer::alignment});
  }
  static void copy_to_device(void* to, const void* from, std::size_t bytes, const char*, const std::string&) {
    std::memcpy(to, from, bytes);
  }
  static void copy_to_host(void* to, const void* from, std::size_t bytes, const char*, const std::string&) {
    std::memcpy(to, from, bytes);
  }
  static void fill_zero(void* to, std::size_t bytes, const std::string&) { std::memset(to, 0, bytes); }
  static void copy_on_device(void* to, const void* from, std::size_t bytes, const std::string&) {
    std::memcpy(to, from, bytes);
  }

  // Halo staging (platform/memory/staged_payload.hpp).
  static void* allocate_pinned(std::size_t bytes, const std::string&) {
    return EmulatedStaging::instance().allocate_pinned(bytes);
  }
  static void release_pinned(void* p) noexcept { EmulatedStaging::instance().release_pinned(p); }
  static bool is_pinned(const void* p) { return EmulatedStaging::instance().is_pinned(p); }
  static void stage_to_host(void* to, const void* from, std::size_t bytes, const std::string&) {
    EmulatedStaging::instance().queue_to_host(to, from, bytes);
  }
  static void stage_to_device(void* to, const void* from, std::size_t bytes, const std::string&) {
    EmulatedStaging::instance().copy_to_device(to, from, bytes);
  }
  // The backend's wait for staging: queued copies to the host are done.
  static void complete_staging() { EmulatedStaging::instance().complete(); }
};

}  // namespace latte
