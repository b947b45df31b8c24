#pragma once
// Field storage for backends that run on the host (cpu, simt): one aligned
// buffer, so both memory sides are the same memory and nothing ever moves.

#include <cstddef>

#include "lattice/aligned_buffer.hpp"
#include "lattice/displacement_table.hpp"
#include "lattice/memory_side.hpp"

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

  static DisplacementView table_view(const DisplacementTable& table, MemorySide) { return table.host_view(); }

 private:
  AlignedBuffer buffer_;
};

}  // namespace latte
