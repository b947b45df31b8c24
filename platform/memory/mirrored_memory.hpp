#pragma once
// Field storage for backends that run on a device: a device buffer
// (allocated with the field) and a host mirror (allocated the first time the
// host asks), with residency tracking. Each side is either current or stale; a view for
// one side copies the newest data there only if that side is stale and the
// view reads, and a view that writes marks the other side stale. Statements
// therefore run back to back on the device with no copies at all, and a field
// moves to the host only for peek/poke, I/O and host-side initialisation.
//
// Device is how device memory is had: platform/cuda/cuda_device.hpp (the
// CUDA runtime), or platform/memory/emulated_device.hpp (a second host
// buffer, so that the CPU test suite exercises this bookkeeping).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "platform/displacement_table.hpp"
#include "platform/memory/aligned_buffer.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/memory/transfer_log.hpp"

namespace latte {

template <class Device>
class MirroredMemory {
 public:
  MirroredMemory() = default;
  // describe() names the field in transfer logs and error messages.
  template <class Describe>
  MirroredMemory(std::size_t bytes, Describe&& describe, Traffic traffic = Traffic::field)
      : bytes_(bytes), label_(describe()), traffic_(traffic) {
    if (bytes_) device_ = Device::allocate(bytes_, label_);
  }
  MirroredMemory(const MirroredMemory&) = delete;
  MirroredMemory& operator=(const MirroredMemory&) = delete;
  MirroredMemory(MirroredMemory&& other) noexcept { swap(other); }
  MirroredMemory& operator=(MirroredMemory&& other) noexcept {
    MirroredMemory(std::move(other)).swap(*this);
    return *this;
  }
  ~MirroredMemory() { Device::release(device_); }

  void swap(MirroredMemory& other) noexcept {
    std::swap(bytes_, other.bytes_);
    std::swap(device_, other.device_);
    host_.swap(other.host_);
    std::swap(host_current_, other.host_current_);
    std::swap(device_current_, other.device_current_);
    std::swap(hash_, other.hash_);
    std::swap(hash_known_, other.hash_known_);
    label_.swap(other.label_);
    std::swap(traffic_, other.traffic_);
  }

  std::size_t bytes() const { return bytes_; }
  bool host_current() const { return host_current_; }
  bool device_current() const { return device_current_; }

  void* data(MemorySide side, Access access) {
    if (side == MemorySide::device) {
      if (access_reads(access) && !device_current_ && host_current_) copy(true);
      if (access_writes(access)) host_current_ = false;
      if (access_writes(access) || host_current_) device_current_ = true;
      return device_;
    }
    if (!host_.data() && bytes_) host_ = AlignedBuffer(bytes_);
    if (access_reads(access) && !host_current_ && device_current_) copy(false);
    if (access_writes(access)) device_current_ = false;
    if (access_writes(access) || device_current_) host_current_ = true;
    return host_.data();
  }

  // Every byte zero (+0 in every real) / a copy of other's newest bytes,
  // written on the device, where the statements that follow will read them
  // (the host side becomes stale). `records` is for host memory's thread
  // split; device memory is filled or copied whole.
  void fill_zero(std::int64_t /*records*/) {
    if (bytes_) Device::fill_zero(data(MemorySide::device, Access::write), bytes_, label_);
  }
  void copy_from(MirroredMemory& other, std::int64_t /*records*/) {
    if (!bytes_) return;
    const void* from = other.data(MemorySide::device, Access::read);
    Device::copy_on_device(data(MemorySide::device, Access::write), from, bytes_, label_);
  }

  // Shift tables are built on the host; the device gets a copy the first
  // time a statement there needs one, kept until the geometry goes.
  static DisplacementView table_view(const DisplacementTable& table, MemorySide side) {
    if (side == MemorySide::host) return table.host_view();
    std::call_once(table.device_copy_once, [&] { copy_table(table); });
    return table.device_view;
  }

 private:
  void copy(bool upload) {
    void* from = upload ? host_.data() : device_;
    void* to = upload ? device_ : host_.data();
    if (upload) Device::copy_to_device(to, from, bytes_, "copying to the device ", label_);
    else Device::copy_to_host(to, from, bytes_, "copying to the host ", label_);
    bool redundant = false;
    if (TransferLog::instance().tracing()) {
      const std::uint64_t h = content_hash(upload ? from : to, bytes_);
      redundant = hash_known_ && h == hash_;
      hash_ = h;
      hash_known_ = true;
    }
    TransferLog::instance().record(upload, bytes_, label_, redundant, traffic_);
    (upload ? device_current_ : host_current_) = true;
  }

  static void copy_table(const DisplacementTable& table) {
    const std::size_t n_neighbour = table.neighbour.size() * sizeof(std::int32_t);
    const std::size_t n_permutation = table.permutation.size();
    const std::size_t n_lanes = table.lane_sources.size() * sizeof(std::int32_t);
    const std::size_t lanes_at = (n_neighbour + n_permutation + 15) / 16 * 16;
    char* block = static_cast<char*>(Device::allocate(lanes_at + n_lanes, "a shift table"));
    table.device_copy = std::shared_ptr<void>(block, [](void* p) { Device::release(p); });
    const std::string what = "a shift table";
    Device::copy_to_device(block, table.neighbour.data(), n_neighbour, "copying to the device ", what);
    Device::copy_to_device(block + n_neighbour, table.permutation.data(), n_permutation, "copying to the device ", what);
    Device::copy_to_device(block + lanes_at, table.lane_sources.data(), n_lanes, "copying to the device ", what);
    table.device_view = {reinterpret_cast<const std::int32_t*>(block),
                         reinterpret_cast<const std::uint8_t*>(block + n_neighbour),
                         reinterpret_cast<const std::int32_t*>(block + lanes_at), table.nsimd,
                         table.interior_regular, table.interior_offset};
  }

  std::size_t bytes_ = 0;
  void* device_ = nullptr;
  AlignedBuffer host_;
  bool host_current_ = false, device_current_ = false;  // both stale: never written
  std::uint64_t hash_ = 0;
  bool hash_known_ = false;
  std::string label_;
  Traffic traffic_ = Traffic::field;
};

}  // namespace latte
