// ILDG, openQCD and MILC gauge files from a lattice spread over ranks: the
// same bytes as one rank writes, read back into the very bits on any number
// of ranks, and a damaged file refused on every rank with the same message
// and the field unchanged. (scratch, same_file, corrupt and error_everywhere
// are test_decomposition_files.cpp's, in the same suite.)

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>

#include "solvers/qcd/io/gauge_file.hpp"

namespace latte::testing {
namespace {

// Writes in `format` on one rank and on every decomposition: same bytes;
// reads back on the many ranks and on one; then flips a byte
// `corrupt_from_end` bytes before the end and expects `refusal` everywhere.
template <class R>
void expect_gauge_files_match(GaugeFileFormat format, int precision, const std::string& name,
                              std::int64_t corrupt_from_end, const std::string& refusal) {
  GaugeField<R> one(replicated(lattice4));
  ParallelRng rng(5);
  one.set_random(rng);
  const std::string one_path = scratch(name + "_one", true), many_path = scratch(name + "_many");
  write_gauge(one, one_path, format, precision);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    GaugeField<R> many(g);
    ParallelRng many_rng(5);
    many.set_random(many_rng);
    write_gauge(many, many_path, format, precision);
    EXPECT_TRUE(same_file(many_path, one_path)) << "written";

    GaugeField<R> back(g), whole(replicated(lattice4));
    EXPECT_EQ(read_gauge(back, many_path).format, format);
    read_gauge(whole, many_path);
    for (int mu = 0; mu < 4; ++mu) {
      EXPECT_TRUE(same_as_one_rank(back[mu], whole[mu])) << "mu = " << mu;
      if (precision == 8 * static_cast<int>(sizeof(R))) {
        EXPECT_TRUE(same_as_one_rank(back[mu], one[mu])) << "mu = " << mu;
      }
    }

    corrupt(many_path, corrupt_from_end);
    GaugeField<R> kept(g), before(g);
    ParallelRng other(9);
    kept.set_random(other);
    for (int mu = 0; mu < 4; ++mu) before[mu] = kept[mu];
    const auto [message, same] = error_everywhere<GaugeFileError>([&] { read_gauge(kept, many_path); });
    EXPECT_TRUE(same) << message;
    EXPECT_NE(message.find(refusal), std::string::npos) << message;
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(kept[mu], before[mu])) << "mu = " << mu;
  });
}

// The scidac-checksum record is the last, about 250 bytes: 2000 bytes from
// the end is in the links.
TEST(DecompositionFiles, IldgDoubleIsTheSameBytesAsOneRank) {
  expect_gauge_files_match<double>(GaugeFileFormat::ildg, 64, "double.ildg", 2000, "is corrupt: the SciDAC checksums");
}

TEST(DecompositionFiles, IldgSingleIsTheSameBytesAsOneRank) {
  expect_gauge_files_match<float>(GaugeFileFormat::ildg, 32, "single.ildg", 2000, "is corrupt: the SciDAC checksums");
}

TEST(DecompositionFiles, OpenQcdIsTheSameBytesAsOneRank) {
  // 1002 bytes from the end is byte 6 of a little-endian double, where 0x10
  // is the lowest bit of the exponent: the entry doubles or halves.
  expect_gauge_files_match<double>(GaugeFileFormat::openqcd, 64, "field.openqcd", 1002, "is corrupt: its links have plaquette");
}

