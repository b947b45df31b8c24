#pragma once
// The header of a NERSC gauge file (nersc_gauge_file.hpp reads and writes
// the links after it): ASCII lines
//   BEGIN_HEADER
//   KEY = value          (one per line, in any order)
//   END_HEADER
// of which a reader needs
//   DATATYPE        4D_SU3_GAUGE_3x3 (three rows stored) or 4D_SU3_GAUGE (two)
//   DIMENSION_1..4  the extents x, y, z, t
//   FLOATING_POINT  IEEE64BIG, IEEE64LITTLE, IEEE32BIG or IEEE32LITTLE
//                   (IEEE32 and IEEE64 alone mean big-endian)
//   CHECKSUM        in hex (nersc_gauge_file.hpp defines it)
// and may check LINK_TRACE and PLAQUETTE where the file has them. Every
// key is kept, as written, in NerscHeader::fields.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <map>
#include <sstream>
#include <string>

#include "platform/coordinate.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"

namespace latte {

// What a NERSC header says about the links that follow it.
struct NerscHeader : StoredLattice {
  std::map<std::string, std::string> fields;  // every KEY = value, as written
  int stored_rows = 3;                        // 3 (4D_SU3_GAUGE_3x3) or 2 (4D_SU3_GAUGE)
  int real_bytes = 8;                         // 8 (IEEE64) or 4 (IEEE32)
  bool big_endian = true;
  std::streamoff data_offset = 0;             // first byte after END_HEADER's line

  // read_nersc_header refuses extents whose data_bytes() would not fit in
  // 64 bits, so this never overflows for a header it returned.
  std::int64_t data_bytes() const { return volume() * 4 * stored_rows * 3 * 2 * real_bytes; }
};

namespace nersc_detail {

inline std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

inline std::string file(const std::string& path) { return GaugeFileName{"NERSC", path}.file(); }

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
      refuse(file(path) + ": header line " + std::to_string(number) + " is longer than " +
             std::to_string(max_header_line) + " bytes (not a NERSC header)");
    line.push_back(static_cast<char>(c));
  }
  return !line.empty();
}

inline double header_number(const NerscHeader& header, const std::string& key, const std::string& path) {
  const std::string& text = header.fields.at(key);
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (trim(text.substr(used)).empty()) return value;
  } catch (const std::exception&) {
  }
  refuse_field(file(path), key, "'" + text + "'", "not a number");
}

inline std::uint32_t stored_checksum(const NerscHeader& header, const std::string& path) {
  const std::string& text = header.fields.at("CHECKSUM");
  char* end = nullptr;
  const unsigned long long parsed = std::strtoull(text.c_str(), &end, 16);
  if (text.empty() || trim(end).size() != 0 || parsed > 0xffffffffull)
    refuse_field(file(path), "CHECKSUM", "'" + text + "'", "not a 32-bit hex number");
  return static_cast<std::uint32_t>(parsed);
}

}  // namespace nersc_detail

