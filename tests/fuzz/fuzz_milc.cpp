// Fuzzing harness of the MILC gauge file reader: any bytes are either read
// or refused with GaugeFileError (a header that names a lattice this build
// cannot lay out is a LayoutError); anything else -- another exception, a
// crash, a sanitizer report, a huge allocation -- is a bug.
// Built by run_fuzzers.sh for libFuzzer; the test suite replays the corpus
// and the kept crash inputs through fuzz_milc_input (LATTE_FUZZ_REPLAY).

#include <cstddef>
#include <cstdint>

#include "fuzz_input_file.hpp"
#include "solvers/qcd/files/milc_gauge_file.hpp"

namespace latte::fuzz {

inline int fuzz_milc_input(const std::uint8_t* data, std::size_t size) {
  // Lattices up to this many sites are read into a field; larger headers
  // are checked, not read (a fuzzer's input is small: its data would be short).
  constexpr std::int64_t max_fuzzed_volume = 4096;
  const InputFile file(data, size, "milc");
  const std::string& path = file.path();
  try {
    const MilcHeader header = read_milc_header(path);
    if (header.volume() > max_fuzzed_volume) return 0;
    GaugeField<double> U{Geometry(header.extents)};
    read_milc(U, path);
  } catch (const GaugeFileError&) {
  } catch (const LayoutError&) {
  }
  return 0;
}

}  // namespace latte::fuzz

#ifndef LATTE_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return latte::fuzz::fuzz_milc_input(data, size);
}
#endif
