#pragma once
// Gauge configurations in the NERSC archive format, the exchange format of
// MILC, Grid, Chroma/QDP++, CPS and many public ensembles.
//
// A file is an ASCII header
//   BEGIN_HEADER
//   KEY = value          (one per line, in any order)
//   END_HEADER
// followed by the links, nothing else:
//   - sites with x fastest, then y, z, t (Latte's lexicographic order,
//     dimension 0 fastest; Geometry::global_index);
//   - at each site the links of mu = 0, 1, 2, 3 (x, y, z, t);
//   - each link row by row, each entry as (re, im).
// DATATYPE 4D_SU3_GAUGE_3x3 stores all three rows; 4D_SU3_GAUGE stores two,
// and the third is rebuilt as the conjugated cross product of the first two
// (exact for SU(3), the same rule random_su3 uses). FLOATING_POINT is
// IEEE64BIG, IEEE64LITTLE, IEEE32BIG or IEEE32LITTLE (IEEE32 and IEEE64
// alone mean big-endian).
//
// Integrity, checked on reading (a mismatch is a GaugeFileError naming the
// file and both values):
//   CHECKSUM   the sum modulo 2^32 of the stored reals seen as 32-bit unsigned
//              words in little-endian order (each real first brought to
//              little endian, whatever the file's order), in hex;
//   LINK_TRACE the average over all links of Re tr U / 3;
//   PLAQUETTE  the average over all plaquettes of Re tr U_p / 3 (the
//              normalisation of average_plaquette: 1 on the free field).
// Both averages are compared to 1e-6 relative (headers print about ten
// digits); files without them are read with the checksum alone. A file that
// fails its checksum or link trace leaves the field as it was. A file of
// 32-bit reals read into double links keeps the float values (no
// reunitarisation).

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lattice/layout/block_slices.hpp"
#include "platform/comms/shared_file.hpp"
#include "platform/parallel.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"

namespace latte {

// A gauge file that cannot be read: missing, truncated, malformed or failing
// its checksum or header averages.
struct GaugeFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a NERSC header says about the links that follow it.
struct NerscHeader {
  std::map<std::string, std::string> fields;  // every KEY = value, as written
  Coordinate extents;                         // DIMENSION_1..4
  int stored_rows = 3;                        // 3 (4D_SU3_GAUGE_3x3) or 2 (4D_SU3_GAUGE)
  int real_bytes = 8;                         // 8 (IEEE64) or 4 (IEEE32)
  bool big_endian = true;
  std::streamoff data_offset = 0;             // first byte after END_HEADER's line

