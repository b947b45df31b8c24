// NERSC gauge files: the byte layout the format prescribes (checked against a
// file assembled here byte by byte, not only against Latte's own writer),
// exact round trips in every supported format, and clear errors for damaged,
// truncated, foreign or mismatched files.

#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("latte_gauge_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A diagonal SU(3) link whose phases encode (site index, mu): the file built
// below must land on exactly these sites and directions.
ColourMatrix<double> labelled_link(std::int64_t site, int mu) {
  const double a = 0.001 * static_cast<double>(site) + 0.1 * mu, b = 0.37 * mu - 0.0007 * static_cast<double>(site);
  ColourMatrix<double> u;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) u(i, j) = ComplexD(0.0, 0.0);
  u(0, 0) = ComplexD(std::cos(a), std::sin(a));
  u(1, 1) = ComplexD(std::cos(b), std::sin(b));
  u(2, 2) = ComplexD(std::cos(a + b), -std::sin(a + b));  // det = 1
  return u;
}

TEST(NerscGaugeFile, ReadsTheFormatsByteLayout) {
  // IEEE64BIG, 3x3: sites x fastest, then mu, then rows, (re, im); the
  // checksum sums the little-endian 32-bit words of every real.
  const Coordinate extents{4, 2, 2, 6};
  const Geometry geometry(extents);
  std::string data;
  std::uint32_t checksum = 0;
  double trace = 0;
  for (std::int64_t site = 0; site < geometry.volume(); ++site)
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<double> u = labelled_link(site, mu);
      for (int i = 0; i < 3; ++i) {
        trace += u(i, i).re / (3.0 * 4.0 * static_cast<double>(geometry.volume()));
        for (int j = 0; j < 3; ++j)
          for (double value : {u(i, j).re, u(i, j).im}) {
            std::uint64_t bits;
            std::memcpy(&bits, &value, 8);
            checksum += static_cast<std::uint32_t>(bits) + static_cast<std::uint32_t>(bits >> 32);
            for (int byte = 7; byte >= 0; --byte) data.push_back(static_cast<char>((bits >> (8 * byte)) & 0xff));
          }
      }
    }
  std::ostringstream header;
  header.precision(12);
  header << "BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = 4D_SU3_GAUGE_3x3\n";
  for (int mu = 0; mu < 4; ++mu) header << "DIMENSION_" << mu + 1 << " = " << extents[mu] << "\n";
  header << "CHECKSUM = " << std::hex << checksum << std::dec << "\nLINK_TRACE = " << trace
         << "\nFLOATING_POINT = IEEE64BIG\nEND_HEADER\n";
  const std::string path = temp_path("layout.nersc");
  write_bytes(path, header.str() + data);

  GaugeField<double> U(geometry);
  read_nersc(U, path);
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
  std::filesystem::remove(path);
}

struct Format {
  int real_bytes;
  bool big_endian, two_rows;
  double tolerance;
};

TEST(NerscGaugeFile, RoundTripsInEveryFormat) {
  const Geometry geometry({4, 4, 2, 4});
  GaugeField<double> U(geometry);
  ParallelRng rng(5);
  U.set_random(rng);
  const std::string path = temp_path("round_trip.nersc");
  for (const Format format : {Format{8, true, false, 0.0}, Format{8, false, false, 0.0}, Format{8, true, true, 1e-14},
                              Format{4, true, false, 1e-7}, Format{4, false, true, 1e-6}}) {
    NerscWriteOptions options;
    options.real_bytes = format.real_bytes;
    options.big_endian = format.big_endian;
    options.two_rows = format.two_rows;
    write_nersc(U, path, options);
    GaugeField<double> back(geometry);
    const NerscHeader header = read_nersc(back, path);  // checks checksum, link trace and plaquette
    EXPECT_EQ(header.stored_rows, format.two_rows ? 2 : 3);
    EXPECT_EQ(header.real_bytes, format.real_bytes);
    double worst = 0;
    for (int mu = 0; mu < 4; ++mu) worst = std::max(worst, std::sqrt(norm2(back[mu] - U[mu]) / norm2(U[mu])));
    EXPECT_LE(worst, format.tolerance) << format.real_bytes << "-byte reals, " << (format.two_rows ? 2 : 3) << " rows";
    EXPECT_NEAR(average_plaquette(back), average_plaquette(U), 1e-6);
  }
  // Single-precision links read the same file.
  write_nersc(U, path);
  GaugeField<float> single(geometry);
  read_nersc(single, path);
  EXPECT_NEAR(average_plaquette(single), average_plaquette(U), 1e-6);
  std::filesystem::remove(path);
}

