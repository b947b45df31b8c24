// LIME containers and ILDG / SciDAC gauge files: CRC-32 against its check
// value, the SciDAC checksums against an implementation written here from
// the definition, a file assembled byte by byte read into the right sites,
// exact round trips, and clear errors for damaged, truncated or lying files.
// (temp_path, read_bytes, write_bytes and labelled_link are test_gauge_io.cpp's,
// in the same suite.)

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>

#include "solvers/qcd/io/ildg_gauge_file.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// CRC-32 bit by bit, straight from its definition (reflected polynomial
// 0xedb88320, initial value and final XOR all ones): no table.
std::uint32_t crc32_bitwise(const std::string& bytes) {
  std::uint32_t c = 0xffffffffu;
  for (unsigned char byte : bytes) {
    c ^= byte;
    for (int bit = 0; bit < 8; ++bit) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

std::uint32_t rotate_left(std::uint32_t x, unsigned by) { return by == 0 ? x : (x << by) | (x >> (32 - by)); }

std::string big_endian_bytes(std::uint64_t bits, int bytes) {
  std::string out;
  for (int byte = bytes - 1; byte >= 0; --byte) out.push_back(static_cast<char>((bits >> (8 * byte)) & 0xff));
  return out;
}

std::string lime_by_hand(const std::string& type, const std::string& payload, int flags) {
  std::string header = big_endian_bytes(0x456789ab, 4) + big_endian_bytes(1, 2);
  header.push_back(static_cast<char>(flags));
  header.push_back('\0');
  header += big_endian_bytes(payload.size(), 8) + type;
  header.resize(144, '\0');
  std::string padded = payload;
  padded.resize((payload.size() + 7) / 8 * 8, '\0');
  return header + padded;
}

TEST(LimeFiles, Crc32HasItsCheckValue) {
  EXPECT_EQ(crc32(reinterpret_cast<const unsigned char*>("123456789"), 9), 0xcbf43926u);
  EXPECT_EQ(crc32_bitwise("123456789"), 0xcbf43926u);
  const std::string text = "Latte reads LIME";
  EXPECT_EQ(crc32(reinterpret_cast<const unsigned char*>(text.data()), text.size()), crc32_bitwise(text));
}

TEST(LimeFiles, RecordsAreLaidOutAsTheFormatSaysAndUnknownOnesSkipped) {
  EXPECT_EQ(lime_record("a-type", "payload", true, false), lime_by_hand("a-type", "payload", 0x80));
  EXPECT_EQ(lime_record("t", "12345678", false, true), lime_by_hand("t", "12345678", 0x40));
  const std::string bytes = lime_record("first", "abc", true, false) + lime_record("unknown-thing", "zz", false, false) +
                            lime_record("last", "", false, true);
  std::istringstream in(bytes);
  const auto records = read_lime_records(in, static_cast<std::int64_t>(bytes.size()), "memory");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].type, "first");
  EXPECT_TRUE(records[0].message_begin);
  EXPECT_FALSE(records[0].message_end);
  EXPECT_EQ(records[1].payload_offset, 144 + 8 + 144);
  EXPECT_EQ(records[1].payload_bytes, 2);
  EXPECT_TRUE(records[2].message_end);
  EXPECT_EQ(read_lime_payload(in, records[0], "memory", 100), "abc");
}

TEST(LimeFiles, DamagedContainersAreClearErrors) {
  const std::string good = lime_record("first", "abc", true, false) + lime_record("second", "defgh", false, true);
  auto error = [](const std::string& bytes) {
    return error_of<LimeError>([&] {
      std::istringstream in(bytes);
      read_lime_records(in, static_cast<std::int64_t>(bytes.size()), "f.lime");
    });
  };
  std::string magic = good;
  magic[152 + 1] ^= 0x01;  // the second record's magic
  EXPECT_NE(error(magic).find("record 2 (at byte 152) has magic number 0x45"), std::string::npos) << error(magic);
  std::string version = good;
  version[5] = 2;
  EXPECT_NE(error(version).find("LIME version 2"), std::string::npos) << error(version);
  std::string length = good;
  length[8] = '\x7f';  // a payload of about 2^63 bytes
  EXPECT_NE(error(length).find("says its payload has 9151314442816847875 bytes"), std::string::npos) << error(length);
  std::string type = good;
  std::memset(type.data() + 16, 'x', 128);
  EXPECT_NE(error(type).find("without its terminating NUL"), std::string::npos) << error(type);
  type[16] = '\0';
  EXPECT_NE(error(type).find("empty record type"), std::string::npos) << error(type);
  EXPECT_NE(error(good.substr(0, 200)).find("truncated"), std::string::npos) << error(good.substr(0, 200));
  EXPECT_NE(error(good.substr(0, 100)).find("100 bytes left"), std::string::npos);
  EXPECT_NE(error("BEGIN_HEADER\n" + std::string(200, ' ')).find("not a LIME file"), std::string::npos);
  EXPECT_NE(error("").find("empty"), std::string::npos);
}

