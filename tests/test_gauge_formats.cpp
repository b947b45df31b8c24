// openQCD and MILC gauge files against files assembled here from their
// definitions, and the one entry point (read_gauge / write_gauge) that tells
// the formats apart by content: NERSC -> ILDG -> openQCD -> NERSC keeps
// every bit. (temp_path, read_bytes, write_bytes and labelled_link are
// test_gauge_io.cpp's, in the same suite.)

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

#include "solvers/qcd/io/gauge_file.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

std::string bytes_of(std::uint64_t value, int bytes, bool big_endian) {
  std::string out(static_cast<std::size_t>(bytes), '\0');
  for (int i = 0; i < bytes; ++i)
    out[static_cast<std::size_t>(big_endian ? bytes - 1 - i : i)] = static_cast<char>((value >> (8 * i)) & 0xff);
  return out;
}

std::string double_le(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bytes_of(bits, 8, false);
}

// x rounded to the float a file stores. Through a volatile: GCC 12 (-O2 and
// -O3, -march=znver3 with -ffp-contract=fast) dropped the double -> float ->
// double pair of a plain cast in the loop below, and the expected links kept
// every bit of the doubles (MilcGaugeFile.ReadsFilesAssembledFromTheFormat...
// failed in the native CI build, 2026-11-27).
double stored_float(double x) {
  volatile float f = static_cast<float>(x);
  return f;
}

// A field holding labelled_link(global index of x, mu) at every site.
// (Each real rounded to float with `single`.)
void fill_labelled(GaugeField<double>& U, bool single = false) {
  const Geometry& geometry = U.geometry();
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    for (int mu = 0; mu < 4; ++mu) {
      ColourMatrix<double> u = labelled_link(geometry.global_index(x), mu);
      if (single)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            u(i, j) = ComplexD(stored_float(u(i, j).re), stored_float(u(i, j).im));
      poke(U[mu], x, u);
    }
  });
}

void expect_same_links(const GaugeField<double>& a, const GaugeField<double>& b) {
  for_each_coordinate(a.geometry(), [&](const Coordinate& x) {
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> u = peek(a[mu], x), v = peek(b[mu], x);
      ASSERT_EQ(std::memcmp(&u, &v, sizeof u), 0) << to_string(x) << " mu " << mu;
    }
  });
}

// openQCD's file of labelled links: t slowest, z fastest, odd sites only,
// directions t, x, y, z, each with its backward link.
std::string openqcd_by_hand(const Geometry& geometry, double plaquette) {
  const Coordinate n = geometry.dims();
  std::string file = bytes_of(n[3], 4, false) + bytes_of(n[0], 4, false) + bytes_of(n[1], 4, false) +
                     bytes_of(n[2], 4, false) + double_le(plaquette);
  for (int t = 0; t < n[3]; ++t)
    for (int x = 0; x < n[0]; ++x)
      for (int y = 0; y < n[1]; ++y)
        for (int z = 0; z < n[2]; ++z) {
          if ((t + x + y + z) % 2 == 0) continue;
          const Coordinate site{x, y, z, t};
          for (int mu : {3, 0, 1, 2}) {  // openQCD's directions 0..3 = t, x, y, z
            Coordinate back = site;
            back[mu] = (back[mu] + n[mu] - 1) % n[mu];
            for (const Coordinate& from : {site, back}) {
              const ColourMatrix<double> u = labelled_link(geometry.global_index(from), mu);
              for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) file += double_le(u(i, j).re) + double_le(u(i, j).im);
            }
          }
        }
  return file;
}

TEST(OpenQcdGaugeFile, ReadsAFileAssembledFromTheFormatAndWritesItBack) {
  const Geometry geometry({4, 2, 6, 4});
  GaugeField<double> expected(geometry);
  fill_labelled(expected);
  const double plaquette = 3.0 * average_plaquette(expected);
  const std::string path = temp_path("by_hand.openqcd"), ours = temp_path("ours.openqcd");
  const std::string by_hand = openqcd_by_hand(geometry, plaquette);
  write_bytes(path, by_hand);
  GaugeField<double> U(geometry);
  const OpenQcdHeader header = read_openqcd(U, path);
  EXPECT_EQ(header.extents, geometry.dims());
  expect_same_links(U, expected);
  write_openqcd(U, ours);
  EXPECT_TRUE(read_bytes(ours) == by_hand);  // the same bytes

  // A random field, every bit back.
  ParallelRng rng(21);
  U.set_random(rng);
  write_openqcd(U, ours);
  GaugeField<double> back(geometry);
  read_openqcd(back, ours);
  expect_same_links(back, U);

  // Single-precision fields: read rounds each real to float; written, the
  // floats come back exactly and the header's plaquette is theirs.
  GaugeField<float> single(geometry);
  read_openqcd(single, ours);
  write_openqcd(single, ours);
  read_openqcd(back, ours);
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
  std::filesystem::remove(path);
  std::filesystem::remove(ours);
}

