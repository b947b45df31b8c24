#pragma once
// A halo message's payload for backends on device memory (cuda, and the
// simt backend with emulated device memory): a device buffer that pack
// kernels write and unpack kernels read and, for a message between ranks
// that goes through host memory, a pinned host buffer that MPI is handed.
//
// Unlike field memory (platform/memory/mirrored_memory.hpp) there is no
// residency tracking: the statement plan knows when each side holds the
// message, and says so. stage_to_host() and stage_to_device() only queue
// the copy behind the halo work issued before (on cuda, the halo stream of
// platform/cuda/halo_stream.hpp); a copy to the host is there once the
// backend's halo_staged() returns, a copy to the device is seen by the
// unpack kernels queued after it. Pinned memory is what lets these copies be
// DMA transfers that run asynchronously; it is allocated only for messages
// that cross ranks through the host, never for fields.
//
// Device: allocate/release (device memory), allocate_pinned/release_pinned
// (host staging memory), stage_to_host/stage_to_device (queued copies) and
// is_pinned (whether a host pointer lies in pinned staging memory).

#include <cstddef>
#include <string>
#include <utility>

#include "platform/memory/memory_side.hpp"
#include "platform/memory/payload_route.hpp"
#include "platform/memory/transfer_log.hpp"

namespace latte {

template <class Device>
class StagedPayload {
 public:
  StagedPayload() = default;
  // describe() names the payload in transfer logs and error messages.
  template <class Describe>
  StagedPayload(std::size_t bytes, Describe&& describe, PayloadRoute route)
      : bytes_(bytes), route_(route), label_(describe()) {
    if (bytes_ == 0) return;
    device_ = Device::allocate(bytes_, label_);
    if (route_ != PayloadRoute::staged) return;
    try {
      host_ = Device::allocate_pinned(bytes_, label_);
    } catch (...) {
      Device::release(device_);
      throw;
    }
  }
  StagedPayload(const StagedPayload&) = delete;
  StagedPayload& operator=(const StagedPayload&) = delete;
  StagedPayload(StagedPayload&& other) noexcept { swap(other); }
  StagedPayload& operator=(StagedPayload&& other) noexcept {
    StagedPayload(std::move(other)).swap(*this);
    return *this;
  }
  ~StagedPayload() {
    Device::release_pinned(host_);
    Device::release(device_);
  }

  void swap(StagedPayload& other) noexcept {
    std::swap(bytes_, other.bytes_);
    std::swap(route_, other.route_);
    std::swap(device_, other.device_);
    std::swap(host_, other.host_);
    label_.swap(other.label_);
  }

  std::size_t bytes() const { return bytes_; }
  PayloadRoute route() const { return route_; }

  // Every access names the memory side of the statement's backend. A
  // statement of the build's own backend works on the device buffer; one of
  // a host backend (an explicit simt statement in a cuda build, say, which
  // tests use as the per-lane reference) packs and unpacks in host memory:
  // the pinned buffer, made here the first time such a statement uses a
  // payload that has none. Host code must never touch the device buffer.

  // What pack writes and unpack reads.
  void* kernel_data(MemorySide side) { return side == MemorySide::device ? device_ : host_buffer(); }
  // What MPI is handed: the pinned copy, or the device buffer itself
  // (CUDA-aware MPI); a message to this rank never reaches MPI.
  void* message_data(MemorySide side) {
    switch (route_) {
      case PayloadRoute::staged: return host_;
      case PayloadRoute::direct: return side == MemorySide::device ? device_ : host_buffer();
      case PayloadRoute::in_place: break;
    }
    return nullptr;
  }

  // Queue the copy of the packed payload to the pinned buffer (staged
  // device payloads only: a host statement packed it there already).
  void stage_to_host(MemorySide side) {
    if (route_ != PayloadRoute::staged || bytes_ == 0 || side == MemorySide::host) return;
    Device::stage_to_host(host_, device_, bytes_, label_);
    TransferLog::instance().record(/*upload=*/false, bytes_, label_, /*redundant=*/false, Traffic::halo);
  }
  // Queue the copy of the received payload to the device (likewise).
  void stage_to_device(MemorySide side) {
    if (route_ != PayloadRoute::staged || bytes_ == 0 || side == MemorySide::host) return;
    Device::stage_to_device(device_, host_, bytes_, label_);
    TransferLog::instance().record(/*upload=*/true, bytes_, label_, /*redundant=*/false, Traffic::halo);
  }

  // Whether p lies in pinned staging memory (for tests of the staging).
  static bool is_pinned(const void* p) { return Device::is_pinned(p); }

 private:
  void* host_buffer() {
    if (!host_ && bytes_ > 0) host_ = Device::allocate_pinned(bytes_, label_);
    return host_;
  }

  std::size_t bytes_ = 0;
  PayloadRoute route_ = PayloadRoute::in_place;
  void* device_ = nullptr;
  void* host_ = nullptr;
  std::string label_;
};

}  // namespace latte
