// openQCD and MILC gauge files against files assembled here from their
// definitions, and the one entry point (read_gauge / write_gauge) that tells
// the formats apart by content: NERSC -> ILDG -> openQCD -> NERSC keeps
// every bit. (temp_path, read_bytes, write_bytes and labelled_link are
// test_gauge_io.cpp's, in the same suite.)

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
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
// byte order, with its checksums computed here.
std::string milc_by_hand(const Geometry& geometry, bool big_endian, int order = 0) {
  std::string links;
  std::uint32_t sum29 = 0, sum31 = 0;
  std::int64_t word = 0;
  for (std::int64_t site = 0; site < geometry.volume(); ++site)
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> u = labelled_link(site, mu);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (double value : {u(i, j).re, u(i, j).im}) {
            const float f = static_cast<float>(value);
            std::uint32_t bits;
            std::memcpy(&bits, &f, 4);
            const unsigned r29 = static_cast<unsigned>(word % 29), r31 = static_cast<unsigned>(word % 31);
            sum29 ^= r29 == 0 ? bits : (bits << r29 | bits >> (32 - r29));
            sum31 ^= r31 == 0 ? bits : (bits << r31 | bits >> (32 - r31));
            ++word;
            links += bytes_of(bits, 4, big_endian);
          }
    }
  std::string header = bytes_of(20103, 4, big_endian);
  std::string stamp = "Fri Nov 27 12:00:00 2026";
  stamp.resize(64, '\0');
  header += stamp;
  for (int extent : geometry.dims()) header += bytes_of(static_cast<std::uint32_t>(extent), 4, big_endian);
  header += bytes_of(static_cast<std::uint32_t>(order), 4, big_endian);
  return header + bytes_of(sum29, 4, big_endian) + bytes_of(sum31, 4, big_endian) + links;
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
    expect_same_links(U, expected);
    EXPECT_EQ(read_gauge_file_info(path).format, GaugeFileFormat::milc);
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
  extent[68] = '\x7f';
  EXPECT_NE(refused(extent).find("not a lattice extent"), std::string::npos);
  EXPECT_NE(refused(milc_by_hand(geometry, false, 1)).find("site order 1"), std::string::npos);
  std::string huge = good;
  for (int mu = 0; mu < 4; ++mu) huge.replace(68 + 4 * mu, 4, bytes_of(1000000, 4, true));
  EXPECT_NE(refused(huge).find("too large a lattice"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, good.size() - 4)).find("(truncated)"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, 50)).find("fewer than its 96-byte header"), std::string::npos);
  std::filesystem::remove(path);
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