TEST(DecompositionFiles, MilcFileIsReadOnAnyNumberOfRanks) {
  // Rank 0 writes a MILC file of a random field (little-endian, checksums
  // from the definition); every decomposition reads the same links.
  GaugeField<double> one(replicated(lattice4));
  ParallelRng rng(7);
  one.set_random(rng);
  const std::string path = scratch("field.milc");
  if (world().rank() == 0) {
    std::string links;
    std::uint32_t sum29 = 0, sum31 = 0;
    std::int64_t word = 0;
    for (std::int64_t site = 0; site < one.geometry().volume(); ++site) {
      const Coordinate x = coordinate_from_index(site, lattice4);
      for (int mu = 0; mu < 4; ++mu) {
        const ColourMatrix<double> u = peek(one[mu], x);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            for (double value : {u(i, j).re, u(i, j).im}) {
              const float f = static_cast<float>(value);
              std::uint32_t bits;
              std::memcpy(&bits, &f, 4);
              sum29 ^= std::rotl(bits, static_cast<int>(word % 29));
              sum31 ^= std::rotl(bits, static_cast<int>(word % 31));
              ++word;
              links.append(reinterpret_cast<const char*>(&bits), 4);  // host order: little-endian here
            }
      }
    }
    // As MILC writes it: magic, nx ny nz nt, time stamp[64], order; sum29, sum31.
    std::string header(96, '\0');
    const std::int32_t numbers[] = {20103, 8, 8, 8, 8, 0};
    std::memcpy(header.data(), numbers, 20);
    std::memcpy(header.data() + 84, numbers + 5, 4);
    std::memcpy(header.data() + 88, &sum29, 4);
    std::memcpy(header.data() + 92, &sum31, 4);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << header << links;
  }
  world().barrier();
  GaugeField<double> whole(replicated(lattice4));
  EXPECT_EQ(read_gauge(whole, path).format, GaugeFileFormat::milc);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    GaugeField<double> back(g);
    read_gauge(back, path);
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(back[mu], whole[mu])) << "mu = " << mu;
  });
  corrupt(path, 500);
  GaugeField<double> kept(decomposed(lattice4, default_process_grid(lattice4, world().size())));
  const auto [message, same] = error_everywhere<GaugeFileError>([&] { read_gauge(kept, path); });
  EXPECT_TRUE(same) << message;
  EXPECT_NE(message.find("is corrupt: the checksums of its links are sum29"), std::string::npos) << message;

  // Two links that are not finite, one at global site 3000 and one at site
  // 200, in other ranks' blocks on most decompositions: every rank refuses
  // the file naming site 200 (its first in the lattice), the field kept.
  if (world().rank() == 0) {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    const float infinity = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    file.seekp(96 + (3000 * 4 + 1) * 72 + 4 * 7);
    file.write(reinterpret_cast<const char*>(&nan), 4);
    file.seekp(96 + (200 * 4 + 2) * 72 + 4 * 5);
    file.write(reinterpret_cast<const char*>(&infinity), 4);
  }
  world().barrier();
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    GaugeField<double> held(g), before(g);
    ParallelRng other(9);
    held.set_random(other);
    for (int mu = 0; mu < 4; ++mu) before[mu] = held[mu];
    const auto [refusal, alike] = error_everywhere<GaugeFileError>([&] { read_gauge(held, path); });
    EXPECT_TRUE(alike) << refusal;
    // site 200 of 8^4: x = 0, y = 1, z = 3, t = 0
    EXPECT_NE(refusal.find("its link mu = 2 of site (x, y, z, t) = [0 1 3 0] holds inf, not a finite number"),
              std::string::npos)
        << refusal;
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(held[mu], before[mu])) << "mu = " << mu;
  });
}

TEST(DecompositionFiles, ForeignGaugeFileIsRefusedOnEveryRank) {
  const std::string path = scratch("foreign.gauge");
  if (world().rank() == 0) std::ofstream(path, std::ios::binary | std::ios::trunc) << "P5\n8 8\n255\n";
  world().barrier();
  GaugeField<double> U(decomposed(lattice4, default_process_grid(lattice4, world().size())));
  const auto [message, same] = error_everywhere<GaugeFileError>([&] { read_gauge(U, path); });
  EXPECT_TRUE(same) << message;
  EXPECT_NE(message.find("is not a gauge file Latte reads"), std::string::npos) << message;
}

}  // namespace
}  // namespace latte::testing
