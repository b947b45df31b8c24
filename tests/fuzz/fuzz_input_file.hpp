#pragma once
// The readers under fuzzing take a path: each input is written to a file of
// this process's own (in the temporary directory), read from there and
// removed afterwards.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace latte::fuzz {

class InputFile {
 public:
  InputFile(const std::uint8_t* data, std::size_t size, const char* reader)
      : path_((std::filesystem::temp_directory_path() /
               ("latte_fuzz_" + std::string(reader) + "_" + std::to_string(::getpid())))
                  .string()) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace latte::fuzz
