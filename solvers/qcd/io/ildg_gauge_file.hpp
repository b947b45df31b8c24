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

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file_checks.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/ildg_header.hpp"
#include "solvers/qcd/io/lime.hpp"
#include "solvers/qcd/io/link_slices.hpp"
#include "solvers/qcd/io/scidac_checksum.hpp"

namespace latte {

namespace ildg_detail {

// The header as rank 0 read it, on every rank, or the same error everywhere.
inline IldgHeader agreed_header(const Communicator& communicator, const std::string& path) {
  IldgHeader header;
  read_on_rank_zero(communicator, [&] { header = read_ildg_header(path); });
  share_from_rank_zero(communicator, header.extents, header.real_bytes, header.has_checksum, header.checksum,
                       header.has_plaquette, header.has_link_trace, header.plaquette, header.link_trace,
                       header.data_offset, header.data_bytes, header.lfn);
  return header;
}

// Grid's tolerance on plaq and linktr; the averages of a 32-bit file move
// by about 1e-7.
inline constexpr double average_tolerance = 1e-5;

// This rank's sites of a slice of stored links into the SciDAC checksum.
inline void add_sites(ScidacChecksum& checksum, const BlockSlices& block, int t, const unsigned char* raw,
                      std::int64_t site_bytes) {
  for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
    checksum.add(crc32(raw + s * site_bytes, static_cast<std::size_t>(site_bytes)), block.global_index(t, s));
}

// An average of the links against each <usqcdInfo> that states it
// (`tag`: linktr or plaq), in IldgHeader::info_records' order.
inline void check_usqcd_info(const std::string& file, const std::string& quantity, double computed,
                             const bool (&stated_in)[2], const double (&stated)[2], const std::string& tag) {
  for (int slot = 0; slot < 2; ++slot)
    if (stated_in[slot])
      check_average(file, quantity, computed, stated[slot],
                    std::string("the usqcdInfo of its ") + IldgHeader::info_records[slot] + " says " + tag + " " +
                        std::to_string(stated[slot]),
                    AbsoluteTolerance{average_tolerance});
}

inline std::string sums(const ScidacChecksum& checksum) {
  return "suma " + hex32(checksum.suma) + ", sumb " + hex32(checksum.sumb);
}

}  // namespace ildg_detail

// Reads the links of `path` into U, whose lattice must be the file's. Every
// rank reads its own block (collective MPI-IO); every check is global and
// every error is thrown on every rank with the same message.
template <class R, class W>
IldgHeader read_ildg(GaugeField<R, W>& U, const std::string& path) {
  using namespace ildg_detail;
  const std::string file = ildg_detail::file(path);
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  const IldgHeader header = agreed_header(communicator, path);
  check_lattice(file, header.extents, geometry);

  const BlockSlices block(U[0].layout());
  const LinkRecords records{{header.real_bytes, true}, 3};
  with_file_access(file, [&] {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    LinkSliceReader links(shared, block, header.data_offset, records, communicator, file);
    // Pass 1: checksums and link trace; U is untouched until they pass.
    ScidacChecksum checksum;
    StoredLinkTrace trace;
    links.pass([&](int t, const unsigned char* raw, const std::vector<double>& values) {
      add_sites(checksum, block, t, raw, records.site_bytes());
      trace.add(values, 3);
    });
    checksum = combined_over_ranks(communicator, checksum);
    const double link_trace = trace.average(communicator, geometry.volume());
    if (header.has_checksum)
      check_checksum(file, "the SciDAC checksums of its links are", checksum, header.checksum,
                     "its scidac-checksum record", sums);
    check_usqcd_info(file, "link trace", link_trace, header.has_link_trace, header.link_trace, "linktr");
    // Pass 2: into U.
    links.pass([&](int t, const unsigned char*, const std::vector<double>& values) {
      scatter_slice(U, block, t, 3, values);
    });
  });
  if (header.has_plaquette[0] || header.has_plaquette[1])
    check_usqcd_info(file, "plaquette", average_plaquette(U), header.has_plaquette, header.plaquette, "plaq");
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
                         hex32(checksum.suma) + "</suma><sumb>" + hex32(checksum.sumb) + "</sumb></scidacChecksum>",
                     false, true);
}

}  // namespace ildg_detail

// Writes U to `path` (through path.tmp and a rename). Every rank writes its
// own block of the links (collective MPI-IO), rank 0 the other records; the
// file is the same bytes for any number of ranks.
template <class R, class W>
void write_ildg(const GaugeField<R, W>& U, const std::string& path, const IldgWriteOptions& options = {}) {
  const Geometry& geometry = U.geometry();
  check_writable(U, "an ILDG file", "ILDG files", options.real_bytes);
  if (geometry.dims().size() != 4)
    throw GeometryMismatch("Latte: an ILDG gauge file holds a 4-dimensional lattice, not " + to_string(geometry.dims()));
  const Communicator& communicator = geometry.decomposition().communicator();
  const LinkRecords records{{options.real_bytes, true}, 3};
  const std::int64_t site_bytes = records.site_bytes();
  const double plaquette = average_plaquette(U);
  const double link_trace = average_link_trace(U);
  const std::string before = ildg_detail::records_before_links(geometry.dims(), options.real_bytes, plaquette,
                                                               link_trace, options, geometry.volume() * site_bytes);
  const std::int64_t after_offset = static_cast<std::int64_t>(before.size()) + geometry.volume() * site_bytes;

  const BlockSlices block(U[0].layout());
  write_through_temporary(communicator, {"ILDG", path}, [&](const std::string& tmp) {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    ScidacChecksum checksum;
    write_link_slices(file, U, block, static_cast<std::int64_t>(before.size()), records,
                      [&](int t, const unsigned char* raw) { ildg_detail::add_sites(checksum, block, t, raw, site_bytes); });
    checksum = combined_over_ranks(communicator, checksum);
    const std::string after = ildg_detail::checksum_record(checksum);
    file.root_write_at(0, before.data(), static_cast<std::int64_t>(before.size()));
    file.root_write_at(after_offset, after.data(), static_cast<std::int64_t>(after.size()));
    file.close();
  });
}

}  // namespace latte
