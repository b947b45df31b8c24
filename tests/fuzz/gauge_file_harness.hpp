#pragma once
// What every gauge-file harness does with an input (fuzz_nersc.cpp,
// fuzz_ildg.cpp, fuzz_openqcd.cpp, fuzz_milc.cpp): write it to a file, read
// the header, and read a field of the lattice the header names. Any bytes
// are either read or refused with GaugeFileError (a header that names a
// lattice this build cannot lay out is a LayoutError); anything else --
// another exception, a crash, a sanitizer report, a huge allocation -- is a
// bug. What a reader accepts is checked too: a field read from any file
// holds finite links (every reader refuses NaNs and infinities), or the
// harness throws, which libFuzzer reports as a crash. (The plaquette is
// finite exactly when every entry of every link is: each entry enters it
// through products, and a NaN or an infinity cannot cancel there.)
// run_fuzzers.sh gives libFuzzer not_finite.dict, the bytes of NaNs and
// infinities in every precision and byte order, to put into links.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz_input_file.hpp"
#include "platform/errors.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"

namespace latte::fuzz {

// Lattices up to this many sites are read into a field; larger headers are
// checked, not read (a fuzzer's input is small: its data would be short).
inline constexpr std::int64_t max_fuzzed_volume = 4096;

// read_header(path) returns a header with volume() and extents;
// read(U, path) reads the field.
template <class ReadHeader, class Read>
int read_gauge_or_refuse(const std::uint8_t* data, std::size_t size, const char* reader, ReadHeader&& read_header,
                         Read&& read) {
  const InputFile file(data, size, reader);
  const std::string& path = file.path();
  try {
    const auto header = read_header(path);
    if (header.volume() > max_fuzzed_volume) return 0;
    GaugeField<double> U{Geometry(header.extents)};
    read(U, path);
    if (!std::isfinite(average_plaquette(U)))
      throw std::logic_error(std::string("the ") + reader + " reader accepted links that are not finite");
  } catch (const GaugeFileError&) {
  } catch (const LayoutError&) {
  }
  return 0;
}

}  // namespace latte::fuzz
