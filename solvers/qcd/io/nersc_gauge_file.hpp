#pragma once
// Gauge configurations in the NERSC archive format, the exchange format of
// MILC, Grid, Chroma/QDP++, CPS and many public ensembles: an ASCII header
// (nersc_header.hpp) followed by the links, nothing else, as the
// site-ordered records of link_slices.hpp (sites x fastest, then y, z, t;
// at each site mu = 0..3; each link row by row, (re, im)), three rows for
// 4D_SU3_GAUGE_3x3 and two for 4D_SU3_GAUGE, in the header's
// FLOATING_POINT.
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

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file_checks.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/link_slices.hpp"
#include "solvers/qcd/io/nersc_header.hpp"
#include "solvers/qcd/io/stored_reals.hpp"

namespace latte {

// The NERSC checksum of `count` reals stored at `raw`: the sum of each
// real's 32-bit halves (its value bits, in whatever order the file has it).
inline std::uint32_t nersc_checksum(const unsigned char* raw, std::size_t count, RealFormat format) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (format.bytes == 8) {
      const std::uint64_t bits = load_word<std::uint64_t>(raw + 8 * i, format.big_endian);
      sum += static_cast<std::uint32_t>(bits) + static_cast<std::uint32_t>(bits >> 32);
    } else {
      sum += load_word<std::uint32_t>(raw + 4 * i, format.big_endian);
    }
  }
  return sum;
}

namespace nersc_detail {

// Rank 0 reads and checks the header and the file's size; every rank gets
// the same header, or throws the same GaugeFileError.
inline NerscHeader agreed_header(const Communicator& communicator, const std::string& path) {
  std::string text;
  read_on_rank_zero(communicator, [&] {
    const NerscHeader header = read_nersc_header(path);
    std::ifstream in(path, std::ios::binary);
    text.resize(static_cast<std::size_t>(header.data_offset));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    in.seekg(0, std::ios::end);
    const std::int64_t found = static_cast<std::int64_t>(in.tellg()) - header.data_offset;
    if (!in) refuse("cannot read " + GaugeFileName{"NERSC", path}.gauge_file());
    check_file_size(file(path), header.data_bytes(),
                    "of links after its header (" + to_string(header.extents) + ", " +
                        std::to_string(header.stored_rows) + " rows, " + std::to_string(8 * header.real_bytes) +
                        "-bit reals)",
                    found);
  });
  share_from_rank_zero(communicator, text);
  std::istringstream in(text);
  return parse_nersc_header(in, path);
}

}  // namespace nersc_detail

// Reads the links of `path` into U, whose lattice must be the file's. On a
// lattice spread over ranks, every rank reads its own block (collective
// MPI-IO); every check is global and every error is thrown on every rank
// with the same message.
template <class R, class W>
NerscHeader read_nersc(GaugeField<R, W>& U, const std::string& path) {
  const GaugeFileName name{"NERSC", path};
  const std::string file = name.file();
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  const NerscHeader header = nersc_detail::agreed_header(communicator, path);
  check_lattice(file, header.extents, geometry);
  const std::uint32_t stored = nersc_detail::stored_checksum(header, path);

  // Pass 1 checks the checksum and link trace; pass 2 fills U. A file
  // failing those checks leaves U as it was, on every rank.
  const BlockSlices block(U[0].layout());
  const LinkRecords records{{header.real_bytes, header.big_endian}, header.stored_rows};
  with_file_access(name.gauge_file(), [&] {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    LinkSliceReader links(shared, block, header.data_offset, records, communicator, file);
    std::uint32_t checksum = 0;
    StoredLinkTrace trace;
    links.pass([&](int, const unsigned char* raw, const std::vector<double>& values) {
      checksum += nersc_checksum(raw, values.size(), records.reals);
      trace.add(values, records.rows);
    });
    checksum = sum_over_ranks(communicator, checksum);
    const double link_trace = trace.average(communicator, geometry.volume());
    check_checksum(file, "the checksum of its links is", checksum, stored, "its header", hex32);
    if (header.fields.count("LINK_TRACE"))
      check_average(file, "LINK_TRACE", link_trace, nersc_detail::header_number(header, "LINK_TRACE", path),
                    "its header says " + header.fields.at("LINK_TRACE"), RelativeTolerance{1e-6});
    links.pass([&](int t, const unsigned char*, const std::vector<double>& values) {
      scatter_slice(U, block, t, records.rows, values);
    });
  });
  // The plaquette needs the whole field: a file whose links pass the checks
  // above but not this one has been read into U when the error is thrown.
  if (header.fields.count("PLAQUETTE")) {
    const double expected = nersc_detail::header_number(header, "PLAQUETTE", path);
    check_average(file, "PLAQUETTE", average_plaquette(U), expected, "its header says " + header.fields.at("PLAQUETTE"),
                  RelativeTolerance{1e-6});
  }
  return header;
}

// Writes U to `path` (through path.tmp and a rename, so a kill during the
// write leaves any previous file intact). On a lattice spread over ranks
// every rank writes its own block (collective MPI-IO) and rank 0 the
// header; the file is the same bytes for any number of ranks.
template <class R, class W>
void write_nersc(const GaugeField<R, W>& U, const std::string& path, const NerscWriteOptions& options = {}) {
  const Geometry& geometry = U.geometry();
  check_writable(U, "a NERSC file", "NERSC files", options.real_bytes);
  const Communicator& communicator = geometry.decomposition().communicator();

  // Every rank makes the same header: the averages are global reductions,
  // the same bits for any number of ranks.
  const double link_trace = average_link_trace(U);
  const double plaquette = average_plaquette(U);
  std::size_t checksum_at = 0;
  std::string text = nersc_header_text(geometry.dims(), options, link_trace, plaquette, checksum_at);

  const BlockSlices block(U[0].layout());
  const LinkRecords records{{options.real_bytes, options.big_endian}, options.two_rows ? 2 : 3};
  write_through_temporary(communicator, {"NERSC", path}, [&](const std::string& tmp) {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    std::uint32_t checksum = 0;
    write_link_slices(file, U, block, static_cast<std::int64_t>(text.size()), records,
                      [&](int, const unsigned char* raw) {
                        checksum += nersc_checksum(raw, block.sites_per_slice() * records.reals_per_site(),
                                                   records.reals);
                      });
    checksum = sum_over_ranks(communicator, checksum);
    char checksum_text[9];
    std::snprintf(checksum_text, sizeof checksum_text, "%08x", checksum);
    text.replace(checksum_at, 8, checksum_text);
    file.root_write_at(0, text.data(), static_cast<std::int64_t>(text.size()));
    file.close();
  });
}

}  // namespace latte