TEST(NerscGaugeFile, DamagedOrForeignFilesAreClearErrors) {
  const Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry), back(geometry);
  ParallelRng rng(6);
  U.set_random(rng);
  const std::string path = temp_path("good.nersc"), damaged = temp_path("damaged.nersc");
  write_nersc(U, path);
  const std::string good = read_bytes(path);
  const std::size_t data_start = good.find("END_HEADER\n") + 11;

  std::string flipped = good;
  flipped[data_start + 1000] ^= 0x10;
  write_bytes(damaged, flipped);
  back.set_unit();
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(back, damaged); }).find("checksum"), std::string::npos);
  EXPECT_EQ(average_plaquette(back), 1.0);  // a file failing its checksum leaves the field as it was

  write_bytes(damaged, good.substr(0, good.size() - 8));
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(back, damaged); }).find("truncated"), std::string::npos);

  write_bytes(damaged, good + "x");
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(back, damaged); }).find("trailing"), std::string::npos);

  // A header that lies about the plaquette while the checksum still holds.
  std::string wrong_plaquette = good;
  const std::size_t at = wrong_plaquette.find("PLAQUETTE = ") + 12;
  wrong_plaquette.replace(at, wrong_plaquette.find('\n', at) - at, "0.5");
  write_bytes(damaged, wrong_plaquette);
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(back, damaged); }).find("PLAQUETTE"), std::string::npos);

  write_bytes(damaged, "P5\n4 4\n255\n");
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(back, damaged); }).find("not a NERSC gauge file"),
            std::string::npos);
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(back, temp_path("missing.nersc")); }).find("cannot open"),
            std::string::npos);

  GaugeField<double> other(Geometry({4, 4, 4, 8}));
  const std::string mismatch = error_of<GeometryMismatch>([&] { read_nersc(other, path); });
  EXPECT_NE(mismatch.find("[4 4 4 4]"), std::string::npos) << mismatch;
  EXPECT_NE(mismatch.find("[4 4 4 8]"), std::string::npos) << mismatch;

  EXPECT_EQ(read_nersc_header(path).extents, (Coordinate{4, 4, 4, 4}));
  std::filesystem::remove(path);
  std::filesystem::remove(damaged);
}

// A header as a writer would make it, with the given extents and no links.
std::string header_with_extents(const std::string& d1, const std::string& d2, const std::string& d3,
                                const std::string& d4) {
  return "BEGIN_HEADER\nDATATYPE = 4D_SU3_GAUGE_3x3\nDIMENSION_1 = " + d1 + "\nDIMENSION_2 = " + d2 +
         "\nDIMENSION_3 = " + d3 + "\nDIMENSION_4 = " + d4 +
         "\nFLOATING_POINT = IEEE64BIG\nCHECKSUM = 0\nEND_HEADER\n";
}

TEST(NerscGaugeFile, ImplausibleSizesAreRefusedBeforeUse) {
  const std::string path = temp_path("sizes.nersc");
  // Each extent is allowed alone, but 10^24 sites overflow a 64-bit byte count.
  write_bytes(path, header_with_extents("1000000", "1000000", "1000000", "1000000"));
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc_header(path); }).find("too large a lattice"), std::string::npos);
  GaugeField<double> U(Geometry({4, 4, 4, 4}));
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc(U, path); }).find("too large a lattice"), std::string::npos);
  for (const char* extent : {"0", "-4", "2.5", "1e7", "nan", "inf", "4x"}) {
    write_bytes(path, header_with_extents("4", extent, "4", "4"));
    EXPECT_THROW(read_nersc_header(path), GaugeFileError) << extent;
  }
  // The largest lattice whose bytes fit is accepted as a header (its links
  // are then missing: a truncated file, not an overflow).
  write_bytes(path, header_with_extents("1000000", "1000000", "16", "1"));
  EXPECT_EQ(read_nersc_header(path).data_bytes(), std::int64_t{1000000} * 1000000 * 16 * 4 * 18 * 8);
  // A header line as long as the file is refused without reading it whole.
  write_bytes(path, "BEGIN_HEADER\nDATATYPE = " + std::string(100000, 'x') + "\nEND_HEADER\n");
  EXPECT_NE(error_of<GaugeFileError>([&] { read_nersc_header(path); }).find("longer than"), std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace latte::testing
