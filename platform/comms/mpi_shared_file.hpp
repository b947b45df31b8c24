#pragma once
// SharedFile of an MPI build (see shared_file.hpp): MPI-IO with a subarray
// file view per rank and collective transfers; stdio when the lattice's
// communicator is this rank alone.

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/comms/local_file.hpp"
#include "platform/comms/mpi_communicator.hpp"
#include "platform/coordinate.hpp"

namespace latte {

class SharedFile {
 public:
  enum class Mode { read, write };

  SharedFile(const Communicator& communicator, const std::string& path, Mode mode)
      : communicator_(communicator), path_(path) {
    if (communicator.alone()) {
      local_ = std::make_unique<comms::LocalFile>(path, mode == Mode::write);
      return;
    }
    const int access = mode == Mode::write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    const int code = MPI_File_open(communicator.handle(), path.c_str(), access, MPI_INFO_NULL, &file_);
    std::string failure;
    if (code != MPI_SUCCESS) {
      failure = "cannot open '" + path + "' for " + (mode == Mode::write ? "writing" : "reading") + ": " +
                error_text(code);
      file_ = MPI_FILE_NULL;
    }
    failure = communicator.first_failure(failure);
    if (failure.empty() && mode == Mode::write)  // an older, longer file would keep its tail
      failure = communicator.first_failure(failed(MPI_File_set_size(file_, 0), "truncate"));
    if (!failure.empty()) {
      if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
      throw FileAccessError(failure);
    }
  }
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;
  ~SharedFile() {
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
    free_types();
  }

  std::int64_t size() {
    if (local_) return local_->size();
    MPI_Offset bytes = 0;
    raise(MPI_File_get_size(file_, &bytes), "size");
    return static_cast<std::int64_t>(bytes);
  }

  void view_block(std::int64_t offset, std::int64_t record_bytes, const Coordinate& global, const Coordinate& local,
                  const Coordinate& origin) {
    if (local_) {
      if (local != global)
        throw FileAccessError("'" + path_ + "': a block " + to_string(local) + " of " + to_string(global) +
                              " on a communicator of one rank");
      record_bytes_ = record_bytes;
      local_->seek(offset);
      return;
    }
    free_types();
    record_bytes_ = record_bytes;
    // MPI's subarrays are in C order (last index fastest); ours has
    // dimension 0 fastest, so the dimensions are given in reverse.
    const int nd = static_cast<int>(global.size());
    std::vector<int> sizes(nd), subsizes(nd), starts(nd);
    for (int mu = 0; mu < nd; ++mu) {
      sizes[nd - 1 - mu] = global[mu];
      subsizes[nd - 1 - mu] = local[mu];
      starts[nd - 1 - mu] = origin[mu];
    }
    comms::check(MPI_Type_contiguous(static_cast<int>(record_bytes), MPI_BYTE, &record_), "MPI_Type_contiguous");
    comms::check(MPI_Type_commit(&record_), "MPI_Type_commit");
    comms::check(MPI_Type_create_subarray(nd, sizes.data(), subsizes.data(), starts.data(), MPI_ORDER_C, record_,
                                          &block_),
                 "MPI_Type_create_subarray");
    comms::check(MPI_Type_commit(&block_), "MPI_Type_commit");
    raise(MPI_File_set_view(file_, static_cast<MPI_Offset>(offset), record_, block_, "native", MPI_INFO_NULL),
          "set the view of");
  }

  void read_block(void* data, std::int64_t records) {
    if (local_) return local_->read(data, records * record_bytes_);
    MPI_Status status;
    raise(MPI_File_read_all(file_, data, count_of(records), record_, &status), "read");
    int got = 0;
    MPI_Get_count(&status, record_, &got);
    if (got != records)
      throw FileAccessError("cannot read " + std::to_string(records) + " sites from '" + path_ + "' on rank " +
                            std::to_string(communicator_.rank()) + " (got " + std::to_string(got) +
                            ", the file is shorter)");
  }
  void write_block(const void* data, std::int64_t records) {
    if (local_) return local_->write(data, records * record_bytes_);
    MPI_Status status;
    raise(MPI_File_write_all(file_, data, count_of(records), record_, &status), "write");
  }

  // Bytes at an absolute offset, read or written by rank 0 only; every rank
  // calls (the byte view is set collectively).
  void root_write_at(std::int64_t offset, const void* data, std::int64_t bytes) {
    if (local_) {
      local_->seek(offset);
      return local_->write(data, bytes);
    }
    byte_view();
    std::string failure;
    if (communicator_.rank() == 0) {
      MPI_Status status;
      failure = failed(MPI_File_write_at(file_, offset, data, count_of(bytes), MPI_BYTE, &status), "write");
    }
    failure = communicator_.first_failure(failure);
    if (!failure.empty()) throw FileAccessError(failure);
  }
  void root_read_at(std::int64_t offset, void* data, std::int64_t bytes) {
    if (local_) {
      local_->seek(offset);
      return local_->read(data, bytes);
    }
    byte_view();
    std::string failure;
    if (communicator_.rank() == 0) {
      MPI_Status status;
      failure = failed(MPI_File_read_at(file_, offset, data, count_of(bytes), MPI_BYTE, &status), "read");
      int got = 0;
      if (failure.empty()) MPI_Get_count(&status, MPI_BYTE, &got);
      if (failure.empty() && got != bytes) failure = "'" + path_ + "' is shorter than " + std::to_string(offset + bytes) + " bytes";
    }
    failure = communicator_.first_failure(failure);
    if (!failure.empty()) throw FileAccessError(failure);
  }

  // Collective; all data is on disk (as far as the file system promises)
  // when it returns on any rank.
  void close() {
    if (local_) return local_->close();
    std::string failure = failed(MPI_File_sync(file_), "flush");
    if (failure.empty()) failure = failed(MPI_File_close(&file_), "close");
    file_ = MPI_FILE_NULL;
    failure = communicator_.first_failure(failure);
    if (!failure.empty()) throw FileAccessError(failure);
  }

 private:
  static std::string error_text(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    return std::string(text, static_cast<std::size_t>(length));
  }
  std::string failed(int code, const char* what) const {
    if (code == MPI_SUCCESS) return {};
    return std::string("cannot ") + what + " '" + path_ + "' (MPI-IO, rank " + std::to_string(communicator_.rank()) +
           "): " + error_text(code);
  }
  void raise(int code, const char* what) const {
    if (code != MPI_SUCCESS) throw FileAccessError(failed(code, what));
  }
  int count_of(std::int64_t n) const {
    if (n < 0 || n > 2147483647)
      throw FileAccessError("'" + path_ + "': a transfer of " + std::to_string(n) + " items is beyond MPI's int count");
    return static_cast<int>(n);
  }
  void byte_view() {
    raise(MPI_File_set_view(file_, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "set the view of");
  }
  void free_types() {
    if (block_ != MPI_DATATYPE_NULL) MPI_Type_free(&block_);
    if (record_ != MPI_DATATYPE_NULL) MPI_Type_free(&record_);
  }

  Communicator communicator_;
  std::string path_;
  std::unique_ptr<comms::LocalFile> local_;
  MPI_File file_ = MPI_FILE_NULL;
  MPI_Datatype record_ = MPI_DATATYPE_NULL, block_ = MPI_DATATYPE_NULL;
  std::int64_t record_bytes_ = 1;
};

}  // namespace latte