// Parses and checks a header from `in` (positioned at the file's start);
// `path` names the file in errors.
inline NerscHeader parse_nersc_header(std::istream& in, const std::string& path) {
  using nersc_detail::trim;
  const std::string file = nersc_detail::file(path);
  NerscHeader header;
  std::string line;
  if (!nersc_detail::read_header_line(in, line, 1, path) || trim(line) != "BEGIN_HEADER")
    refuse("'" + path + "' is not a NERSC gauge file (its first line is not BEGIN_HEADER)");
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
      refuse(file + ": header line " + std::to_string(number) + " is not KEY = value: '" + trim(line) + "'");
    }
    header.fields[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
  }
  if (!ended) refuse(file + " has no END_HEADER line");
  header.data_offset = in.tellg();

  for (const char* key : {"DATATYPE", "DIMENSION_1", "DIMENSION_2", "DIMENSION_3", "DIMENSION_4", "FLOATING_POINT",
                          "CHECKSUM"})
    if (!header.fields.count(key)) refuse(file + ": the header has no " + key);
  const std::string& datatype = header.fields["DATATYPE"];
  if (datatype == "4D_SU3_GAUGE_3x3")
    header.stored_rows = 3;
  else if (datatype == "4D_SU3_GAUGE")
    header.stored_rows = 2;
  else
    refuse_field(file, "DATATYPE", "'" + datatype + "'", "not 4D_SU3_GAUGE_3x3 or 4D_SU3_GAUGE");
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
    refuse_field(file, "FLOATING_POINT", "'" + floating + "'",
                 "not IEEE64BIG, IEEE64LITTLE, IEEE32BIG or IEEE32LITTLE");
  for (int mu = 0; mu < 4; ++mu) {
    const std::string key = "DIMENSION_" + std::to_string(mu + 1);
    const double extent = nersc_detail::header_number(header, key, path);
    if (!(extent >= 1) || extent != std::floor(extent) || extent > 1e6)
      refuse_field(file, key, "'" + header.fields[key] + "'", "not a lattice extent");
    header.extents.push_back(static_cast<int>(extent));
  }
  // Each extent is plausible; their product must be too: four extents of
  // 10^6 are 10^24 sites, whose byte count overflows 64 bits.
  SiteCount sites(max_sites_of(4 * 3 * 3 * 2 * 8));
  for (int extent : header.extents)
    if (!sites.times(extent))
      refuse(file + ": DIMENSION_1..4 = " + to_string(header.extents) +
             " is too large a lattice (its links would need more than 2^63 bytes)");
  return header;
}

// Reads and checks the header only (the lattice a file holds, its format).
// Called on one rank it reads the file there; read_nersc reads the header on
// rank 0 and hands its bytes to the others.
inline NerscHeader read_nersc_header(const std::string& path) {
  std::ifstream in = open_gauge_file({"NERSC", path});
  return parse_nersc_header(in, path);
}

struct NerscWriteOptions {
  int real_bytes = 8;          // 8: IEEE64, 4: IEEE32
  bool big_endian = true;      // the archive's traditional order
  bool two_rows = false;       // 4D_SU3_GAUGE (12 reals a link) instead of 4D_SU3_GAUGE_3x3
  std::string ensemble_id = "latte";
  std::string ensemble_label;
  int sequence_number = 0;
};

// The header a writer puts before the links, with eight zeros for the
// checksum (known only after the links) at byte `checksum_at`.
inline std::string nersc_header_text(const Coordinate& dims, const NerscWriteOptions& options, double link_trace,
                                     double plaquette, std::size_t& checksum_at) {
  std::ostringstream header;
  header.precision(12);
  header << "BEGIN_HEADER\n"
         << "HDR_VERSION = 1.0\n"
         << "DATATYPE = " << (options.two_rows ? "4D_SU3_GAUGE" : "4D_SU3_GAUGE_3x3") << "\n"
         << "STORAGE_FORMAT = 1.0\n";
  for (int mu = 0; mu < 4; ++mu) header << "DIMENSION_" << mu + 1 << " = " << dims[mu] << "\n";
  header << "LINK_TRACE = " << link_trace << "\n"
         << "PLAQUETTE = " << plaquette << "\n";
  for (int mu = 0; mu < 4; ++mu) header << "BOUNDARY_" << mu + 1 << " = PERIODIC\n";
  header << "CHECKSUM = ";
  checksum_at = static_cast<std::size_t>(header.tellp());
  header << "00000000\n"
         << "ENSEMBLE_ID = " << options.ensemble_id << "\n"
         << "ENSEMBLE_LABEL = " << options.ensemble_label << "\n"
         << "SEQUENCE_NUMBER = " << options.sequence_number << "\n"
         << "CREATOR = Latte\n"
         << "FLOATING_POINT = IEEE" << 8 * options.real_bytes << (options.big_endian ? "BIG" : "LITTLE") << "\n"
         << "END_HEADER\n";
  return header.str();
}

}  // namespace latte
