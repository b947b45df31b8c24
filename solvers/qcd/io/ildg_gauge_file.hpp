#pragma once
// Gauge configurations in ILDG / SciDAC files (the format of the
// International Lattice Data Grid, of QIO, Chroma, MILC and Grid): LIME
// records (solvers/qcd/io/lime.hpp) around one binary record of the links.
//
// The links (record ildg-binary-data): sites in lexicographic order with x
// fastest, then y, z, t; at each site the links of mu = x, y, z, t; each a
// 3x3 complex matrix row by row, (re, im); IEEE reals, big-endian, 32 or 64
// bits. (The same order as a NERSC 4D_SU3_GAUGE_3x3 file.)
//
// Written, in two LIME messages (this is the set Grid, QIO/Chroma and MILC
// read: Grid insists on ildg-data-lfn and scidac-checksum, QIO on the
// scidac-private-* records):
//   [scidac-private-file-xml  scidac-file-xml]
//   [scidac-private-record-xml  scidac-record-xml  ildg-format
//    ildg-data-lfn  ildg-binary-data  scidac-checksum]
// scidac-file-xml and scidac-record-xml hold <usqcdInfo> with plaq, the
// average of Re tr U_p / 3 (1 on the free field, Grid's normalisation), and
// linktr, the average of Re tr U / 3, of the field written (before any
// rounding to 32 bits). No date is written, so that a file is the same bytes
// whenever and on however many ranks it is written.
//
// Checked on reading (solvers/qcd/io/ildg_header.hpp for the records): extents and
// precision of every record that gives them, the binary record's length,
// the SciDAC checksums (solvers/qcd/io/scidac_checksum.hpp) where the file has them,
// linktr and plaq to 1e-5 (Grid's tolerance; the averages of a 32-bit file
// move by about 1e-7; QIO defines both with the 1/3, as MILC and Grid
// write them). A file failing its checksum or link trace leaves the field as
// it was; the plaquette needs the whole field and is checked after the links
// are in.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "solvers/qcd/io/ildg_header.hpp"