  // read_nersc_header refuses extents whose data_bytes() would not fit in
  // 64 bits, so these never overflow for a header it returned.
  std::int64_t volume() const {
    std::int64_t v = 1;
    for (int extent : extents) v *= extent;
    return v;
  }
  std::int64_t data_bytes() const { return volume() * 4 * stored_rows * 3 * 2 * real_bytes; }
};

namespace nersc_detail {

inline std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

inline std::string quoted(const std::string& path) { return "'" + path + "'"; }

// Header lines are short ("KEY = value"); a longer one is binary data or
// garbage, and reading it whole could take as much memory as the file.
inline constexpr std::size_t max_header_line = 4096;

// std::getline with a length limit: false at the end of the file, throws on
// a line longer than max_header_line.
inline bool read_header_line(std::istream& in, std::string& line, int number, const std::string& path) {
  line.clear();
  for (int c = in.get(); c != std::char_traits<char>::eof(); c = in.get()) {
    if (c == '\n') return true;
    if (line.size() == max_header_line)
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": header line " + std::to_string(number) +
                           " is longer than " + std::to_string(max_header_line) + " bytes (not a NERSC header)");
    line.push_back(static_cast<char>(c));
  }
  return !line.empty();
}

template <class Word>
Word byte_swapped(Word w) {
  unsigned char bytes[sizeof(Word)];
  std::memcpy(bytes, &w, sizeof(Word));
  std::reverse(bytes, bytes + sizeof(Word));
  std::memcpy(&w, bytes, sizeof(Word));
  return w;
}

// The file's reals in host order, as double; the checksum is accumulated on
// the little-endian words on the way.
template <class Real, class Word>
void decode(const unsigned char* raw, std::size_t count, bool big_endian, std::vector<double>& out,
            std::uint32_t& checksum) {
  static_assert(sizeof(Real) == sizeof(Word));
  constexpr bool host_big = std::endian::native == std::endian::big;
  for (std::size_t i = 0; i < count; ++i) {
    Word w;
    std::memcpy(&w, raw + i * sizeof(Word), sizeof(Word));
    if (big_endian != host_big) w = byte_swapped(w);   // now host order
    const Word little = host_big ? byte_swapped(w) : w;  // little-endian image, for the checksum
    std::uint32_t halves[sizeof(Word) / 4];
    std::memcpy(halves, &little, sizeof(Word));
    for (std::uint32_t h : halves) checksum += host_big ? byte_swapped(h) : h;
    Real value;
    std::memcpy(&value, &w, sizeof(Word));
    out[i] = static_cast<double>(value);
  }
}

template <class Real, class Word>
void encode(const std::vector<double>& values, bool big_endian, std::vector<unsigned char>& raw,
            std::uint32_t& checksum) {
  constexpr bool host_big = std::endian::native == std::endian::big;
  raw.resize(values.size() * sizeof(Word));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Real value = static_cast<Real>(values[i]);
    Word w;
    std::memcpy(&w, &value, sizeof(Word));
    const Word little = host_big ? byte_swapped(w) : w;
    std::uint32_t halves[sizeof(Word) / 4];
    std::memcpy(halves, &little, sizeof(Word));
    for (std::uint32_t h : halves) checksum += host_big ? byte_swapped(h) : h;
    if (big_endian != host_big) w = byte_swapped(w);
    std::memcpy(raw.data() + i * sizeof(Word), &w, sizeof(Word));
  }
}

// Each rank moves its own block of the file, one t-slice of the block at a
// time (dimension 3, the slowest; lattice/layout/block_slices.hpp), so a
// configuration never sits in memory twice: a 48^3 x 96 file is 6 GiB.

// Slice t of this rank's block of U as the file's reals (at each site
// mu = 0..3, rows of each link, (re, im)), in double.
template <class R, class W>
void gather_slice(const GaugeField<R, W>& U, const BlockSlices& block, int t, int rows, std::vector<double>& values) {
  const std::size_t reals_per_link = static_cast<std::size_t>(rows) * 6;
  values.resize(static_cast<std::size_t>(block.sites_per_slice()) * 4 * reals_per_link);
  const std::array views{U[0].host_view(Access::read), U[1].host_view(Access::read), U[2].host_view(Access::read),
                         U[3].host_view(Access::read)};
  parallel_for(block.sites_per_slice(), [&](std::int64_t s) {
    const auto [outer, lane] = block.place(t, s);
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<R> u = views[mu].load(LaneSite<R>{outer, lane});
      double* link = &values[(static_cast<std::size_t>(s) * 4 + mu) * reals_per_link];
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < 3; ++j) {
          link[6 * i + 2 * j] = static_cast<double>(u(i, j).re);
          link[6 * i + 2 * j + 1] = static_cast<double>(u(i, j).im);
        }
    }
  });
}

// The file's reals of slice t of this rank's block into U; two stored rows
// get the third rebuilt.
template <class R, class W>
void scatter_slice(GaugeField<R, W>& U, const BlockSlices& block, int t, int rows, const std::vector<double>& values) {
  const std::size_t reals_per_link = static_cast<std::size_t>(rows) * 6;
  // Access::read_write after the first slice: the slices written before stay.
  const Access access = t == 0 ? Access::write : Access::read_write;
  const std::array views{U[0].host_view(access), U[1].host_view(access), U[2].host_view(access),
                         U[3].host_view(access)};
  parallel_for(block.sites_per_slice(), [&](std::int64_t s) {
    const auto [outer, lane] = block.place(t, s);
    for (int mu = 0; mu < 4; ++mu) {
      const double* link = &values[(static_cast<std::size_t>(s) * 4 + mu) * reals_per_link];
      ColourMatrix<double> u{};
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < 3; ++j) u(i, j) = ComplexD(link[6 * i + 2 * j], link[6 * i + 2 * j + 1]);
      if (rows == 2)
        for (int j = 0; j < 3; ++j) {
          const int a = (j + 1) % 3, b = (j + 2) % 3;
          u(2, j) = conj(u(0, a) * u(1, b) - u(0, b) * u(1, a));
        }
      views[mu].store(LaneSite<R>{outer, lane},
                      transform_leaves<ColourMatrix<R>>([](double v) { return static_cast<R>(v); }, u));
    }
  });
}

