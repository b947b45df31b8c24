#pragma once
// Gauge configurations in any of the formats Latte reads, through one entry
// point that tells the format from the file's content, not its name:
//
//   NERSC          the text "BEGIN_HEADER" first      nersc_gauge_file.hpp
//   ILDG / SciDAC  the LIME magic 0x456789ab first     ildg_gauge_file.hpp
//   MILC (v5)      the magic 20103, either byte order  milc_gauge_file.hpp (read only)
//   openQCD        none of these, and a header of even extents whose size
//                  matches the file's                  openqcd_gauge_file.hpp
//
//   const GaugeFileInfo info = read_gauge_file_info(path);   // this rank reads it
//   GaugeField<double> U(Geometry(info.extents));
//   read_gauge(U, path);                                      // collective
//   write_gauge(U, "out.ildg", GaugeFileFormat::ildg, 32);    // collective
//
// Every reader checks all the file allows (docs/gauge_files.md lists it per
// format) and throws GaugeFileError, the same on every rank, leaving the
// field as it was where the failing check precedes the whole field.

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/ildg_gauge_file.hpp"
#include "solvers/qcd/io/milc_gauge_file.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/io/openqcd_gauge_file.hpp"

namespace latte {

enum class GaugeFileFormat { nersc, ildg, openqcd, milc };

inline const char* gauge_file_format_name(GaugeFileFormat format) {
  switch (format) {
    case GaugeFileFormat::nersc: return "nersc";
    case GaugeFileFormat::ildg: return "ildg";
    case GaugeFileFormat::openqcd: return "openqcd";
    case GaugeFileFormat::milc: return "milc";
  }
  return "?";
}

inline GaugeFileFormat parse_gauge_file_format(const std::string& name) {
  for (GaugeFileFormat format :
       {GaugeFileFormat::nersc, GaugeFileFormat::ildg, GaugeFileFormat::openqcd, GaugeFileFormat::milc})
    if (name == gauge_file_format_name(format)) return format;
  throw std::invalid_argument("Latte: '" + name + "' is not a gauge file format (nersc, ildg, openqcd or milc)");
}

struct GaugeFileInfo {
  GaugeFileFormat format = GaugeFileFormat::nersc;
  Coordinate extents;
  int real_bytes = 8;  // of the stored reals
};

// The format of `path`, from its first bytes and its size (this rank reads).
inline GaugeFileFormat detect_gauge_file_format(const std::string& path) {
  std::ifstream in = open_gauge_file({"", path});
  const std::int64_t bytes = file_size(in);
  const std::vector<unsigned char> first = first_bytes(in, bytes, 24);
  if (bytes >= 12 && std::memcmp(first.data(), "BEGIN_HEADER", 12) == 0) return GaugeFileFormat::nersc;
  if (bytes >= 4 && load_word<std::uint32_t>(first.data(), true) == lime_magic) return GaugeFileFormat::ildg;
  if (bytes >= 4 && (milc_detail::is_magic(first.data(), true) || milc_detail::is_magic(first.data(), false)))
    return GaugeFileFormat::milc;
  std::string openqcd_says;
  try {
    parse_openqcd_header(first.data(), bytes, path);
    return GaugeFileFormat::openqcd;
  } catch (const GaugeFileError& error) {
    openqcd_says = error.what();
  }
  refuse("'" + path +
         "' is not a gauge file Latte reads: it begins with neither BEGIN_HEADER (NERSC), the LIME magic 0x456789ab "
         "(ILDG/SciDAC) nor MILC's 20103, and as openQCD: " +
         openqcd_says.substr(openqcd_says.find(": ") + 2));
}

// Format, extents and precision of `path`, its header checked (this rank
// reads; the links are not).
inline GaugeFileInfo read_gauge_file_info(const std::string& path) {
  GaugeFileInfo info;
  info.format = detect_gauge_file_format(path);
  switch (info.format) {
    case GaugeFileFormat::nersc: {
      const NerscHeader header = read_nersc_header(path);
      info.extents = header.extents, info.real_bytes = header.real_bytes;
      break;
    }
    case GaugeFileFormat::ildg: {
      const IldgHeader header = read_ildg_header(path);
      info.extents = header.extents, info.real_bytes = header.real_bytes;
      break;
    }
    case GaugeFileFormat::openqcd:
      info.extents = read_openqcd_header(path).extents, info.real_bytes = 8;
      break;
    case GaugeFileFormat::milc:
      info.extents = read_milc_header(path).extents, info.real_bytes = 4;
      break;
  }
  return info;
}

// Reads `path`, in whatever format, into U (collective; rank 0 tells the
// format, so every rank reads alike or throws the same error).
template <class R, class W>
GaugeFileInfo read_gauge(GaugeField<R, W>& U, const std::string& path) {
  const Communicator& communicator = U.geometry().decomposition().communicator();
  GaugeFileInfo info;
  read_on_rank_zero(communicator, [&] { info.format = detect_gauge_file_format(path); });
  share_from_rank_zero(communicator, info.format);
  info.extents = U.geometry().dims();
  switch (info.format) {
    case GaugeFileFormat::nersc: info.real_bytes = read_nersc(U, path).real_bytes; break;
    case GaugeFileFormat::ildg: info.real_bytes = read_ildg(U, path).real_bytes; break;
    case GaugeFileFormat::openqcd: read_openqcd(U, path), info.real_bytes = 8; break;
    case GaugeFileFormat::milc: read_milc(U, path), info.real_bytes = 4; break;
  }
  return info;
}

// Writes U to `path` in `format` with reals of `precision` bits (64 or 32;
// openQCD files are 64-bit only, MILC files are not written).
template <class R, class W>
void write_gauge(const GaugeField<R, W>& U, const std::string& path, GaugeFileFormat format, int precision = 64) {
  if (precision != 32 && precision != 64)
    throw std::invalid_argument("Latte: gauge files store 32- or 64-bit reals, not " + std::to_string(precision));
  switch (format) {
    case GaugeFileFormat::nersc: {
      NerscWriteOptions options;
      options.real_bytes = precision / 8;
      return write_nersc(U, path, options);
    }
    case GaugeFileFormat::ildg: {
      IldgWriteOptions options;
      options.real_bytes = precision / 8;
      return write_ildg(U, path, options);
    }
    case GaugeFileFormat::openqcd:
      if (precision != 64) throw std::invalid_argument("Latte: openQCD gauge files hold 64-bit reals only");
      return write_openqcd(U, path);
    case GaugeFileFormat::milc:
      throw std::invalid_argument("Latte: MILC gauge files are read, not written (write ildg for MILC's QIO)");
  }
}

}  // namespace latte