TEST(OpenQcdGaugeFile, DamagedOrLyingFilesAreClearErrors) {
  const Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry), back(geometry);
  ParallelRng rng(22);
  U.set_random(rng);
  const std::string path = temp_path("good.openqcd"), damaged = temp_path("damaged.openqcd");
  write_openqcd(U, path);
  const std::string good = read_bytes(path);
  auto refused = [&](const std::string& bytes) {
    write_bytes(damaged, bytes);
    back.set_unit();
    const std::string message = error_of<GaugeFileError>([&] { read_openqcd(back, damaged); });
    EXPECT_NE(message.find(damaged), std::string::npos) << message;
    EXPECT_EQ(average_plaquette(back), 1.0) << message;  // unchanged
    return message;
  };
  std::string flipped = good;
  flipped[5006] ^= 0x10;  // byte 6 of a little-endian double: the lowest exponent bit
  EXPECT_NE(refused(flipped).find("is corrupt: its links have plaquette"), std::string::npos);
  std::string plaquette = good;
  plaquette[20] ^= 0x01;  // the header's plaquette, low mantissa bits
  EXPECT_NE(refused(plaquette).find("but its header says"), std::string::npos);
  std::string extent = good;
  extent[0] = 5;
  EXPECT_NE(refused(extent).find("N0 = 5 is not an even lattice extent"), std::string::npos);
  extent[0] = 8;
  EXPECT_NE(refused(extent).find("(truncated)"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, good.size() - 1)).find("(truncated)"), std::string::npos);
  EXPECT_NE(refused(good + "x").find("(trailing data)"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, 10)).find("fewer than its 24-byte header"), std::string::npos);
  // Each extent plausible, their product not: refused before any use.
  std::string huge = good;
  for (int mu = 0; mu < 4; ++mu) huge.replace(4 * mu, 4, bytes_of(1000000, 4, false));
  EXPECT_NE(refused(huge).find("is too large a lattice"), std::string::npos);
  GaugeField<double> odd(Geometry({4, 4, 4, 3}));
  EXPECT_THROW(write_openqcd(odd, damaged), GeometryMismatch);
  std::filesystem::remove(path);
  std::filesystem::remove(damaged);
}

// A MILC version-5 file of labelled links (rounded to float), in either
// byte order, built as MILC's own serial writer makes one (generic/
// io_lat_utils.c and io_lat4.c), not from Latte's reader:
//   swrite_gauge_hdr   magic_number (int32), dims[4] (int32), time_stamp
//                      (char[64]), order (int32), in that order: 88 bytes
//                      (not the member order of its gauge_header struct,
//                      which puts time_stamp before dims)
//   write_checksum     sum29, then sum31 (uint32; the gauge_check struct
//                      declares sum31 first), at byte 88
//   w_serial           the links from byte 96: sites in x, y, z, t order,
//                      four fsu3_matrix per site (e[i][j] = {real, imag})
// The checksums as accum_cksums accumulates them: rank29 and rank31 count
// the 32-bit words from 0, wrapping at 29 and 31, and each word (its value
// on the writing machine, which is the file's byte order) enters as
//   sum29 ^= (val << rank29) | (val >> (32 - rank29))
// (a shift by 32 is undefined in C++: at rank 0 the word enters as it is,
// which is what x86 computes for MILC's expression).
// `poison(site, mu, k, value)` may replace real k of a link before it is
// stored, so a file can hold a NaN with checksums that agree.
template <class Poison>
std::string milc_by_hand(const Geometry& geometry, bool big_endian, int order, Poison&& poison) {
  std::string links;
  std::uint32_t sum29 = 0, sum31 = 0;
  unsigned rank29 = 0, rank31 = 0;
  for (std::int64_t site = 0; site < geometry.volume(); ++site)
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> u = labelled_link(site, mu);
      for (int k = 0; k < 18; ++k) {
        const double value = k % 2 == 0 ? u(k / 6, k / 2 % 3).re : u(k / 6, k / 2 % 3).im;
        const float f = static_cast<float>(poison(site, mu, k, value));
        std::uint32_t val;
        std::memcpy(&val, &f, 4);
        sum29 ^= rank29 == 0 ? val : (val << rank29 | val >> (32 - rank29));
        sum31 ^= rank31 == 0 ? val : (val << rank31 | val >> (32 - rank31));
        if (++rank29 >= 29) rank29 = 0;
        if (++rank31 >= 31) rank31 = 0;
        links += bytes_of(val, 4, big_endian);
      }
    }
  std::string file = bytes_of(20103, 4, big_endian);  // magic_number
  for (int extent : geometry.dims()) file += bytes_of(static_cast<std::uint32_t>(extent), 4, big_endian);  // dims
  std::string stamp = "Fri Nov 27 12:00:00 2026";  // ctime's text without its newline, NUL-padded
  stamp.resize(64, '\0');
  file += stamp;                                                       // time_stamp
  file += bytes_of(static_cast<std::uint32_t>(order), 4, big_endian);  // order
  EXPECT_EQ(file.size(), 88u);
  file += bytes_of(sum29, 4, big_endian) + bytes_of(sum31, 4, big_endian);
  return file + links;
}