inline double header_number(const NerscHeader& header, const std::string& key, const std::string& path) {
  const std::string& text = header.fields.at(key);
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (trim(text.substr(used)).empty()) return value;
  } catch (const std::exception&) {
  }
  throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": " + key + " = '" + text + "' is not a number");
}

// The average over all links of Re tr U / 3.
template <class R, class W>
double average_link_trace(const GaugeField<R, W>& U) {
  double total = 0;
  for (int mu = 0; mu < 4; ++mu) total += sum(real(trace(U[mu])));
  return total / (3.0 * 4.0 * static_cast<double>(U.geometry().volume()));
}

inline bool agrees(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)); }

}  // namespace nersc_detail

// Parses and checks a header from `in` (positioned at the file's start);
// `path` names the file in errors.
inline NerscHeader parse_nersc_header(std::istream& in, const std::string& path) {
  using nersc_detail::quoted;
  using nersc_detail::trim;
  NerscHeader header;
  std::string line;
  if (!nersc_detail::read_header_line(in, line, 1, path) || trim(line) != "BEGIN_HEADER")
    throw GaugeFileError("Latte: " + quoted(path) + " is not a NERSC gauge file (its first line is not BEGIN_HEADER)");
  bool ended = false;
  for (int number = 2; nersc_detail::read_header_line(in, line, number, path); ++number) {
    if (trim(line) == "END_HEADER") {
      ended = true;
      break;
    }
    if (number > 1000) break;  // a header is a few dozen lines; this is binary data
    const auto equals = line.find('=');
    if (equals == std::string::npos) {
      if (trim(line).empty()) continue;
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": header line " + std::to_string(number) +
                           " is not KEY = value: '" + trim(line) + "'");
    }
    header.fields[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
  }
  if (!ended) throw GaugeFileError("Latte: NERSC file " + quoted(path) + " has no END_HEADER line");
  header.data_offset = in.tellg();

  for (const char* key : {"DATATYPE", "DIMENSION_1", "DIMENSION_2", "DIMENSION_3", "DIMENSION_4", "FLOATING_POINT",
                          "CHECKSUM"})
    if (!header.fields.count(key))
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": the header has no " + key);
  const std::string& datatype = header.fields["DATATYPE"];
  if (datatype == "4D_SU3_GAUGE_3x3")
    header.stored_rows = 3;
  else if (datatype == "4D_SU3_GAUGE")
    header.stored_rows = 2;
  else
    throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": DATATYPE " + datatype +
                         " is not supported (4D_SU3_GAUGE_3x3 or 4D_SU3_GAUGE)");
  const std::string& floating = header.fields["FLOATING_POINT"];
  if (floating == "IEEE64BIG" || floating == "IEEE64")
    header.real_bytes = 8, header.big_endian = true;
  else if (floating == "IEEE64LITTLE")
    header.real_bytes = 8, header.big_endian = false;
  else if (floating == "IEEE32BIG" || floating == "IEEE32")
    header.real_bytes = 4, header.big_endian = true;
  else if (floating == "IEEE32LITTLE")
    header.real_bytes = 4, header.big_endian = false;
  else
    throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": FLOATING_POINT " + floating +
                         " is not supported (IEEE64BIG, IEEE64LITTLE, IEEE32BIG, IEEE32LITTLE)");
  for (int mu = 0; mu < 4; ++mu) {
    const std::string key = "DIMENSION_" + std::to_string(mu + 1);
    const double extent = nersc_detail::header_number(header, key, path);
    if (!(extent >= 1) || extent != std::floor(extent) || extent > 1e6)
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": " + key + " = " + header.fields[key] +
                           " is not a lattice extent");
    header.extents.push_back(static_cast<int>(extent));
  }
  // Each extent is plausible; their product must be too: four extents of
  // 10^6 are 10^24 sites, whose byte count overflows 64 bits.
  constexpr std::int64_t max_bytes_per_site = 4 * 3 * 3 * 2 * 8;
  constexpr std::int64_t max_sites = std::numeric_limits<std::int64_t>::max() / max_bytes_per_site;
  std::int64_t sites = 1;
  for (int extent : header.extents) {
    if (sites > max_sites / extent)
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": DIMENSION_1..4 = " + to_string(header.extents) +
                           " is too large a lattice (its links would need more than 2^63 bytes)");
    sites *= extent;
  }
  return header;
}

