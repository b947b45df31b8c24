#pragma once
// Owning, aligned, uninitialised storage for field data. 64-byte alignment
// covers every SIMD width Latte uses; large buffers ask Linux for huge pages,
// which keeps streaming kernels from thrashing the TLB.
//
// Large buffers a program frees are kept for its next buffer of the same
// size instead of going back to the system (LargeBufferCache). Solvers make
// and drop scratch fields on every call; a buffer beyond the C library's
// mmap threshold (32 MiB at most) is unmapped when freed, and the next one
// costs a page fault per page on its first write. Once memory is
// fragmented, huge pages are no longer to be had and those faults run at
// 0.3 GB/s on the 2-core VM: a 12-right-hand-side even-odd solve at 16^4
// spent 1.6 of its 2.9 s in the first writes of fresh batch fields
// (statement profile: "a = 0", "a = pick(b)" at ~1 GB/s), on every call.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace latte {

// Freed buffers of at least 2 MiB, up to 16 of them and at most an eighth of
// the machine's memory in all; the oldest go back to the system first.
// Never destroyed, so that buffers freed during static destruction still
// find it; what it holds stays reachable until the process ends.
class LargeBufferCache {
 public:
  static LargeBufferCache& instance() {
    static LargeBufferCache& cache = *new LargeBufferCache;
    return cache;
  }

  // A kept buffer of exactly `bytes`, or nullptr.
  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    int best = -1;
    for (int i = 0; i < slots; ++i)
      if (entries_[i].data && entries_[i].bytes == bytes && (best < 0 || entries_[i].stamp > entries_[best].stamp))
        best = i;
    if (best < 0) return nullptr;
    void* p = entries_[best].data;
    cached_bytes_ -= bytes;
    entries_[best] = {};
    return p;
  }
  // Keeps p (of `bytes`) for a later take, or frees it when it cannot be kept.
  void keep(void* p, std::size_t bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (bytes > cap_) {
      lock.unlock();
      std::free(p);
      return;
    }
    while (cached_bytes_ + bytes > cap_ || free_slot() < 0) evict_oldest();
    entries_[free_slot()] = {p, bytes, ++clock_};
    cached_bytes_ += bytes;
  }
  // Gives every kept buffer back to the system.
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    while (cached_bytes_ > 0) evict_oldest();
  }
  std::size_t cached_bytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_bytes_;
  }

 private:
  static constexpr int slots = 16;
  struct Entry {
    void* data = nullptr;
    std::size_t bytes = 0;
    std::uint64_t stamp = 0;
  };

  LargeBufferCache() {
#if defined(__linux__)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) cap_ = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 8;
#endif
  }
  int free_slot() const {
    for (int i = 0; i < slots; ++i)
      if (!entries_[i].data) return i;
    return -1;
  }
  void evict_oldest() {
    int oldest = -1;
    for (int i = 0; i < slots; ++i)
      if (entries_[i].data && (oldest < 0 || entries_[i].stamp < entries_[oldest].stamp)) oldest = i;
    if (oldest < 0) return;
    std::free(entries_[oldest].data);
    cached_bytes_ -= entries_[oldest].bytes;
    entries_[oldest] = {};
  }

  std::mutex mutex_;
  Entry entries_[slots];
  std::size_t cached_bytes_ = 0;
  std::size_t cap_ = std::size_t(1) << 30;
  std::uint64_t clock_ = 0;
};

// Gives the buffers the program freed, and Latte kept for reuse, back to the
// system (for a program that next needs the memory for something else).
inline void release_cached_buffers() { LargeBufferCache::instance().release(); }

class AlignedBuffer {
 public:
  static constexpr std::size_t alignment = 64;
  static constexpr std::size_t huge_page = std::size_t(2) << 20;

  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    const std::size_t align = alignment_for(bytes);
    const std::size_t rounded = allocated_bytes(bytes);
    if (align == huge_page && (data_ = LargeBufferCache::instance().take(rounded))) return;
    data_ = std::aligned_alloc(align, rounded);
    if (!data_ && align == huge_page) {
      // Out of memory while holding freed buffers: give them back and retry.
      release_cached_buffers();
      data_ = std::aligned_alloc(align, rounded);
    }
    if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == huge_page) madvise(data_, rounded, MADV_HUGEPAGE);
#endif
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept { swap(other); }
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept {
    AlignedBuffer(std::move(other)).swap(*this);
    return *this;
  }
  ~AlignedBuffer() {
    if (data_ && alignment_for(bytes_) == huge_page) LargeBufferCache::instance().keep(data_, allocated_bytes(bytes_));
    else std::free(data_);
  }

  void swap(AlignedBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
  }
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  // Huge-page alignment (and size) for buffers of a huge page and more.
  static std::size_t alignment_for(std::size_t bytes) { return bytes >= huge_page ? huge_page : alignment; }
  static std::size_t allocated_bytes(std::size_t bytes) {
    const std::size_t align = alignment_for(bytes);
    return (bytes + align - 1) / align * align;
  }

  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace latte
