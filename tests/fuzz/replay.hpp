#pragma once
// Replays a fuzzing harness's seed corpus and kept crash inputs
// (LATTE_FUZZ_DIRECTORY/{corpus,crashes}/<reader>/) in the ordinary test
// suite: a reader change that brings back a fixed crash fails here, under
// g++, without libFuzzer.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace latte::fuzz {

// Feeds every file of the reader's corpus and crash folders to the harness;
// returns how many files it fed.
template <class Harness>
int replay_inputs(const std::string& reader, Harness&& harness) {
  int fed = 0;
  for (const char* folder : {"corpus", "crashes"}) {
    const std::filesystem::path directory = std::filesystem::path(LATTE_FUZZ_DIRECTORY) / folder / reader;
    if (!std::filesystem::is_directory(directory)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
      if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
      harness(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++fed;
    }
  }
  return fed;
}

}  // namespace latte::fuzz