// Reads and checks the header only (the lattice a file holds, its format).
// Called on one rank it reads the file there; read_nersc reads the header on
// rank 0 and hands its bytes to the others.
inline NerscHeader read_nersc_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GaugeFileError("Latte: cannot open NERSC gauge file " + nersc_detail::quoted(path));
  return parse_nersc_header(in, path);
}

namespace nersc_detail {

// Rank 0 reads and checks the header and the file's size; every rank gets
// the same header, or throws the same GaugeFileError.
inline NerscHeader agreed_header(const Communicator& communicator, const std::string& path) {
  std::string failure, text;
  if (communicator.rank() == 0) {
    try {
      const NerscHeader header = read_nersc_header(path);
      std::ifstream in(path, std::ios::binary);
      text.resize(static_cast<std::size_t>(header.data_offset));
      in.read(text.data(), static_cast<std::streamsize>(text.size()));
      in.seekg(0, std::ios::end);
      const std::int64_t found = static_cast<std::int64_t>(in.tellg()) - header.data_offset;
      if (!in) throw GaugeFileError("Latte: cannot read NERSC gauge file " + quoted(path));
      if (found != header.data_bytes())
        throw GaugeFileError("Latte: NERSC file " + quoted(path) + " should hold " + std::to_string(header.data_bytes()) +
                             " bytes of links after its header (" + to_string(header.extents) + ", " +
                             std::to_string(header.stored_rows) + " rows, " + std::to_string(8 * header.real_bytes) +
                             "-bit reals) but holds " + std::to_string(found) +
                             (found < header.data_bytes() ? " (truncated)" : " (trailing data)"));
    } catch (const GaugeFileError& error) {
      failure = error.what();
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
  std::uint64_t length = text.size();
  communicator.broadcast(&length, sizeof length, 0);
  text.resize(static_cast<std::size_t>(length));
  communicator.broadcast(text.data(), text.size(), 0);
  std::istringstream in(text);
  return parse_nersc_header(in, path);
}

inline std::uint32_t stored_checksum(const NerscHeader& header, const std::string& path) {
  const std::string& text = header.fields.at("CHECKSUM");
  char* end = nullptr;
  const unsigned long long parsed = std::strtoull(text.c_str(), &end, 16);
  if (text.empty() || trim(end).size() != 0 || parsed > 0xffffffffull)
    throw GaugeFileError("Latte: NERSC file " + quoted(path) + ": CHECKSUM = '" + text + "' is not a 32-bit hex number");
  return static_cast<std::uint32_t>(parsed);
}

}  // namespace nersc_detail

// Reads the links of `path` into U, whose lattice must be the file's. On a
// lattice spread over ranks, every rank reads its own block (collective
// MPI-IO); every check is global and every error is thrown on every rank
// with the same message.
template <class R, class W>
NerscHeader read_nersc(GaugeField<R, W>& U, const std::string& path) {
  using nersc_detail::quoted;
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  const NerscHeader header = nersc_detail::agreed_header(communicator, path);
  if (geometry.checkerboarded() || header.extents != geometry.dims())
    throw GeometryMismatch("Latte: NERSC file " + quoted(path) + " holds a lattice of extents " +
                           to_string(header.extents) + " but the gauge field has extents " +
                           to_string(geometry.dims()));
  const std::uint32_t stored = nersc_detail::stored_checksum(header, path);

  // Pass 1 checks the checksum and link trace; pass 2 fills U. A file
  // failing those checks leaves U as it was, on every rank.
  const BlockSlices block(U[0].layout());
  const std::int64_t record_bytes = 4 * header.stored_rows * 6 * header.real_bytes;
  std::vector<unsigned char> raw(static_cast<std::size_t>(block.sites_per_slice() * record_bytes));
  const std::size_t reals = raw.size() / static_cast<std::size_t>(header.real_bytes);
  std::vector<double> values(reals);
  const std::size_t reals_per_link = static_cast<std::size_t>(header.stored_rows) * 6;
  std::uint32_t checksum = 0;
  double trace = 0;  // sum of Re tr U over this rank's links
  try {
    SharedFile file(communicator, path, SharedFile::Mode::read);
    auto read_slice = [&](std::uint32_t& sum) {
      file.read_block(raw.data(), block.sites_per_slice());
      if (header.real_bytes == 8)
        nersc_detail::decode<double, std::uint64_t>(raw.data(), reals, header.big_endian, values, sum);
      else
        nersc_detail::decode<float, std::uint32_t>(raw.data(), reals, header.big_endian, values, sum);
    };
    block.view(file, header.data_offset, record_bytes);
    for (int t = 0; t < block.slices(); ++t) {
      read_slice(checksum);
      for (std::size_t link = 0; link < reals / reals_per_link; ++link) {
        const double* u = &values[link * reals_per_link];
        // Re u00 + Re u11 + Re u22; a two-row link's u22 is conj(u00 u11 - u01 u10).
        const double u22 = header.stored_rows == 3 ? u[16] : u[0] * u[8] - u[1] * u[9] - (u[2] * u[6] - u[3] * u[7]);
        trace += u[0] + u[8] + u22;
      }
    }
    checksum = sum_over_ranks(communicator, checksum);
    trace = sum_over_ranks(communicator, trace);
    if (checksum != stored) {
      char message[64];
      std::snprintf(message, sizeof message, "%x but its header says %x", checksum, stored);
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + " is corrupt: the checksum of its links is " + message);
    }
    if (header.fields.count("LINK_TRACE")) {
      const double expected = nersc_detail::header_number(header, "LINK_TRACE", path);
      const double link_trace = trace / (3.0 * 4.0 * static_cast<double>(geometry.volume()));
      if (!nersc_detail::agrees(link_trace, expected))
        throw GaugeFileError("Latte: NERSC file " + quoted(path) + " is corrupt: its links have LINK_TRACE " +
                             std::to_string(link_trace) + " but its header says " + header.fields.at("LINK_TRACE"));
    }
    block.view(file, header.data_offset, record_bytes);
    for (int t = 0; t < block.slices(); ++t) {
      std::uint32_t unused = 0;
      read_slice(unused);
      nersc_detail::scatter_slice(U, block, t, header.stored_rows, values);
    }
  } catch (const FileAccessError& error) {
    throw GaugeFileError("Latte: NERSC gauge file " + quoted(path) + ": " + error.what());
  }
  // The plaquette needs the whole field: a file whose links pass the checks
  // above but not this one has been read into U when the error is thrown.
  if (header.fields.count("PLAQUETTE")) {
    const double expected = nersc_detail::header_number(header, "PLAQUETTE", path);
    const double plaquette = average_plaquette(U);
    if (!nersc_detail::agrees(plaquette, expected))
      throw GaugeFileError("Latte: NERSC file " + quoted(path) + " is corrupt: its links have PLAQUETTE " +
                           std::to_string(plaquette) + " but its header says " + header.fields.at("PLAQUETTE"));
  }
  return header;
}

struct NerscWriteOptions {
  int real_bytes = 8;          // 8: IEEE64, 4: IEEE32
  bool big_endian = true;      // the archive's traditional order
  bool two_rows = false;       // 4D_SU3_GAUGE (12 reals a link) instead of 4D_SU3_GAUGE_3x3
  std::string ensemble_id = "latte";
  std::string ensemble_label;
  int sequence_number = 0;
};

// Writes U to `path` (through path.tmp and a rename, so a kill during the
// write leaves any previous file intact). On a lattice spread over ranks
// every rank writes its own block (collective MPI-IO) and rank 0 the
// header; the file is the same bytes for any number of ranks.
template <class R, class W>
void write_nersc(const GaugeField<R, W>& U, const std::string& path, const NerscWriteOptions& options = {}) {
  using nersc_detail::quoted;
  const Geometry& geometry = U.geometry();
  if (geometry.checkerboarded())
    throw GeometryMismatch("Latte: a NERSC file holds a whole lattice; this gauge field holds " +
                           U[0].layout().describe());
  if (options.real_bytes != 4 && options.real_bytes != 8)
    throw std::invalid_argument("Latte: NERSC files store 4- or 8-byte reals, not " + std::to_string(options.real_bytes));
  const int rows = options.two_rows ? 2 : 3;
  const Communicator& communicator = geometry.decomposition().communicator();

  // Every rank makes the same header: the averages are global reductions,
  // the same bits for any number of ranks.
  std::ostringstream header;
  header.precision(12);
  const Coordinate& dims = geometry.dims();
  header << "BEGIN_HEADER\n"
         << "HDR_VERSION = 1.0\n"
         << "DATATYPE = " << (options.two_rows ? "4D_SU3_GAUGE" : "4D_SU3_GAUGE_3x3") << "\n"
         << "STORAGE_FORMAT = 1.0\n";
  for (int mu = 0; mu < 4; ++mu) header << "DIMENSION_" << mu + 1 << " = " << dims[mu] << "\n";
  header << "LINK_TRACE = " << nersc_detail::average_link_trace(U) << "\n"
         << "PLAQUETTE = " << average_plaquette(U) << "\n";
  for (int mu = 0; mu < 4; ++mu) header << "BOUNDARY_" << mu + 1 << " = PERIODIC\n";
  // The checksum is known only after the links: eight hex digits, filled in then.
  header << "CHECKSUM = ";
  const std::size_t checksum_at = static_cast<std::size_t>(header.tellp());
  header << "00000000\n"
         << "ENSEMBLE_ID = " << options.ensemble_id << "\n"
         << "ENSEMBLE_LABEL = " << options.ensemble_label << "\n"
         << "SEQUENCE_NUMBER = " << options.sequence_number << "\n"
         << "CREATOR = Latte\n"
         << "FLOATING_POINT = IEEE" << 8 * options.real_bytes << (options.big_endian ? "BIG" : "LITTLE") << "\n"
         << "END_HEADER\n";
  std::string text = header.str();

  const std::string tmp = path + ".tmp";
  const BlockSlices block(U[0].layout());
  const std::int64_t record_bytes = 4 * rows * 6 * options.real_bytes;
  std::vector<double> values;
  std::vector<unsigned char> raw;
  try {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    block.view(file, static_cast<std::int64_t>(text.size()), record_bytes);
    std::uint32_t checksum = 0;
    for (int t = 0; t < block.slices(); ++t) {
      nersc_detail::gather_slice(U, block, t, rows, values);
      if (options.real_bytes == 8)
        nersc_detail::encode<double, std::uint64_t>(values, options.big_endian, raw, checksum);
      else
        nersc_detail::encode<float, std::uint32_t>(values, options.big_endian, raw, checksum);
      file.write_block(raw.data(), block.sites_per_slice());
    }
    checksum = sum_over_ranks(communicator, checksum);
    char checksum_text[9];
    std::snprintf(checksum_text, sizeof checksum_text, "%08x", checksum);
    text.replace(checksum_at, 8, checksum_text);
    file.root_write_at(0, text.data(), static_cast<std::int64_t>(text.size()));
    file.close();
  } catch (const FileAccessError& error) {
    throw GaugeFileError("Latte: cannot write NERSC gauge file " + quoted(path) + ": " + error.what());
  }
  std::string failure;
  if (communicator.rank() == 0 && std::rename(tmp.c_str(), path.c_str()) != 0)
    failure = "Latte: cannot move " + quoted(tmp) + " into place at " + quoted(path);
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
}

}  // namespace latte