std::string milc_by_hand(const Geometry& geometry, bool big_endian, int order = 0) {
  return milc_by_hand(geometry, big_endian, order, [](std::int64_t, int, int, double value) { return value; });
}

TEST(MilcGaugeFile, ReadsFilesAssembledFromTheFormatInEitherByteOrder) {
  const Geometry geometry({4, 2, 2, 6});
  GaugeField<double> expected(geometry);
  fill_labelled(expected, true);  // the file's floats
  const std::string path = temp_path("by_hand.milc");
  for (bool big_endian : {false, true}) {
    write_bytes(path, milc_by_hand(geometry, big_endian));
    GaugeField<double> U(geometry);
    const MilcHeader header = read_milc(U, path);
    EXPECT_EQ(header.big_endian, big_endian);
    EXPECT_EQ(header.time_stamp, "Fri Nov 27 12:00:00 2026");
    EXPECT_EQ(header.extents, geometry.dims());
    expect_same_links(U, expected);
    EXPECT_EQ(read_gauge_file_info(path).format, GaugeFileFormat::milc);
    EXPECT_EQ(read_gauge_file_info(path).extents, geometry.dims());
  }
  std::filesystem::remove(path);
}

TEST(MilcGaugeFile, DamagedFilesAreClearErrors) {
  const Geometry geometry({4, 4, 4, 4});
  const std::string path = temp_path("damaged.milc");
  const std::string good = milc_by_hand(geometry, true);
  GaugeField<double> U(geometry);
  auto refused = [&](const std::string& bytes) {
    write_bytes(path, bytes);
    U.set_unit();
    const std::string message = error_of<GaugeFileError>([&] { read_milc(U, path); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(average_plaquette(U), 1.0) << message;
    return message;
  };
  std::string flipped = good;
  flipped[2000] ^= 0x01;
  EXPECT_NE(refused(flipped).find("is corrupt: the checksums of its links are sum29"), std::string::npos);
  std::string sum = good;
  sum[90] ^= 0x01;
  EXPECT_NE(refused(sum).find("but its header says"), std::string::npos);
  std::string magic = good;
  magic[3] ^= 0x01;
  EXPECT_NE(refused(magic).find("magic number 20103"), std::string::npos);
  std::string extent = good;
  extent[4] = '\x7f';  // the high byte of nx (big-endian)
  EXPECT_NE(refused(extent).find("extent 0 (x)"), std::string::npos);
  EXPECT_NE(refused(milc_by_hand(geometry, false, 1)).find("site order 1"), std::string::npos);
  std::string huge = good;
  for (int mu = 0; mu < 4; ++mu) huge.replace(4 + 4 * mu, 4, bytes_of(1000000, 4, true));
  EXPECT_NE(refused(huge).find("too large a lattice"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, good.size() - 4)).find("(truncated)"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, 50)).find("fewer than its 96-byte header"), std::string::npos);
  std::filesystem::remove(path);
}

