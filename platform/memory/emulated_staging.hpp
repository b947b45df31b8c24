#pragma once
// Pinned staging memory and queued copies, emulated on the CPU for the
// simt backend's emulated-device configuration (platform/memory/emulated_device.hpp),
// so that the CPU test suite checks how halo payloads are staged:
//   - pinned buffers are ordinary host memory that is remembered as pinned,
//     so a test can ask whether a pointer handed to MPI is staging memory,
//     and a staging copy whose host side is not pinned is counted apart
//     (on a GPU it would be a slow, synchronous copy from pageable memory);
//   - a queued copy to the host is held back until the backend waits for
//     staging (complete()), as an asynchronous copy on a stream would be: a
//     message sent before that wait carries garbage and the decomposition
//     tests see it. Copies to the device are made at once: the unpack that
//     reads them runs right after, as it would behind them on the stream.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "platform/memory/aligned_buffer.hpp"

namespace latte {

struct StagingCounts {
  std::int64_t pinned_buffers = 0;      // pinned buffers alive
  std::int64_t pinned_allocations = 0;  // pinned buffers ever allocated
  std::int64_t staged_copies = 0;       // queued copies between device memory and a pinned buffer
  std::int64_t unpinned_copies = 0;     // queued copies whose host side was not pinned
};

class EmulatedStaging {
 public:
  // Never destroyed: halo buffers kept by static geometries release their
  // pinned memory at exit, possibly after a static instance would be gone.
  static EmulatedStaging& instance() {
    static EmulatedStaging* const staging = new EmulatedStaging;
    return *staging;
  }

  void* allocate_pinned(std::size_t bytes) {
    void* p = ::operator new(bytes, std::align_val_t{AlignedBuffer::alignment});
    std::memset(p, 0xff, bytes);  // garbage, not zeros: a payload never staged is visible
    std::lock_guard<std::mutex> lock(mutex_);
    pinned_.emplace(reinterpret_cast<std::uintptr_t>(p), bytes);
    ++counts_.pinned_buffers;
    ++counts_.pinned_allocations;
    return p;
  }
  void release_pinned(void* p) noexcept {
    if (!p) return;
    complete();  // a held-back copy may still write into it
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pinned_.erase(reinterpret_cast<std::uintptr_t>(p));
      --counts_.pinned_buffers;
    }
    ::operator delete(p, std::align_val_t{AlignedBuffer::alignment});
  }

  bool is_pinned(const void* p) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return pinned_locked(p);
  }

  void queue_to_host(void* to, const void* from, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    count_locked(to);
    held_back_.push_back({to, from, bytes});  // capacity is kept: repeated statements allocate nothing
  }
  void copy_to_device(void* to, const void* from, std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      count_locked(from);
    }
    std::memcpy(to, from, bytes);
  }

  // The held-back copies to the host, made now (the backend's wait for staging).
  void complete() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Copy& c : held_back_) std::memcpy(c.to, c.from, c.bytes);
    held_back_.clear();
  }

  StagingCounts counts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return counts_;
  }

 private:
  struct Copy {
    void* to;
    const void* from;
    std::size_t bytes;
  };

  bool pinned_locked(const void* p) const {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    auto next = pinned_.upper_bound(address);
    if (next == pinned_.begin()) return false;
    --next;
    return address < next->first + next->second;
  }
  void count_locked(const void* host) { ++(pinned_locked(host) ? counts_.staged_copies : counts_.unpinned_copies); }

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, std::size_t> pinned_;  // start -> bytes
  std::vector<Copy> held_back_;
  StagingCounts counts_;
};

inline StagingCounts staging_counts() { return EmulatedStaging::instance().counts(); }

}  // namespace latte
