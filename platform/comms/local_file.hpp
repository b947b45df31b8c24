#pragma once
// A file read or written by one process through stdio, with 64-bit offsets:
// what a SharedFile is when one rank holds the whole lattice (every build
// without MPI, and a job of one rank).

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "platform/errors.hpp"

namespace latte::comms {

class LocalFile {
 public:
  LocalFile(const std::string& path, bool write) : path_(path) {
    file_ = std::fopen(path.c_str(), write ? "wb" : "rb");
    if (!file_)
      throw FileAccessError("cannot open '" + path + "' for " + (write ? "writing" : "reading") + ": " +
                            std::strerror(errno));
  }
  LocalFile(const LocalFile&) = delete;
  LocalFile& operator=(const LocalFile&) = delete;
  ~LocalFile() {
    if (file_) std::fclose(file_);
  }

  std::int64_t size() {
    seek(0, SEEK_END);
    return static_cast<std::int64_t>(ftello(file_));
  }
  void seek(std::int64_t offset, int whence = SEEK_SET) {
    if (fseeko(file_, static_cast<off_t>(offset), whence) != 0)
      throw FileAccessError("cannot seek in '" + path_ + "': " + std::strerror(errno));
  }
  // Whole reads only: a short read is an error naming the bytes found.
  void read(void* data, std::int64_t bytes) {
    const std::size_t got = std::fread(data, 1, static_cast<std::size_t>(bytes), file_);
    if (got != static_cast<std::size_t>(bytes))
      throw FileAccessError("cannot read " + std::to_string(bytes) + " bytes from '" + path_ + "' (got " +
                            std::to_string(got) + ", the file is shorter)");
  }
  void write(const void* data, std::int64_t bytes) {
    if (std::fwrite(data, 1, static_cast<std::size_t>(bytes), file_) != static_cast<std::size_t>(bytes))
      throw FileAccessError("cannot write " + std::to_string(bytes) + " bytes to '" + path_ + "': " +
                            std::strerror(errno));
  }
  // Flushes and closes; a full disk shows here at the latest.
  void close() {
    if (!file_) return;
    const bool failed = std::fflush(file_) != 0 || std::ferror(file_);
    const int error = errno;
    const bool close_failed = std::fclose(file_) != 0;
    file_ = nullptr;
    if (failed || close_failed) throw FileAccessError("cannot finish writing '" + path_ + "': " + std::strerror(error));
  }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace latte::comms