// The first 96 bytes of an 8^4 configuration as a big-endian machine running
// MILC writes them, byte by byte: magic 20103 = 0x4e87, nx ny nz nt = 8, the
// ctime stamp, order 0, sum29, sum31.
TEST(MilcGaugeFile, ReadsTheHeaderMilcWritesByteForByte) {
  std::string header("\x00\x00\x4e\x87"
                     "\x00\x00\x00\x08\x00\x00\x00\x08\x00\x00\x00\x08\x00\x00\x00\x08",
                     20);
  std::string stamp = "Thu Jan  5 10:11:12 2017";
  stamp.resize(64, '\0');
  header += stamp;
  header += std::string("\x00\x00\x00\x00" "\x12\x34\x56\x78" "\x9a\xbc\xde\xf0", 12);
  ASSERT_EQ(header.size(), 96u);
  const std::int64_t file_bytes = 96 + 8 * 8 * 8 * 8 * 4 * 18 * 4;
  const MilcHeader parsed =
      parse_milc_header(reinterpret_cast<const unsigned char*>(header.data()), file_bytes, "header.milc");
  EXPECT_TRUE(parsed.big_endian);
  EXPECT_EQ(parsed.extents, (Coordinate{8, 8, 8, 8}));
  EXPECT_EQ(parsed.time_stamp, "Thu Jan  5 10:11:12 2017");
  EXPECT_EQ(parsed.sum29, 0x12345678u);
  EXPECT_EQ(parsed.sum31, 0x9abcdef0u);
}

// A NaN or an infinity in the links is refused by every reader, naming the
// first such link, with the field kept: in a MILC file whose checksums are
// those of the NaN (MILC states no average), and in NERSC, ILDG and openQCD
// files with one real overwritten (refused before their checksums and
// averages are compared).
TEST(GaugeFiles, EveryReaderRefusesLinksThatAreNotFinite) {
  const Geometry geometry({4, 4, 2, 4});
  const double nan = std::numeric_limits<double>::quiet_NaN(), infinity = std::numeric_limits<double>::infinity();
  GaugeField<double> U(geometry);
  auto refused = [&](const std::string& path) {
    U.set_unit();
    const std::string message = error_of<GaugeFileError>([&] { read_gauge(U, path); });
    EXPECT_EQ(average_plaquette(U), 1.0) << message;
    return message;
  };
  // Site 5 of 4 x 4 x 2 x 4 is (x, y, z, t) = (1, 1, 0, 0).
  const std::string milc = temp_path("not_finite.milc");
  for (bool big_endian : {false, true})
    for (double bad : {nan, infinity, -infinity}) {
      write_bytes(milc, milc_by_hand(geometry, big_endian, 0, [&](std::int64_t site, int mu, int k, double value) {
                    return site == 5 && mu == 2 && k == 3 ? bad : value;
                  }));
      const std::string message = refused(milc);
      EXPECT_NE(message.find("MILC file '" + milc + "' is corrupt: its link mu = 2 of site (x, y, z, t) = [1 1 0 0] holds " +
                             (std::isnan(bad) ? "nan" : bad > 0 ? "inf" : "-inf") + ", not a finite number"),
                std::string::npos)
          << message;
    }
  std::filesystem::remove(milc);

  GaugeField<double> V(geometry);
  ParallelRng rng(31);
  V.set_random(rng);
  // Real `k` of link mu of site `site` of a site-ordered file (3 rows of
  // big-endian doubles from data_offset) set to `bad`.
  auto poisoned = [&](std::string bytes, std::int64_t data_offset, std::int64_t site, int mu, int k, double bad) {
    std::uint64_t bits;
    std::memcpy(&bits, &bad, 8);
    bytes.replace(static_cast<std::size_t>(data_offset + ((site * 4 + mu) * 18 + k) * 8), 8, bytes_of(bits, 8, true));
    return bytes;
  };
  const std::string nersc = temp_path("not_finite.nersc"), ildg = temp_path("not_finite.ildg"),
                    openqcd = temp_path("not_finite.openqcd"), poisoned_path = temp_path("poisoned.gauge");
  write_gauge(V, nersc, GaugeFileFormat::nersc);
  write_gauge(V, ildg, GaugeFileFormat::ildg);
  write_gauge(V, openqcd, GaugeFileFormat::openqcd);
  for (double bad : {nan, infinity}) {
    write_bytes(poisoned_path, poisoned(read_bytes(nersc), read_nersc_header(nersc).data_offset, 5, 2, 3, bad));
    EXPECT_NE(refused(poisoned_path).find("its link mu = 2 of site (x, y, z, t) = [1 1 0 0] holds"), std::string::npos);
    // Two bad links: the first in the lattice is named.
    std::string twice = poisoned(read_bytes(ildg), read_ildg_header(ildg).data_offset, 9, 1, 0, bad);
    twice = poisoned(twice, read_ildg_header(ildg).data_offset, 6, 3, 17, bad);
    write_bytes(poisoned_path, twice);
    EXPECT_NE(refused(poisoned_path).find("its link mu = 3 of site (x, y, z, t) = [2 1 0 0] holds"), std::string::npos);
    // openQCD: the record of the first odd site, (0, 0, 1, 0), its first
    // link the forward one in openQCD's direction 0, Latte's t (little-endian
    // doubles from byte 24).
    std::string qcd = read_bytes(openqcd);
    std::uint64_t bits;
    std::memcpy(&bits, &bad, 8);
    qcd.replace(24 + 8 * 4, 8, bytes_of(bits, 8, false));
    write_bytes(poisoned_path, qcd);
    EXPECT_NE(refused(poisoned_path).find("its link mu = 3 of site (x, y, z, t) = [0 0 1 0] holds"), std::string::npos);
  }
  for (const std::string& path : {nersc, ildg, openqcd, poisoned_path}) std::filesystem::remove(path);
}

