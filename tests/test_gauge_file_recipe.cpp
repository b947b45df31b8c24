// The recipe for adding a gauge file format (solvers/qcd/io/README.md),
// followed for a format that exists only here: its reader and writer are
// made of the shared codec's pieces and nothing else, so a piece that stops
// fitting a format -- a round trip that loses a bit, a damaged copy read,
// a refusal that no longer names the file and the numbers -- fails here.
// Then the checks' own promise: a NaN or an infinity never passes.
// (temp_path, read_bytes and write_bytes are test_gauge_io.cpp's, in the
// same suite.)
//
// The format, "TGF1":
//   bytes 0-3    the magic "TGF1"
//   bytes 4-19   int32 nx, ny, nz, nt, little-endian
//   bytes 20-27  uint32 suma, sumb, little-endian: the SciDAC sums
//                (scidac_checksum.hpp) of the CRC-32 of each site's record
//   bytes 28-    link_slices.hpp's site-ordered records, three rows of IEEE
//                64-bit little-endian reals
// A reader checks the magic, the extents, the size, the sums, and that
// every link is unitary to 1e-12.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "lattice/fields/peek_poke.hpp"
#include "solvers/qcd/io/gauge_file_checks.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/link_slices.hpp"
#include "solvers/qcd/io/scidac_checksum.hpp"
#include "solvers/qcd/io/stored_reals.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

struct TestFormatHeader : StoredLattice {
  ScidacChecksum sums;
};

constexpr std::int64_t test_format_header_bytes = 28;
const LinkRecords test_format_records{{8, false}, 3};

std::string test_format_sums(const ScidacChecksum& sums) {
  return "suma " + hex32(sums.suma) + ", sumb " + hex32(sums.sumb);
}

void add_test_format_sites(ScidacChecksum& sums, const BlockSlices& block, int t, const unsigned char* raw) {
  const std::int64_t site_bytes = test_format_records.site_bytes();
  for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
    sums.add(crc32(raw + s * site_bytes, static_cast<std::size_t>(site_bytes)), block.global_index(t, s));
}

TestFormatHeader parse_test_format_header(const unsigned char* bytes, std::int64_t file_bytes, const std::string& path) {
  const std::string file = GaugeFileName{"TGF1", path}.file();
  check_room_for_header(file, file_bytes, test_format_header_bytes, "header");
  if (std::memcmp(bytes, "TGF1", 4) != 0)
    refuse_field(file, "its magic", "'" + std::string(reinterpret_cast<const char*>(bytes), 4) + "'", "not TGF1");
  TestFormatHeader header;
  SiteCount sites(max_sites_of(test_format_records.site_bytes()));
  for (int mu = 0; mu < 4; ++mu) {
    const std::int32_t extent = load_word<std::int32_t>(bytes + 4 + 4 * mu, false);
    if (extent < 1) refuse_field(file, "extent " + std::to_string(mu), std::to_string(extent), "not a lattice extent");
    if (!sites.times(extent)) refuse(file + ": its extents are too large a lattice");
    header.extents.push_back(extent);
  }
  header.sums = {load_word<std::uint32_t>(bytes + 20, false), load_word<std::uint32_t>(bytes + 24, false)};
  check_file_size(file, test_format_header_bytes + header.volume() * test_format_records.site_bytes(),
                  "for extents " + to_string(header.extents), file_bytes);
  return header;
}

TestFormatHeader read_test_format(GaugeField<double>& U, const std::string& path) {
  const GaugeFileName name{"TGF1", path};
  const std::string file = name.file();
  const Communicator& communicator = U.geometry().decomposition().communicator();
  TestFormatHeader header;
  read_on_rank_zero(communicator, [&] {
    std::ifstream in = open_gauge_file(name);
    const std::int64_t bytes = file_size(in);
    header = parse_test_format_header(first_bytes(in, bytes, test_format_header_bytes).data(), bytes, path);
  });
  share_from_rank_zero(communicator, header.extents, header.sums);
  check_lattice(file, header.extents, U.geometry());
  const BlockSlices block(U[0].layout());
  with_file_access(file, [&] {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    LinkSliceReader links(shared, block, test_format_header_bytes, test_format_records, communicator, file);
    ScidacChecksum sums;
    links.pass([&](int t, const unsigned char* raw, const std::vector<double>& values) {
      add_test_format_sites(sums, block, t, raw);
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
        check_unitary(file, &values[static_cast<std::size_t>(s) * 72], block.global_index(t, s), 1e-12);
    });
    check_checksum(file, "the sums of its links are", combined_over_ranks(communicator, sums), header.sums,
                   "its header", test_format_sums);
    links.pass([&](int t, const unsigned char*, const std::vector<double>& values) {
      scatter_slice(U, block, t, 3, values);
    });
  });
  return header;
}

