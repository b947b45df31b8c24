#pragma once
// Gauge configurations in MILC's binary format, version 5 (io_lat4.c of the
// MILC code), read only:
//
//   int32  magic number 20103, in the byte order of the machine that wrote
//          the file: read in either order, and the file's order is then
//          that of every number after it
//   char   time stamp[64]
//   int32  nx, ny, nz, nt
//   int32  order: 0 = sites in natural order (the only order read here;
//          1 and 2 are node dumps with a site list)
//   uint32 sum29, sum31 (the checksums)
//   links  sites in lexicographic order with x fastest, then y, z, t; at
//          each site the links of mu = x, y, z, t; each a 3x3 complex
//          matrix row by row, (re, im), as IEEE 32-bit reals.
//
// The checksums take every 32-bit word w_i of the links (i counting from 0
// over the whole file, the word's value in the file's byte order):
//   sum29 = XOR_i rotl(w_i, i mod 29),   sum31 = XOR_i rotl(w_i, i mod 31).
// Both are checked; a file failing them leaves the field as it was.

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "solvers/qcd/io/nersc_gauge_file.hpp"

namespace latte {

struct MilcHeader {
  Coordinate extents;
  bool big_endian = false;
  std::uint32_t sum29 = 0, sum31 = 0;
  std::string time_stamp;
  static constexpr std::int32_t magic = 20103;
  static constexpr std::int64_t header_bytes = 96;  // 88 of header, 8 of checksums
  static constexpr std::int64_t site_bytes = 4 * 18 * 4;

  std::int64_t volume() const {
    std::int64_t v = 1;
    for (int extent : extents) v *= extent;
    return v;
  }
};

namespace milc_detail {

inline std::uint32_t word(const unsigned char* at, bool big_endian) {
  std::uint32_t w;
  std::memcpy(&w, at, 4);
  const bool host_big = std::endian::native == std::endian::big;
  return big_endian == host_big ? w : nersc_detail::byte_swapped(w);
}

inline bool is_magic(const unsigned char* at, bool big_endian) {
  return word(at, big_endian) == static_cast<std::uint32_t>(MilcHeader::magic);
}

}  // namespace milc_detail

// Parses and checks the first 96 bytes of a file of `file_bytes` bytes.
inline MilcHeader parse_milc_header(const unsigned char* bytes, std::int64_t file_bytes, const std::string& path) {
  const std::string file = "MILC file '" + path + "'";
  if (file_bytes < MilcHeader::header_bytes)
    throw GaugeFileError("Latte: " + file + " has " + std::to_string(file_bytes) +
                         " bytes, fewer than its 96-byte header and checksums");
  MilcHeader header;
  if (milc_detail::is_magic(bytes, true))
    header.big_endian = true;
  else if (milc_detail::is_magic(bytes, false))
    header.big_endian = false;
  else
    throw GaugeFileError("Latte: " + file + " does not begin with MILC's magic number 20103 in either byte order "
                         "(not a version-5 MILC gauge file)");
  const char* stamp = reinterpret_cast<const char*>(bytes + 4);
  header.time_stamp.assign(stamp, strnlen(stamp, 64));
  std::int64_t sites = 1;
  for (int mu = 0; mu < 4; ++mu) {
    const std::int32_t extent = static_cast<std::int32_t>(milc_detail::word(bytes + 68 + 4 * mu, header.big_endian));
    if (extent < 1 || extent > 1000000)
      throw GaugeFileError("Latte: " + file + ": extent " + std::to_string(mu) + " (" + "xyzt"[mu] + ") is " +
                           std::to_string(extent) + ", not a lattice extent");
    if (sites > (std::int64_t{1} << 50) / extent)  // before multiplying: no overflow
      throw GaugeFileError("Latte: " + file + ": its extents are too large a lattice (more than 2^50 sites)");
    sites *= extent;
    header.extents.push_back(extent);
  }
  const std::uint32_t order = milc_detail::word(bytes + 84, header.big_endian);
  if (order != 0)
    throw GaugeFileError("Latte: " + file + ": site order " + std::to_string(order) +
                         " (a node dump with a site list); only natural order (0) is read");
  header.sum29 = milc_detail::word(bytes + 88, header.big_endian);
  header.sum31 = milc_detail::word(bytes + 92, header.big_endian);
  const std::int64_t expected = MilcHeader::header_bytes + header.volume() * MilcHeader::site_bytes;
  if (file_bytes != expected)
    throw GaugeFileError("Latte: " + file + " should have " + std::to_string(expected) + " bytes for extents " +
                         to_string(header.extents) + " but has " + std::to_string(file_bytes) +
                         (file_bytes < expected ? " (truncated)" : " (trailing data)"));
  return header;
}

inline MilcHeader read_milc_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GaugeFileError("Latte: cannot open MILC gauge file '" + path + "'");
  in.seekg(0, std::ios::end);
  const std::int64_t bytes = static_cast<std::int64_t>(in.tellg());
  in.seekg(0);
  unsigned char header[MilcHeader::header_bytes] = {};
  in.read(reinterpret_cast<char*>(header), std::min<std::int64_t>(bytes, sizeof header));
  return parse_milc_header(header, bytes, path);
}

