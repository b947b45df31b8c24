#pragma once
// SharedFile of a build without MPI: one rank holds the whole lattice, so
// its block is the whole file region and the file is read in order.

#include <cstdint>
#include <string>

#include "platform/comms/communicator.hpp"
#include "platform/comms/local_file.hpp"
#include "platform/coordinate.hpp"

namespace latte {

class SharedFile {
 public:
  enum class Mode { read, write };
  SharedFile(const Communicator&, const std::string& path, Mode mode) : file_(path, mode == Mode::write), path_(path) {}

  std::int64_t size() { return file_.size(); }
  void view_block(std::int64_t offset, std::int64_t record_bytes, const Coordinate& global, const Coordinate& local,
                  const Coordinate&) {
    if (local != global)
      throw FileAccessError("'" + path_ + "': a block " + to_string(local) + " of the lattice " + to_string(global) +
                            " in a build without MPI");
    record_bytes_ = record_bytes;
    file_.seek(offset);
  }
  void read_block(void* data, std::int64_t records) { file_.read(data, records * record_bytes_); }
  void write_block(const void* data, std::int64_t records) { file_.write(data, records * record_bytes_); }
  void root_write_at(std::int64_t offset, const void* data, std::int64_t bytes) {
    file_.seek(offset);
    file_.write(data, bytes);
  }
  void root_read_at(std::int64_t offset, void* data, std::int64_t bytes) {
    file_.seek(offset);
    file_.read(data, bytes);
  }
  void close() { file_.close(); }

 private:
  comms::LocalFile file_;
  std::string path_;
  std::int64_t record_bytes_ = 1;
};

}  // namespace latte