// An ILDG file of IEEE64BIG links made here: records, link order and both
// checksums written from the definitions, not with Latte's writer.
std::string ildg_by_hand(const Geometry& geometry, bool with_lfn_and_unknown = true) {
  std::string links;
  std::uint32_t suma = 0, sumb = 0;
  for (std::int64_t site = 0; site < geometry.volume(); ++site) {
    std::string site_bytes;
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> u = labelled_link(site, mu);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (double value : {u(i, j).re, u(i, j).im}) {
            std::uint64_t bits;
            std::memcpy(&bits, &value, 8);
            site_bytes += big_endian_bytes(bits, 8);
          }
    }
    const std::uint32_t crc = crc32_bitwise(site_bytes);
    suma ^= rotate_left(crc, static_cast<unsigned>(site % 29));
    sumb ^= rotate_left(crc, static_cast<unsigned>(site % 31));
    links += site_bytes;
  }
  const Coordinate& d = geometry.dims();
  std::ostringstream format, checksum;
  format << "<?xml version=\"1.0\"?><ildgFormat><version>1.0</version><field>su3gauge</field><precision>64</precision>"
         << "<lx>" << d[0] << "</lx><ly>" << d[1] << "</ly><lz>" << d[2] << "</lz><lt>" << d[3] << "</lt></ildgFormat>";
  checksum << "<scidacChecksum><version>1.0</version><suma>" << std::hex << suma << "</suma><sumb>" << sumb
           << "</sumb></scidacChecksum>";
  return lime_by_hand("ildg-format", format.str(), 0x80) +
         (with_lfn_and_unknown ? lime_by_hand("some-other-program", "opaque", 0) + lime_by_hand("ildg-data-lfn", "lfn://x", 0)
                               : "") +
         lime_by_hand("ildg-binary-data", links, 0) + lime_by_hand("scidac-checksum", checksum.str(), 0x40);
}

TEST(IldgGaugeFile, ReadsAFileAssembledFromTheFormat) {
  const Geometry geometry({4, 2, 2, 6});
  const std::string path = temp_path("by_hand.ildg");
  write_bytes(path, ildg_by_hand(geometry));
  GaugeField<double> U(geometry);
  const IldgHeader header = read_ildg(U, path);
  EXPECT_EQ(header.lfn, "lfn://x");
  EXPECT_TRUE(header.has_checksum);
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> expected = labelled_link(geometry.global_index(x), mu), got = peek(U[mu], x);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          ASSERT_EQ(got(i, j).re, expected(i, j).re) << to_string(x) << " mu " << mu;
          ASSERT_EQ(got(i, j).im, expected(i, j).im) << to_string(x) << " mu " << mu;
        }
    }
  });
  // Latte's writer gives the same links and the same checksums.
  const std::string ours = temp_path("ours.ildg");
  write_ildg(U, ours);
  const IldgHeader written = read_ildg_header(ours);
  EXPECT_EQ(written.checksum, header.checksum);
  const std::string mine = read_bytes(ours), theirs = read_bytes(path);
  EXPECT_EQ(mine.substr(written.data_offset, written.data_bytes), theirs.substr(header.data_offset, header.data_bytes));
  std::filesystem::remove(path);
  std::filesystem::remove(ours);
}

