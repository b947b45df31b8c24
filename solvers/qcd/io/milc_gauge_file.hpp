#pragma once
// Gauge configurations in MILC's binary format, version 5 (the serial files
// of MILC's generic/io_lat4.c), read only: a 96-byte header, then the links.
//
// The header, field by field as MILC writes it (swrite_gauge_hdr and
// write_checksum in generic/io_lat_utils.c) and as MilcHeaderLayout places
// it (the one place their order is written here):
//   int32  magic number 20103, in the byte order of the machine that wrote
//          the file: read in either order, and the file's order is then
//          that of every number after it
//   int32  nx, ny, nz, nt
//   char   time stamp[64] (ctime's text, NUL-padded)
//   int32  order: 0 = sites in natural order (the only order read here;
//          1 is a node dump with a site list after the header)
//   uint32 sum29, sum31 (the checksums)
// The write order is not the order of the members of MILC's C struct
// (include/io_lat.h: gauge_header declares time_stamp before dims, plus a
// header_bytes that is never written; gauge_check declares sum31 before
// sum29): a reader that maps the struct onto the bytes reads the time stamp
// as extents. Tests build their files from the write sequence above.
// The links are link_slices.hpp's site-ordered records (sites x fastest,
// then y, z, t; at each site mu = x, y, z, t; each link a 3x3 complex matrix
// row by row, (re, im)) of IEEE 32-bit reals.
//
// The checksums take every 32-bit word w_i of the links (i counting from 0
// over the whole file, the word's value in the file's byte order):
//   sum29 = XOR_i rotl(w_i, i mod 29),   sum31 = XOR_i rotl(w_i, i mod 31).
// Both are checked; a file failing them, or whose links hold a NaN or an
// infinity (MILC states no average that would catch one), leaves the field
// as it was.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/io/gauge_file_checks.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/link_slices.hpp"
#include "solvers/qcd/io/scidac_checksum.hpp"
#include "solvers/qcd/io/stored_reals.hpp"

namespace latte {

struct MilcHeader : StoredLattice {
  bool big_endian = false;
  std::uint32_t sum29 = 0, sum31 = 0;
  std::string time_stamp;
  static constexpr std::int32_t magic = 20103;
  static constexpr std::int64_t header_bytes = 96;  // 88 of header, 8 of checksums
  static constexpr std::int64_t site_bytes = 4 * 18 * 4;
};

// The byte offset of each header field.
struct MilcHeaderLayout {
  static constexpr int magic = 0;          // int32
  static constexpr int extents = 4;        // int32[4]: nx, ny, nz, nt
  static constexpr int time_stamp = 20;    // char[64]
  static constexpr int order = 84;         // int32
  static constexpr int sum29 = 88;         // uint32
  static constexpr int sum31 = 92;         // uint32
};

namespace milc_detail {

inline std::string file(const std::string& path) { return GaugeFileName{"MILC", path}.file(); }

inline bool is_magic(const unsigned char* at, bool big_endian) {
  return load_word<std::uint32_t>(at, big_endian) == static_cast<std::uint32_t>(MilcHeader::magic);
}

inline std::string sums(const ScidacChecksum& sums) {
  return "sum29 " + hex32(sums.suma) + ", sum31 " + hex32(sums.sumb);
}

}  // namespace milc_detail

// Parses and checks the first 96 bytes of a file of `file_bytes` bytes.
inline MilcHeader parse_milc_header(const unsigned char* bytes, std::int64_t file_bytes, const std::string& path) {
  using Layout = MilcHeaderLayout;
  const std::string file = milc_detail::file(path);
  check_room_for_header(file, file_bytes, MilcHeader::header_bytes, "header and checksums");
  MilcHeader header;
  if (milc_detail::is_magic(bytes + Layout::magic, true))
    header.big_endian = true;
  else if (milc_detail::is_magic(bytes + Layout::magic, false))
    header.big_endian = false;
  else
    refuse(file + " does not begin with MILC's magic number 20103 in either byte order "
                  "(not a version-5 MILC gauge file)");
  auto word = [&](int offset) { return load_word<std::uint32_t>(bytes + offset, header.big_endian); };
  const char* stamp = reinterpret_cast<const char*>(bytes + Layout::time_stamp);
  header.time_stamp.assign(stamp, strnlen(stamp, 64));
  SiteCount sites(std::int64_t{1} << 50);
  for (int mu = 0; mu < 4; ++mu) {
    const std::int32_t extent = static_cast<std::int32_t>(word(Layout::extents + 4 * mu));
    if (extent < 1 || extent > 1000000)
      refuse_field(file, "extent " + std::to_string(mu) + " (" + "xyzt"[mu] + ")", std::to_string(extent),
                   "not a lattice extent");
    if (!sites.times(extent)) refuse(file + ": its extents are too large a lattice (more than 2^50 sites)");
    header.extents.push_back(extent);
  }
  const std::uint32_t order = word(Layout::order);
  if (order != 0)
    refuse(file + ": site order " + std::to_string(order) +
           " (a node dump with a site list); only natural order (0) is read");
  header.sum29 = word(Layout::sum29);
  header.sum31 = word(Layout::sum31);
  check_file_size(file, MilcHeader::header_bytes + header.volume() * MilcHeader::site_bytes,
                  "for extents " + to_string(header.extents), file_bytes);
  return header;
}

inline MilcHeader read_milc_header(const std::string& path) {
  std::ifstream in = open_gauge_file({"MILC", path});
  const std::int64_t bytes = file_size(in);
  return parse_milc_header(first_bytes(in, bytes, MilcHeader::header_bytes).data(), bytes, path);
}

// Reads the links of `path` into U, whose lattice must be the file's; every
// rank reads its own block, every error is thrown on every rank alike.
template <class R, class W>
MilcHeader read_milc(GaugeField<R, W>& U, const std::string& path) {
  const std::string file = milc_detail::file(path);
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  MilcHeader header;
  read_on_rank_zero(communicator, [&] { header = read_milc_header(path); });
  share_from_rank_zero(communicator, header.extents, header.big_endian, header.sum29, header.sum31);
  check_lattice(file, header.extents, geometry);

  const BlockSlices block(U[0].layout());
  const LinkRecords records{{4, header.big_endian}, 3};
  with_file_access(file, [&] {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    LinkSliceReader links(shared, block, MilcHeader::header_bytes, records, communicator, file);
    ScidacChecksum sums;
    constexpr int words_per_site = MilcHeader::site_bytes / 4;
    links.pass([&](int t, const unsigned char* raw, const std::vector<double>&) {
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const std::int64_t first = block.global_index(t, s) * words_per_site;
        for (int k = 0; k < words_per_site; ++k)
          sums.add(load_word<std::uint32_t>(raw + s * MilcHeader::site_bytes + 4 * k, header.big_endian), first + k);
      }
    });
    check_checksum(file, "the checksums of its links are", combined_over_ranks(communicator, sums),
                   ScidacChecksum{header.sum29, header.sum31}, "its header", milc_detail::sums);
    links.pass([&](int t, const unsigned char*, const std::vector<double>& values) {
      scatter_slice(U, block, t, 3, values);
    });
  });
  return header;
}

}  // namespace latte