TEST(GaugeFiles, OneEntryPointReadsEveryFormatAndKeepsEveryBit) {
  const Geometry geometry({4, 4, 2, 4});
  GaugeField<double> U(geometry);
  ParallelRng rng(23);
  U.set_random(rng);
  const std::string nersc = temp_path("chain.nersc"), ildg = temp_path("chain.ildg"),
                    openqcd = temp_path("chain.openqcd"), again = temp_path("chain_again.nersc");
  write_gauge(U, nersc, GaugeFileFormat::nersc);
  GaugeField<double> a(geometry), b(geometry), c(geometry);
  EXPECT_EQ(read_gauge(a, nersc).format, GaugeFileFormat::nersc);
  write_gauge(a, ildg, GaugeFileFormat::ildg);
  EXPECT_EQ(read_gauge(b, ildg).format, GaugeFileFormat::ildg);
  write_gauge(b, openqcd, GaugeFileFormat::openqcd);
  EXPECT_EQ(read_gauge(c, openqcd).format, GaugeFileFormat::openqcd);
  write_gauge(c, again, GaugeFileFormat::nersc);
  EXPECT_TRUE(read_bytes(again) == read_bytes(nersc));
  expect_same_links(c, U);
  for (const auto& [path, format] : {std::pair{nersc, GaugeFileFormat::nersc}, std::pair{ildg, GaugeFileFormat::ildg},
                                     std::pair{openqcd, GaugeFileFormat::openqcd}}) {
    const GaugeFileInfo info = read_gauge_file_info(path);
    EXPECT_EQ(info.format, format);
    EXPECT_EQ(info.extents, geometry.dims());
  }
  write_gauge(U, ildg, GaugeFileFormat::ildg, 32);
  EXPECT_EQ(read_gauge(a, ildg).real_bytes, 4);
  EXPECT_EQ(parse_gauge_file_format("openqcd"), GaugeFileFormat::openqcd);
  EXPECT_THROW(parse_gauge_file_format("lime"), std::invalid_argument);
  EXPECT_THROW(write_gauge(U, ildg, GaugeFileFormat::milc), std::invalid_argument);
  EXPECT_THROW(write_gauge(U, ildg, GaugeFileFormat::openqcd, 32), std::invalid_argument);

  write_bytes(again, "P5\n4 4\n255\n" + std::string(100, '\0'));
  const std::string message = error_of<GaugeFileError>([&] { read_gauge(a, again); });
  EXPECT_NE(message.find("is not a gauge file Latte reads"), std::string::npos) << message;
  EXPECT_NE(error_of<GaugeFileError>([&] { read_gauge(a, temp_path("missing")); }).find("cannot open"),
            std::string::npos);
  for (const std::string& path : {nersc, ildg, openqcd, again}) std::filesystem::remove(path);
}

}  // namespace
}  // namespace latte::testing