TEST(IldgGaugeFile, RoundTripsInBothPrecisions) {
  const Geometry geometry({4, 4, 2, 4});
  GaugeField<double> U(geometry);
  ParallelRng rng(15);
  U.set_random(rng);
  const std::string path = temp_path("round_trip.ildg");
  write_ildg(U, path);
  GaugeField<double> back(geometry);
  read_ildg(back, path);  // checks checksums, link trace and plaquette
  for (int mu = 0; mu < 4; ++mu) EXPECT_EQ(norm2(back[mu] - U[mu]), 0.0) << "mu " << mu;  // every bit

  // 32-bit reals: each real rounded to the nearest float (relative 2^-24).
  write_ildg(U, path, IldgWriteOptions{.real_bytes = 4});
  const IldgHeader header = read_ildg(back, path);
  EXPECT_EQ(header.real_bytes, 4);
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> u = peek(U[mu], x), b = peek(back[mu], x);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          ASSERT_EQ(b(i, j).re, static_cast<double>(static_cast<float>(u(i, j).re)));
          ASSERT_EQ(b(i, j).im, static_cast<double>(static_cast<float>(u(i, j).im)));
        }
    }
  });
  GaugeField<float> single(geometry);
  read_ildg(single, path);
  EXPECT_NEAR(average_plaquette(single), average_plaquette(U), 1e-6);
  std::filesystem::remove(path);
}

TEST(IldgGaugeFile, DamagedOrLyingFilesAreClearErrorsAndLeaveTheField) {
  const Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry), back(geometry);
  ParallelRng rng(16);
  U.set_random(rng);
  const std::string path = temp_path("good.ildg"), damaged = temp_path("damaged.ildg");
  write_ildg(U, path);
  const std::string good = read_bytes(path);
  const IldgHeader header = read_ildg_header(path);
  auto refused = [&](const std::string& bytes) {
    write_bytes(damaged, bytes);
    back.set_unit();
    const std::string message = error_of<GaugeFileError>([&] { read_ildg(back, damaged); });
    EXPECT_NE(message.find(damaged), std::string::npos) << message;  // names the file
    return message;
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string bytes = good;
    const std::size_t at = bytes.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    bytes.replace(at, from.size(), to);
    return bytes;
  };

  // A flipped byte in the links: the checksums disagree, U unchanged.
  std::string flipped = good;
  flipped[static_cast<std::size_t>(header.data_offset) + 1001] ^= 0x10;
  EXPECT_NE(refused(flipped).find("is corrupt: the SciDAC checksums of its links are suma"), std::string::npos);
  EXPECT_EQ(average_plaquette(back), 1.0);

  // Every header field that matters, changed to a lie of the same length.
  EXPECT_NE(refused(replaced("<lx>4</lx>", "<lx>8</lx>")).find("ildg-format says extents [8 4 4 4]"), std::string::npos);
  EXPECT_NE(refused(replaced("<lt>4</lt>", "<lt>x</lt>")).find("<lt> is 'x'"), std::string::npos);
  EXPECT_NE(refused(replaced("<dims>4 4 4 4", "<dims>4 4 4 2")).find("scidac-private-file-xml [4 4 4 2]"),
            std::string::npos);
  EXPECT_NE(refused(replaced("<precision>64<", "<precision>32<")).find("ildg-format says 32-bit reals"),
            std::string::npos);
  EXPECT_NE(refused(replaced("<precision>D<", "<precision>Q<")).find("<precision> is 'Q'"), std::string::npos);
  EXPECT_NE(refused(replaced("<typesize>144<", "<typesize>145<")).find("<typesize> is 145"), std::string::npos);
  EXPECT_NE(refused(replaced("<field>su3gauge<", "<field>su2gauge<")).find("not su3gauge"), std::string::npos);
  EXPECT_NE(refused(replaced("ildg-binary-data", "ildg-binary-dat\x01")).find("not printable"), std::string::npos);
  EXPECT_NE(refused(replaced("ildg-binary-data", "ildg-binary-dat_")).find("no ildg-binary-data record"),
            std::string::npos);
  std::string suma = good;
  suma[suma.find("<suma>") + 6] ^= 0x01;
  EXPECT_NE(refused(suma).find("scidac-checksum record says suma"), std::string::npos);
  std::string magic = good;
  magic[static_cast<std::size_t>(header.data_offset) - 144] ^= 0x01;
  EXPECT_NE(refused(magic).find("magic number"), std::string::npos);
  std::string length = good;
  length[static_cast<std::size_t>(header.data_offset) - 144 + 12] ^= 0x01;  // the binary record's length
  EXPECT_FALSE(refused(length).empty());
  // Averages that lie while the checksums hold.
  const std::size_t plaq_at = good.find("<plaq>") + 6;
  std::string plaq = good;
  plaq[plaq_at + 3] = plaq[plaq_at + 3] == '1' ? '2' : '1';
  EXPECT_NE(refused(plaq).find("the usqcdInfo of its scidac-file-xml says plaq"), std::string::npos);
  const std::size_t record_plaq_at = good.rfind("<plaq>") + 6;  // scidac-record-xml's
  std::string record_plaq = good;
  record_plaq[record_plaq_at + 3] = record_plaq[record_plaq_at + 3] == '1' ? '2' : '1';
  EXPECT_NE(refused(record_plaq).find("the usqcdInfo of its scidac-record-xml says plaq"), std::string::npos);
  const std::size_t linktr_at = good.find("<linktr>") + 8;
  std::string linktr = good;
  linktr[linktr_at + 3] = linktr[linktr_at + 3] == '1' ? '2' : '1';
  EXPECT_NE(refused(linktr).find("the usqcdInfo of its scidac-file-xml says linktr"), std::string::npos);
  EXPECT_EQ(average_plaquette(back), 1.0);

  // Truncated anywhere: in a header, an XML payload, the links, the checksum.
  for (std::size_t cut : {std::size_t{100}, std::size_t{300}, static_cast<std::size_t>(header.data_offset) + 5000,
                          good.size() - 20})
    EXPECT_FALSE(refused(good.substr(0, cut)).empty()) << cut;

  GaugeField<double> other(Geometry({4, 4, 4, 8}));
  EXPECT_NE(error_of<GeometryMismatch>([&] { read_ildg(other, path); }).find("[4 4 4 4]"), std::string::npos);
  EXPECT_NE(error_of<GaugeFileError>([&] { read_ildg(back, temp_path("missing.ildg")); }).find("cannot open"),
            std::string::npos);
  std::filesystem::remove(path);
  std::filesystem::remove(damaged);
}