void write_test_format(const GaugeField<double>& U, const std::string& path) {
  const Communicator& communicator = U.geometry().decomposition().communicator();
  const BlockSlices block(U[0].layout());
  write_through_temporary(communicator, {"TGF1", path}, [&](const std::string& tmp) {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    ScidacChecksum sums;
    write_link_slices(file, U, block, test_format_header_bytes, test_format_records,
                      [&](int t, const unsigned char* raw) { add_test_format_sites(sums, block, t, raw); });
    sums = combined_over_ranks(communicator, sums);
    unsigned char header[test_format_header_bytes];
    std::memcpy(header, "TGF1", 4);
    for (int mu = 0; mu < 4; ++mu) store_word<std::int32_t>(header + 4 + 4 * mu, U.geometry().dims()[mu], false);
    store_word(header + 20, sums.suma, false);
    store_word(header + 24, sums.sumb, false);
    file.root_write_at(0, header, sizeof header);
    file.close();
  });
}

std::uint64_t little_endian_bytes(const std::string& bytes, std::size_t at, int count) {
  std::uint64_t value = 0;
  for (int i = count - 1; i >= 0; --i) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

TEST(GaugeFileRecipe, AFormatOfSharedPiecesLaysOutItsBytesAndRoundTripsEveryBit) {
  const Geometry geometry({4, 2, 2, 6});
  GaugeField<double> U(geometry), back(geometry);
  ParallelRng rng(31);
  U.set_random(rng);
  const std::string path = temp_path("recipe.tgf");
  write_test_format(U, path);
  const std::string bytes = read_bytes(path);
  ASSERT_EQ(static_cast<std::int64_t>(bytes.size()), 28 + geometry.volume() * 4 * 18 * 8);
  EXPECT_EQ(bytes.substr(0, 4), "TGF1");
  for (int mu = 0; mu < 4; ++mu) EXPECT_EQ(little_endian_bytes(bytes, 4 + 4 * mu, 4), geometry.dims()[mu]);
  // The record of site x = (1, 0, 0, 0), link mu = 2, entry (0, 1): site 1,
  // 2 links of 18 reals before it, then re and im of entry (0, 0).
  const ColourMatrix<double> u = peek(U[2], Coordinate{1, 0, 0, 0});
  double stored;
  const std::uint64_t bits = little_endian_bytes(bytes, 28 + 8 * (72 + 2 * 18 + 2), 8);
  std::memcpy(&stored, &bits, 8);
  EXPECT_EQ(stored, u(0, 1).re);

  back.set_unit();
  const TestFormatHeader header = read_test_format(back, path);
  EXPECT_EQ(header.extents, geometry.dims());
  for (int mu = 0; mu < 4; ++mu) EXPECT_EQ(norm2(back[mu] - U[mu]), 0.0) << "mu " << mu;
  std::filesystem::remove(path);
}

TEST(GaugeFileRecipe, AFormatOfSharedPiecesRefusesADamagedCopyClearly) {
  const Geometry geometry({4, 4, 2, 4});
  GaugeField<double> U(geometry), back(geometry);
  ParallelRng rng(32);
  U.set_random(rng);
  const std::string path = temp_path("recipe_good.tgf"), damaged = temp_path("recipe_damaged.tgf");
  write_test_format(U, path);
  const std::string good = read_bytes(path);
  auto refused = [&](const std::string& bytes) {
    write_bytes(damaged, bytes);
    back.set_unit();
    const std::string message = error_of<GaugeFileError>([&] { read_test_format(back, damaged); });
    EXPECT_NE(message.find("TGF1 file '" + damaged + "'"), std::string::npos) << message;
    EXPECT_EQ(average_plaquette(back), 1.0) << message;  // the field as it was
    return message;
  };

  std::string flipped = good;
  flipped[28 + 8 * 371] ^= 0x04;  // the lowest byte of a real: the link stays unitary to 1e-12, the sums change
  const std::string sums = refused(flipped);
  EXPECT_NE(sums.find("is corrupt: the sums of its links are suma "), std::string::npos) << sums;
  EXPECT_NE(sums.find(" but its header says suma "), std::string::npos) << sums;
  std::string magic = good;
  magic[0] = 'X';
  EXPECT_NE(refused(magic).find(": its magic is 'XGF1', not TGF1"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, good.size() - 8)).find("(truncated)"), std::string::npos);
  EXPECT_NE(refused(good + "x").find("(trailing data)"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, 10)).find("has 10 bytes, fewer than its 28-byte header"), std::string::npos);
  std::string extent = good;
  extent[8] = '\0';  // ny = 0
  EXPECT_NE(refused(extent).find(": extent 1 is 0, not a lattice extent"), std::string::npos);

  // Written from links that are not SU(3): the sums hold, unitarity fails.
  GaugeField<double> bad(geometry);
  for (int mu = 0; mu < 4; ++mu) bad[mu] = U[mu];
  ColourMatrix<double> doubled = peek(U[1], Coordinate{3, 0, 1, 2});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) doubled(i, j) = doubled(i, j) * 2.0;
  poke(bad[1], Coordinate{3, 0, 1, 2}, doubled);
  write_test_format(bad, damaged);
  const std::string not_unitary = refused(read_bytes(damaged));
  EXPECT_NE(not_unitary.find("its link mu = 1 of site " + std::to_string(geometry.global_index({3, 0, 1, 2})) +
                             " is not unitary: max |U U^+ - 1| is 3, more than 1e-12"),
            std::string::npos)
      << not_unitary;
  ColourMatrix<double> with_nan = peek(U[0], Coordinate{0, 0, 0, 0});
  with_nan(1, 2).im = std::numeric_limits<double>::quiet_NaN();
  poke(bad[1], Coordinate{3, 0, 1, 2}, peek(U[1], Coordinate{3, 0, 1, 2}));
  poke(bad[0], Coordinate{0, 0, 0, 0}, with_nan);
  write_test_format(bad, damaged);
  const std::string nan = refused(read_bytes(damaged));
  EXPECT_NE(nan.find("its link mu = 0 of site 0 is not unitary: max |U U^+ - 1| is nan (not a finite number)"),
            std::string::npos)
      << nan;

  GaugeField<double> other(Geometry({4, 4, 2, 8}));
  const std::string mismatch = error_of<GeometryMismatch>([&] { read_test_format(other, path); });
  EXPECT_NE(mismatch.find("[4 4 2 4] but the gauge field has extents [4 4 2 8]"), std::string::npos) << mismatch;
  EXPECT_NE(error_of<GaugeFileError>([&] { read_test_format(back, temp_path("missing.tgf")); })
                .find("cannot open TGF1 gauge file"),
            std::string::npos);
  std::filesystem::remove(path);
  std::filesystem::remove(damaged);
}

