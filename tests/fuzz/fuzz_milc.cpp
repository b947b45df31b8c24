// Fuzzing harness of the MILC gauge file reader (gauge_file_harness.hpp
// says what it checks). Built by run_fuzzers.sh for libFuzzer; the test
// suite replays the corpus and the kept crash inputs through
// fuzz_milc_input (LATTE_FUZZ_REPLAY).

#include <cstddef>
#include <cstdint>
#include <string>

#include "gauge_file_harness.hpp"
#include "solvers/qcd/io/milc_gauge_file.hpp"

namespace latte::fuzz {

inline int fuzz_milc_input(const std::uint8_t* data, std::size_t size) {
  return read_gauge_or_refuse(
      data, size, "milc", [](const std::string& path) { return read_milc_header(path); },
      [](GaugeField<double>& U, const std::string& path) { read_milc(U, path); });
}

}  // namespace latte::fuzz

#ifndef LATTE_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return latte::fuzz::fuzz_milc_input(data, size);
}
#endif
