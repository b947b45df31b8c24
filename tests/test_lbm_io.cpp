// Checkpoint/restart resumes a run bit for bit, and a damaged or mismatched
// checkpoint is refused; the VTK writer writes every site of every array.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/io/vtk_output.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;
using Sim = Simulation<D2Q9, double, Trt, VectorWidth>;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("latte_lbm_" + std::to_string(::getpid()) + "_" + name)).string();
}

Sim make_cavity(const Geometry& g) {
  Parameters p;
  p.tau = 0.7;
  p.force = {1e-6, 0, 0};
  Sim sim(g, p);
  Sim::Boundary b(g);
  mark_solid(b, [](const Coordinate& x) { return x[0] >= 14 || x[1] >= 14; },
             [](const Coordinate& x) { return std::array<double, 2>{x[1] == 14 ? 0.05 : 0.0, 0.0}; });
  sim.set_boundary(b);
  return sim;
}

TEST(LbmCheckpoint, RestartResumesBitForBit) {
  const Geometry g({16, 16});
  Sim uninterrupted = make_cavity(g), first = make_cavity(g), resumed = make_cavity(g);
  const std::string path = temp_path("restart.chk");
  first.run(25);
  write_checkpoint(first, path);
  read_checkpoint(resumed, path);
  EXPECT_EQ(resumed.time(), 25);
  resumed.run(35);
  uninterrupted.run(60);
  EXPECT_GT(norm2(uninterrupted.populations() - first.populations()), 0.0);  // the runs did move on
  EXPECT_TRUE(fields_near(resumed.populations(), uninterrupted.populations(), 0.0));
  std::filesystem::remove(path);
}

TEST(LbmCheckpoint, DamagedOrMismatchedFilesAreRefused) {
  const Geometry g({16, 16});
  Sim sim = make_cavity(g);
  sim.run(5);
  const std::string path = temp_path("damaged.chk");
  write_checkpoint(sim, path);
  const auto size = std::filesystem::file_size(path);
  {
    // One flipped bit in the populations.
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size / 2));
    char c;
    f.read(&c, 1);
    c ^= 0x10;
    f.seekp(static_cast<std::streamoff>(size / 2));
    f.write(&c, 1);
  }
  Sim target = make_cavity(g);
  EXPECT_THROW(read_checkpoint(target, path), std::runtime_error);
  write_checkpoint(sim, path);
  std::filesystem::resize_file(path, size - 100);
  EXPECT_THROW(read_checkpoint(target, path), std::runtime_error);
  write_checkpoint(sim, path);
  Sim other_lattice = make_cavity(Geometry({16, 32}));
  EXPECT_THROW(read_checkpoint(other_lattice, path), std::runtime_error);
  Simulation<D2Q9, float, Trt, VectorWidth> other_precision(g, Parameters{});
  EXPECT_THROW(read_checkpoint(other_precision, path), std::runtime_error);
  EXPECT_NO_THROW(read_checkpoint(target, path));
  std::filesystem::remove(path);
}

TEST(LbmCheckpoint, NegativeTimeStepIsRefusedEvenWithAMatchingChecksum) {
  const Geometry g({16, 16});
  Sim sim = make_cavity(g);
  const std::string path = temp_path("negative_time.chk");
  write_checkpoint(sim, path);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // The time step sits just before the populations; the checksum covers
  // everything before its own 8 bytes and is recomputed to match.
  const std::size_t time_at = 8 + 4 + 8 + 4 + 4 + 2 * 4;
  const std::int64_t negative = -5;
  std::memcpy(&bytes[time_at], &negative, 8);
  Fnv1a hash;
  hash.add(bytes.data(), bytes.size() - 8);
  const std::uint64_t checksum = hash.value();
  std::memcpy(&bytes[bytes.size() - 8], &checksum, 8);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  Sim target = make_cavity(g);
  EXPECT_NE(error_of<std::runtime_error>([&] { read_checkpoint(target, path); }).find("time step -5"),
            std::string::npos);
  EXPECT_EQ(target.time(), 0);
  std::filesystem::remove(path);
}

TEST(LbmVtk, ImageDataHoldsEverySite) {
  const Geometry g({8, 4});
  Lattice<double, VectorWidth> rho(g);
  Lattice<RealVector<double, 2>, VectorWidth> u(g);
  fill_coordinate(rho, 0);
  u = zero;
  const std::string path = temp_path("field.vti");
  VtiWriter(g).scalar("density", rho).vector("velocity", u).write(path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  EXPECT_NE(s.find("WholeExtent=\"0 8 0 4 0 1\""), std::string::npos);
  EXPECT_NE(s.find("Name=\"density\""), std::string::npos);
  EXPECT_NE(s.find("Name=\"velocity\" NumberOfComponents=\"3\""), std::string::npos);
  // The density array lists x = 0..7 for each of the 4 rows, x fastest.
  const auto start = s.find('>', s.find("Name=\"density\"")) + 2;
  std::istringstream values(s.substr(start));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      double v = -1;
      values >> v;
      EXPECT_EQ(v, x);
    }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace latte::testing
