#pragma once
// Counting and tracing host <-> device copies of field data (mirrored
// memory: the cuda backend, and the simt backend with emulated device memory).
//
// Counters are always kept (tests assert on them). With LATTE_TRACE_TRANSFERS=1
// in the environment (or the CMake option LATTE_TRACE_TRANSFERS, which makes it
// the default) every copy is printed to stderr, and each copy's
// bytes are hashed so that a REDUNDANT copy is flagged: one that moves exactly
// the contents the field already had at its previous copy, i.e. the side
// being refreshed was invalidated by a view that asked for write access but
// changed nothing (ask for Access::read instead).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "platform/memory/memory_side.hpp"

namespace latte {

// Copies of field data; copies of halo buffers and exchange tables are
// counted apart (halo_copies, halo_bytes).
struct TransferCounts {
  std::int64_t uploads = 0;     // host -> device
  std::int64_t downloads = 0;   // device -> host
  std::int64_t bytes = 0;       // both directions
  std::int64_t redundant = 0;   // flagged copies (traced runs only)
  std::int64_t halo_copies = 0;
  std::int64_t halo_bytes = 0;
};

class TransferLog {
 public:
  static TransferLog& instance() {
    static TransferLog log;
    return log;
  }

  bool tracing() const { return tracing_; }
  void set_tracing(bool on) { tracing_ = on; }

  TransferCounts counts() const {
    return {uploads_.load(), downloads_.load(), bytes_.load(), redundant_.load(), halo_copies_.load(), halo_bytes_.load()};
  }

  void record(bool upload, std::size_t bytes, const std::string& label, bool redundant, Traffic traffic) {
    if (traffic == Traffic::halo) {
      halo_copies_.fetch_add(1);
      halo_bytes_.fetch_add(static_cast<std::int64_t>(bytes));
      if (tracing_)
        std::fprintf(stderr, "latte transfer: %s %zu bytes of %s\n", upload ? "host -> device" : "device -> host", bytes,
                     label.c_str());
      return;
    }
    (upload ? uploads_ : downloads_).fetch_add(1);
    bytes_.fetch_add(static_cast<std::int64_t>(bytes));
    if (redundant) redundant_.fetch_add(1);
    if (tracing_)
      std::fprintf(stderr, "latte transfer: %s %zu bytes of %s%s\n", upload ? "host -> device" : "device -> host",
                   bytes, label.c_str(),
                   redundant ? "  REDUNDANT: contents unchanged since the previous copy (a view took write "
                               "access and wrote nothing new)"
                             : "");
  }

 private:
  TransferLog() {
#if defined(LATTE_TRACE_TRANSFERS_DEFAULT)
    tracing_ = true;
#endif
    if (const char* value = std::getenv("LATTE_TRACE_TRANSFERS")) tracing_ = *value && std::string(value) != "0";
  }
  bool tracing_ = false;
  std::atomic<std::int64_t> uploads_{0}, downloads_{0}, bytes_{0}, redundant_{0}, halo_copies_{0}, halo_bytes_{0};
};

inline TransferCounts transfer_counts() { return TransferLog::instance().counts(); }

// A fast 64-bit hash of a buffer (only computed while tracing).
inline std::uint64_t content_hash(const void* data, std::size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ bytes;
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word;
    __builtin_memcpy(&word, p + i, 8);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  for (; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace latte
