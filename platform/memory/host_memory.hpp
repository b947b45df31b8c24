#pragma once
// Field storage for backends that run on the host (cpu, simt): one aligned
// buffer, so both memory sides are the same memory and nothing ever moves.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "platform/displacement_table.hpp"
#include "platform/memory/aligned_buffer.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/parallel.hpp"

namespace latte {

class HostMemory {
 public:
  HostMemory() = default;
  // describe() would name the field in messages; host memory has none to give.
  template <class Describe>
  HostMemory(std::size_t bytes, Describe&& /*describe*/, Traffic = Traffic::field) : buffer_(bytes) {}

  void* data(MemorySide, Access) { return buffer_.data(); }
  std::size_t bytes() const { return buffer_.bytes(); }
  void swap(HostMemory& other) noexcept { buffer_.swap(other.buffer_); }

  // Every byte zero (+0 in every real) / a copy of other's bytes, in
  // `records` equal records (a field's outer sites), split among the threads
  // as the statements split outer sites: each page is first touched by the
  // thread that works on its sites.
  void fill_zero(std::int64_t records) {
    for_each_record(records, [](char* to, std::size_t offset, std::size_t bytes) { std::memset(to + offset, 0, bytes); });
  }
  void copy_from(HostMemory& other, std::int64_t records) {
    const char* from = static_cast<const char*>(other.buffer_.data());
    for_each_record(records, [from](char* to, std::size_t offset, std::size_t bytes) {
      std::memcpy(to + offset, from + offset, bytes);
    });
  }

  static DisplacementView table_view(const DisplacementTable& table, MemorySide) { return table.host_view(); }

 private:
  // body(buffer, offset, bytes) for each of `records` equal records, in parallel.
  template <class Body>
  void for_each_record(std::int64_t records, Body body) {
    char* to = static_cast<char*>(buffer_.data());
    const std::size_t record = records > 0 ? buffer_.bytes() / static_cast<std::size_t>(records) : 0;
    parallel_for(records, [=](std::int64_t r) { body(to, static_cast<std::size_t>(r) * record, record); });
  }

  AlignedBuffer buffer_;
};

}  // namespace latte