namespace milc_detail {

inline MilcHeader agreed_header(const Communicator& communicator, const std::string& path) {
  struct Wire {
    int extents[4];
    int big_endian;
    std::uint32_t sum29, sum31;
  } wire{};
  MilcHeader header;
  std::string failure;
  if (communicator.rank() == 0) {
    try {
      header = read_milc_header(path);
      for (int mu = 0; mu < 4; ++mu) wire.extents[mu] = header.extents[mu];
      wire.big_endian = header.big_endian, wire.sum29 = header.sum29, wire.sum31 = header.sum31;
    } catch (const GaugeFileError& error) {
      failure = error.what();
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
  communicator.broadcast(&wire, sizeof wire, 0);
  header.extents.assign(wire.extents, wire.extents + 4);
  header.big_endian = wire.big_endian != 0, header.sum29 = wire.sum29, header.sum31 = wire.sum31;
  return header;
}

}  // namespace milc_detail

// Reads the links of `path` into U, whose lattice must be the file's; every
// rank reads its own block, every error is thrown on every rank alike.
template <class R, class W>
MilcHeader read_milc(GaugeField<R, W>& U, const std::string& path) {
  const std::string file = "MILC file '" + path + "'";
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  const MilcHeader header = milc_detail::agreed_header(communicator, path);
  if (geometry.checkerboarded() || header.extents != geometry.dims())
    throw GeometryMismatch("Latte: " + file + " holds a lattice of extents " + to_string(header.extents) +
                           " but the gauge field has extents " + to_string(geometry.dims()));
  const BlockSlices block(U[0].layout());
  std::vector<unsigned char> raw(static_cast<std::size_t>(block.sites_per_slice() * MilcHeader::site_bytes));
  const std::size_t reals = raw.size() / 4;
  std::vector<double> values(reals);
  try {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    auto read_slice = [&] {
      std::uint32_t unused = 0;
      shared.read_block(raw.data(), block.sites_per_slice());
      nersc_detail::decode<float, std::uint32_t>(raw.data(), reals, header.big_endian, values, unused);
    };
    std::uint32_t sum29 = 0, sum31 = 0;
    block.view(shared, MilcHeader::header_bytes, MilcHeader::site_bytes);
    for (int t = 0; t < block.slices(); ++t) {
      read_slice();
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const std::int64_t first = block.global_index(t, s) * (MilcHeader::site_bytes / 4);
        for (int k = 0; k < MilcHeader::site_bytes / 4; ++k) {
          const std::uint32_t w = milc_detail::word(raw.data() + s * MilcHeader::site_bytes + 4 * k, header.big_endian);
          sum29 ^= std::rotl(w, static_cast<int>((first + k) % 29));
          sum31 ^= std::rotl(w, static_cast<int>((first + k) % 31));
        }
      }
    }
    // XOR over ranks, as a pair.
    std::vector<std::uint32_t> all(2 * static_cast<std::size_t>(communicator.size()));
    const std::uint32_t mine[2] = {sum29, sum31};
    communicator.all_gather(mine, sizeof mine, all.data());
    sum29 = sum31 = 0;
    for (std::size_t r = 0; r < all.size(); r += 2) sum29 ^= all[r], sum31 ^= all[r + 1];
    if (sum29 != header.sum29 || sum31 != header.sum31) {
      char text[160];
      std::snprintf(text, sizeof text, "sum29 %x, sum31 %x but its header says sum29 %x, sum31 %x", sum29, sum31,
                    header.sum29, header.sum31);
      throw GaugeFileError("Latte: " + file + " is corrupt: the checksums of its links are " + text);
    }
    block.view(shared, MilcHeader::header_bytes, MilcHeader::site_bytes);
    for (int t = 0; t < block.slices(); ++t) {
      read_slice();
      nersc_detail::scatter_slice(U, block, t, 3, values);
    }
  } catch (const FileAccessError& error) {
    throw GaugeFileError("Latte: " + file + ": " + error.what());
  }
  return header;
}

}  // namespace latte
