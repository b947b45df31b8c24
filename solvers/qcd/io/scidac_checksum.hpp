#pragma once
// The checksums of the SciDAC (QIO) and ILDG files: CRC-32 per site, and the
// two rotated XOR sums suma and sumb over the sites.
//
// CRC-32 is the one of zlib, Ethernet and PNG: polynomial 0x04c11db7 taken
// bit-reversed (0xedb88320), initial value and final XOR 0xffffffff; its
// check value is crc32("123456789") = 0xcbf43926.
//
// The SciDAC sums: for the site of global lexicographic index r (x fastest,
// the order the binary record stores the sites in), c = CRC-32 of the
// site's bytes as stored (big-endian, whatever the host), and
//   suma ^= rotl(c, r mod 29),   sumb ^= rotl(c, r mod 31).
// XOR is associative and commutative, so each rank sums its own sites and
// the ranks' sums are XORed: the same result for any decomposition.
//
// MILC's checksums sum29 and sum31 are the same two sums taken over the
// 32-bit words of the links instead of the sites' CRCs (word i entering as
// rotl(w_i, i mod 29) and rotl(w_i, i mod 31)): milc_gauge_file.hpp adds
// its words here.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "platform/comms/communicator.hpp"

namespace latte {

namespace scidac_detail {

constexpr std::array<std::uint32_t, 256> crc32_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t c = byte;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[byte] = c;
  }
  return table;
}

inline constexpr std::array<std::uint32_t, 256> crc32_bytes = crc32_table();

}  // namespace scidac_detail

inline std::uint32_t crc32(const unsigned char* data, std::size_t bytes) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = 0; i < bytes; ++i) c = scidac_detail::crc32_bytes[(c ^ data[i]) & 0xffu] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

struct ScidacChecksum {
  std::uint32_t suma = 0, sumb = 0;

  // Adds `value` of global index `index`: for SciDAC the CRC-32 of the
  // stored bytes of site `index`.
  void add(std::uint32_t value, std::int64_t index) {
    suma ^= std::rotl(value, static_cast<int>(index % 29));
    sumb ^= std::rotl(value, static_cast<int>(index % 31));
  }
  bool operator==(const ScidacChecksum&) const = default;
};

// The XOR of every rank's sums (collective): the whole file's checksum.
inline ScidacChecksum combined_over_ranks(const Communicator& communicator, ScidacChecksum mine) {
  std::vector<ScidacChecksum> all(static_cast<std::size_t>(communicator.size()));
  communicator.all_gather(&mine, sizeof mine, all.data());
  ScidacChecksum total;
  for (const ScidacChecksum& c : all) total.suma ^= c.suma, total.sumb ^= c.sumb;
  return total;
}

}  // namespace latte