// A NaN where a link's diagonal should be, in a file whose checksums were
// computed with it and whose usqcdInfo has linktr but no plaq: the
// checksums agree and the link trace would be NaN (a plain `|trace -
// linktr| > tolerance` is false for a NaN and once let such a file
// through). The reader refuses it before any average, naming the link:
// site 3 of a 4x4x2x4 lattice is [3 0 0 0], and real 18 + 8 of the site
// is Re U_y(1, 1), so mu = 1.
TEST(IldgGaugeFile, ANanLinkIsNamedAndLeavesTheField) {
  const Geometry geometry({4, 4, 2, 4});
  GaugeField<double> U(geometry), back(geometry);
  ParallelRng rng(17);
  U.set_random(rng);
  const std::string path = temp_path("nan_link.ildg");
  write_ildg(U, path);
  const IldgHeader header = read_ildg_header(path);
  std::string bytes = read_bytes(path);
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"<plaq>", "<plaX>"}, {"</plaq>", "</plaX>"}})
    for (std::size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at))
      bytes.replace(at, from.size(), to);
  const std::int64_t site_bytes = 4 * 18 * 8;
  const std::size_t nan_at = static_cast<std::size_t>(header.data_offset + 3 * site_bytes + 8 * (18 + 8));  // site 3, Re U_y(1, 1)
  bytes.replace(nan_at, 8, big_endian_bytes(0x7ff8000000000000ull, 8));
  std::uint32_t suma = 0, sumb = 0;
  for (std::int64_t site = 0; site < geometry.volume(); ++site) {
    const std::uint32_t crc = crc32_bitwise(bytes.substr(static_cast<std::size_t>(header.data_offset + site * site_bytes),
                                                         static_cast<std::size_t>(site_bytes)));
    suma ^= rotate_left(crc, static_cast<unsigned>(site % 29));
    sumb ^= rotate_left(crc, static_cast<unsigned>(site % 31));
  }
  std::ostringstream checksum;
  checksum << "<scidacChecksum><version>1.0</version><suma>" << std::hex << suma << "</suma><sumb>" << sumb
           << "</sumb></scidacChecksum>";
  bytes = bytes.substr(0, static_cast<std::size_t>(header.data_offset + header.data_bytes)) +
          lime_by_hand("scidac-checksum", checksum.str(), 0x40);
  write_bytes(path, bytes);
  ASSERT_FALSE(read_ildg_header(path).has_plaquette[0] || read_ildg_header(path).has_plaquette[1]);
  back.set_unit();
  const std::string message = error_of<GaugeFileError>([&] { read_ildg(back, path); });
  EXPECT_NE(message.find("is corrupt: its link mu = 1 of site (x, y, z, t) = [3 0 0 0] holds nan, not a finite number"),
            std::string::npos)
      << message;
  EXPECT_EQ(average_plaquette(back), 1.0);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace latte::testing
