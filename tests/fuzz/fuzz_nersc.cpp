// Fuzzing harness of the NERSC gauge file reader (gauge_file_harness.hpp
// says what it checks). Built by run_fuzzers.sh for libFuzzer; the test
// suite replays the corpus and the kept crash inputs through
// fuzz_nersc_input (LATTE_FUZZ_REPLAY).

#include <cstddef>
#include <cstdint>
#include <string>

#include "gauge_file_harness.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"

namespace latte::fuzz {

inline int fuzz_nersc_input(const std::uint8_t* data, std::size_t size) {
  return read_gauge_or_refuse(
      data, size, "nersc", [](const std::string& path) { return read_nersc_header(path); },
      [](GaugeField<double>& U, const std::string& path) { read_nersc(U, path); });
}

}  // namespace latte::fuzz

#ifndef LATTE_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return latte::fuzz::fuzz_nersc_input(data, size);
}
#endif