namespace latte {

namespace ildg_detail {

// The header as rank 0 read it, on every rank, or the same error everywhere.
inline IldgHeader agreed_header(const Communicator& communicator, const std::string& path) {
  struct Wire {
    int extents[4];
    int real_bytes, has_checksum, has_plaquette[2], has_link_trace[2];
    std::int64_t data_offset, data_bytes, lfn_bytes;
    std::uint32_t suma, sumb;
    double plaquette[2], link_trace[2];
  } wire{};
  IldgHeader header;
  std::string failure;
  if (communicator.rank() == 0) {
    try {
      header = read_ildg_header(path);
    } catch (const GaugeFileError& error) {
      failure = error.what();
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
  if (communicator.rank() == 0) {
    for (int mu = 0; mu < 4; ++mu) wire.extents[mu] = header.extents[mu];
    wire.real_bytes = header.real_bytes;
    wire.has_checksum = header.has_checksum;
    for (int slot = 0; slot < 2; ++slot) {
      wire.has_plaquette[slot] = header.has_plaquette[slot], wire.has_link_trace[slot] = header.has_link_trace[slot];
      wire.plaquette[slot] = header.plaquette[slot], wire.link_trace[slot] = header.link_trace[slot];
    }
    wire.data_offset = header.data_offset, wire.data_bytes = header.data_bytes;
    wire.lfn_bytes = static_cast<std::int64_t>(header.lfn.size());
    wire.suma = header.checksum.suma, wire.sumb = header.checksum.sumb;
  }
  communicator.broadcast(&wire, sizeof wire, 0);
  header.extents.assign(wire.extents, wire.extents + 4);
  header.real_bytes = wire.real_bytes;
  header.has_checksum = wire.has_checksum;
  for (int slot = 0; slot < 2; ++slot) {
    header.has_plaquette[slot] = wire.has_plaquette[slot], header.has_link_trace[slot] = wire.has_link_trace[slot];
    header.plaquette[slot] = wire.plaquette[slot], header.link_trace[slot] = wire.link_trace[slot];
  }
  header.data_offset = wire.data_offset, header.data_bytes = wire.data_bytes;
  header.checksum = {wire.suma, wire.sumb};
  header.lfn.resize(static_cast<std::size_t>(wire.lfn_bytes));
  communicator.broadcast(header.lfn.data(), header.lfn.size(), 0);
  return header;
}

inline constexpr double average_tolerance = 1e-5;

inline bool plaquette_agrees(double ours, double file) { return std::abs(ours - file) <= average_tolerance; }

inline std::string hex(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "%x", value);
  return text;
}

}  // namespace ildg_detail

// Reads the links of `path` into U, whose lattice must be the file's. Every
// rank reads its own block (collective MPI-IO); every check is global and
// every error is thrown on every rank with the same message.
template <class R, class W>
IldgHeader read_ildg(GaugeField<R, W>& U, const std::string& path) {
  const std::string file = "ILDG file '" + path + "'";
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  const IldgHeader header = ildg_detail::agreed_header(communicator, path);
  if (geometry.checkerboarded() || header.extents != geometry.dims())
    throw GeometryMismatch("Latte: " + file + " holds a lattice of extents " + to_string(header.extents) +
                           " but the gauge field has extents " + to_string(geometry.dims()));

  const BlockSlices block(U[0].layout());
  const std::int64_t site_bytes = header.site_bytes();
  std::vector<unsigned char> raw(static_cast<std::size_t>(block.sites_per_slice() * site_bytes));
  const std::size_t reals = raw.size() / static_cast<std::size_t>(header.real_bytes);
  std::vector<double> values(reals);
  try {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    auto read_slice = [&] {
      std::uint32_t unused = 0;
      shared.read_block(raw.data(), block.sites_per_slice());
      if (header.real_bytes == 8)
        nersc_detail::decode<double, std::uint64_t>(raw.data(), reals, true, values, unused);
      else
        nersc_detail::decode<float, std::uint32_t>(raw.data(), reals, true, values, unused);
    };
    // Pass 1: checksums and link trace; U is untouched until they pass.
    ScidacChecksum checksum;
    double trace = 0;
    block.view(shared, header.data_offset, site_bytes);
    for (int t = 0; t < block.slices(); ++t) {
      read_slice();
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
        checksum.add_site(crc32(raw.data() + s * site_bytes, static_cast<std::size_t>(site_bytes)),
                          block.global_index(t, s));
      for (std::size_t link = 0; link < reals / 18; ++link) trace += values[18 * link] + values[18 * link + 8] + values[18 * link + 16];
    }
    checksum = combined_over_ranks(communicator, checksum);
    trace = sum_over_ranks(communicator, trace) / (3.0 * 4.0 * static_cast<double>(geometry.volume()));
    if (header.has_checksum && checksum != header.checksum)
      throw GaugeFileError("Latte: " + file + " is corrupt: the SciDAC checksums of its links are suma " +
                           ildg_detail::hex(checksum.suma) + ", sumb " + ildg_detail::hex(checksum.sumb) +
                           " but its scidac-checksum record says suma " + ildg_detail::hex(header.checksum.suma) +
                           ", sumb " + ildg_detail::hex(header.checksum.sumb));
    for (int slot = 0; slot < 2; ++slot)
      if (header.has_link_trace[slot] && std::abs(trace - header.link_trace[slot]) > ildg_detail::average_tolerance)
        throw GaugeFileError("Latte: " + file + " is corrupt: its links have link trace " + std::to_string(trace) +
                             " but the usqcdInfo of its " + IldgHeader::info_records[slot] + " says linktr " +
                             std::to_string(header.link_trace[slot]));
    // Pass 2: into U.
    block.view(shared, header.data_offset, site_bytes);
    for (int t = 0; t < block.slices(); ++t) {
      read_slice();
      nersc_detail::scatter_slice(U, block, t, 3, values);
    }
  } catch (const FileAccessError& error) {
    throw GaugeFileError("Latte: " + file + ": " + error.what());
  }
  if (header.has_plaquette[0] || header.has_plaquette[1]) {
    const double plaquette = average_plaquette(U);
    for (int slot = 0; slot < 2; ++slot)
      if (header.has_plaquette[slot] && !ildg_detail::plaquette_agrees(plaquette, header.plaquette[slot]))
        throw GaugeFileError("Latte: " + file + " is corrupt: its links have plaquette " + std::to_string(plaquette) +
                             " but the usqcdInfo of its " + IldgHeader::info_records[slot] + " says plaq " +
                             std::to_string(header.plaquette[slot]));
  }
  return header;
}

struct IldgWriteOptions {
  int real_bytes = 8;             // 8: 64-bit reals, 4: 32-bit
  std::string lfn = "latte";      // the ildg-data-lfn record (a logical file name in an ILDG catalogue)
  std::string info = "Latte";     // <info> of the usqcdInfo records
};

namespace ildg_detail {

inline std::string usqcd_info(double plaquette, double link_trace, const std::string& info) {
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, "<plaq>%.17g</plaq><linktr>%.17g</linktr>", plaquette, link_trace);
  return std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?><usqcdInfo><version>1.0</version>") + numbers +
         "<info>" + info + "</info></usqcdInfo>";
}

// Every record before the links, with the binary record's header last.
inline std::string records_before_links(const Coordinate& dims, int real_bytes, double plaquette, double link_trace,
                                        const IldgWriteOptions& options, std::int64_t data_bytes) {
  const std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
  const bool single = real_bytes == 4;
  std::string dims_text;
  for (int extent : dims) dims_text += std::to_string(extent) + " ";
  const std::string info = usqcd_info(plaquette, link_trace, options.info);
  return lime_record("scidac-private-file-xml",
                     xml + "<scidacFile><version>1.1</version><spacetime>4</spacetime><dims>" + dims_text +
                         "</dims><volfmt>0</volfmt></scidacFile>",
                     true, false) +
         lime_record("scidac-file-xml", info, false, true) +
         lime_record("scidac-private-record-xml",
                     xml + "<scidacRecord><version>1.1</version><date></date><recordtype>0</recordtype><datatype>" +
                         (single ? "USQCD_F3_ColorMatrix" : "USQCD_D3_ColorMatrix") + "</datatype><precision>" +
                         (single ? "F" : "D") + "</precision><colors>3</colors><typesize>" +
                         std::to_string(18 * real_bytes) + "</typesize><datacount>4</datacount></scidacRecord>",
                     true, false) +
         lime_record("scidac-record-xml", info, false, false) +
         lime_record("ildg-format",
                     xml + "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
                           "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                           "xsi:schemaLocation=\"http://www.lqcd.org/ildg http://www.lqcd.org/ildg/filefmt.xsd\">"
                           "<version>1.0</version><field>su3gauge</field><precision>" +
                         std::to_string(8 * real_bytes) + "</precision><lx>" + std::to_string(dims[0]) + "</lx><ly>" +
                         std::to_string(dims[1]) + "</ly><lz>" + std::to_string(dims[2]) + "</lz><lt>" +
                         std::to_string(dims[3]) + "</lt></ildgFormat>",
                     false, false) +
         lime_record("ildg-data-lfn", options.lfn, false, false) +
         lime_record_header("ildg-binary-data", static_cast<std::uint64_t>(data_bytes), false, false);
}

inline std::string checksum_record(const ScidacChecksum& checksum) {
  return lime_record("scidac-checksum",
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacChecksum><version>1.0</version><suma>" +
                         hex(checksum.suma) + "</suma><sumb>" + hex(checksum.sumb) + "</sumb></scidacChecksum>",
                     false, true);
}

}  // namespace ildg_detail

// Writes U to `path` (through path.tmp and a rename). Every rank writes its
// own block of the links (collective MPI-IO), rank 0 the other records; the
// file is the same bytes for any number of ranks.
template <class R, class W>
void write_ildg(const GaugeField<R, W>& U, const std::string& path, const IldgWriteOptions& options = {}) {
  const Geometry& geometry = U.geometry();
  if (geometry.checkerboarded())
    throw GeometryMismatch("Latte: an ILDG file holds a whole lattice; this gauge field holds " +
                           U[0].layout().describe());
  if (options.real_bytes != 4 && options.real_bytes != 8)
    throw std::invalid_argument("Latte: ILDG files store 4- or 8-byte reals, not " + std::to_string(options.real_bytes));
  if (geometry.dims().size() != 4)
    throw GeometryMismatch("Latte: an ILDG gauge file holds a 4-dimensional lattice, not " + to_string(geometry.dims()));
  const Communicator& communicator = geometry.decomposition().communicator();
  const std::int64_t site_bytes = 4 * 18 * options.real_bytes;
  const std::string before =
      ildg_detail::records_before_links(geometry.dims(), options.real_bytes, average_plaquette(U),
                                        nersc_detail::average_link_trace(U), options, geometry.volume() * site_bytes);
  const std::int64_t after_offset = static_cast<std::int64_t>(before.size()) + geometry.volume() * site_bytes;

  const std::string tmp = path + ".tmp";
  const BlockSlices block(U[0].layout());
  std::vector<double> values;
  std::vector<unsigned char> raw;
  try {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    block.view(file, static_cast<std::int64_t>(before.size()), site_bytes);
    ScidacChecksum checksum;
    for (int t = 0; t < block.slices(); ++t) {
      nersc_detail::gather_slice(U, block, t, 3, values);
      std::uint32_t unused = 0;
      if (options.real_bytes == 8)
        nersc_detail::encode<double, std::uint64_t>(values, true, raw, unused);
      else
        nersc_detail::encode<float, std::uint32_t>(values, true, raw, unused);
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
        checksum.add_site(crc32(raw.data() + s * site_bytes, static_cast<std::size_t>(site_bytes)),
                          block.global_index(t, s));
      file.write_block(raw.data(), block.sites_per_slice());
    }
    checksum = combined_over_ranks(communicator, checksum);
    const std::string after = ildg_detail::checksum_record(checksum);
    file.root_write_at(0, before.data(), static_cast<std::int64_t>(before.size()));
    file.root_write_at(after_offset, after.data(), static_cast<std::int64_t>(after.size()));
    file.close();
  } catch (const FileAccessError& error) {
    throw GaugeFileError("Latte: cannot write ILDG gauge file '" + path + "': " + error.what());
  }
  std::string failure;
  if (communicator.rank() == 0 && std::rename(tmp.c_str(), path.c_str()) != 0)
    failure = "Latte: cannot move '" + tmp + "' into place at '" + path + "'";
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
}

}  // namespace latte