TEST(GaugeFileRecipe, AveragesThatAreNotFiniteNeverAgree) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  auto message = [](double computed, double stated, auto agrees) {
    try {
      check_average("X file 'f'", "link trace", computed, stated, "its header says it", agrees);
    } catch (const GaugeFileError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(0.5, 0.500001, AbsoluteTolerance{1e-5}), "");
  EXPECT_EQ(message(2.0, 2.000001, RelativeTolerance{1e-6}), "");
  EXPECT_NE(message(2.0, 2.00001, RelativeTolerance{1e-6}), "");
  EXPECT_EQ(message(0.5, 0.6, AbsoluteTolerance{1e-5}),
            "Latte: X file 'f' is corrupt: its links have link trace 0.500000 but its header says it");
  EXPECT_EQ(message(nan, 0.5, AbsoluteTolerance{1e-5}),
            "Latte: X file 'f' is corrupt: its links have link trace nan (not a finite number) but its header says it");
  EXPECT_NE(message(0.5, nan, AbsoluteTolerance{1e-5}).find("its header says it (not a finite number)"),
            std::string::npos);
  EXPECT_NE(message(inf, inf, AbsoluteTolerance{1e-5}), "");
  EXPECT_NE(message(-nan, -nan, RelativeTolerance{1e-6}), "");
  // Even a rule that would accept anything cannot let a NaN through.
  EXPECT_NE(message(nan, nan, [](double, double) { return true; }), "");
  const double u[18] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0};
  EXPECT_EQ(unitarity_deviation(u), 0.0);
  double v[18];
  std::memcpy(v, u, sizeof v);
  v[4] = inf;
  EXPECT_FALSE(std::isfinite(unitarity_deviation(v)));
  v[4] = nan;
  EXPECT_TRUE(std::isnan(unitarity_deviation(v)));
}

}  // namespace
}  // namespace latte::testing
