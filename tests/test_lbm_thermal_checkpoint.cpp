// Checkpoints of a coupled run (solvers/lbm/io/thermal_checkpoint.hpp beside
// solvers/lbm/io/checkpoint.hpp): a buoyant flow and its temperature saved
// after an odd number of steps, restored into fresh simulations and run on,
// end bit for bit where an uninterrupted run ends, with two lattices and in
// place; the temperature's tau_T comes from the file. A corrupt, truncated
// or mismatching file is refused with a message that names it and says
// what is wrong, and leaves the simulation as it was.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <unistd.h>

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/io/thermal_checkpoint.hpp"
#include "solvers/lbm/thermal/boussinesq.hpp"
#include "solvers/lbm/thermal/thermal.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {
namespace thermal_checkpoint {

using namespace latte::lbm;
using Flow = Simulation<D2Q9, double, Bgk, VectorWidth>;
using Heat = ThermalSimulation<D2Q5, double, VectorWidth>;

constexpr int nx = 16, ny = 12;
constexpr double heat_tau = 0.65;

std::string temporary(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("latte_" + name + "_" + std::to_string(::getpid()) + ".chk"))
      .string();
}

Boussinesq buoyancy() {
  Boussinesq b;
  b.expansion = 1.0;
  b.reference_temperature = 0.5;
  b.gravity = {0.0, -2e-4, 0.0};
  return b;
}

// Convection between a hot plate below and a cold one above, from a
// perturbed conduction profile; fresh = false for the simulations that a
// checkpoint will fill (their state and tau_T are then the file's).
struct Coupled {
  Flow flow;
  Heat heat;
  template <class... Scheme>
  Coupled(bool fresh, double tau, Scheme... scheme)
      : flow(Geometry({nx, ny}), Parameters{}, scheme...), heat(flow.geometry(), tau, scheme...) {
    const Geometry& g = flow.geometry();
    Flow::Boundary solid(g);
    mark_solid(solid, [](const Coordinate& x) { return x[1] == 0 || x[1] == ny - 1; });
    flow.set_boundary(solid);
    Heat::Boundary plates(g);
    mark_fixed_temperature(plates, [](const Coordinate& x) { return x[1] == 0; }, 1.0);
    mark_fixed_temperature(plates, [](const Coordinate& x) { return x[1] == ny - 1; }, 0.0);
    heat.set_boundary(plates);
    if (fresh) {
      Heat::ScalarField t0(g);
      fill(t0, [](const Coordinate& x) {
        return 1.0 - (x[1] - 0.5) / (ny - 2) + 0.05 * std::sin(2 * std::numbers::pi * x[0] / nx);
      });
      heat.initialise(t0, RealVector<double, 2>{});
    }
    set_buoyancy(flow, heat, buoyancy());
  }
  void run(int steps) {
    for (int s = 0; s < steps; ++s) coupled_step(flow, heat, buoyancy());
  }
};

template <class... Scheme>
void resumes_bit_for_bit(Scheme... scheme) {
  Coupled uninterrupted(true, heat_tau, scheme...), first(true, heat_tau, scheme...);
  Coupled resumed(false, 0.9, scheme...);  // tau_T comes from the file
  const std::string flow_path = temporary("coupled_flow"), heat_path = temporary("coupled_heat");
  first.run(25);
  write_checkpoint(first.flow, flow_path);
  write_checkpoint(first.heat, heat_path);
  read_checkpoint(resumed.flow, flow_path);
  read_checkpoint(resumed.heat, heat_path);
  std::filesystem::remove(flow_path);
  std::filesystem::remove(heat_path);
  EXPECT_EQ(resumed.heat.time(), 25);
  EXPECT_EQ(resumed.heat.tau(), heat_tau);
  resumed.run(30);
  uninterrupted.run(55);
  EXPECT_GT(uninterrupted.flow.max_speed(), 1e-5);  // the fluid moves: the coupling matters
  EXPECT_TRUE(fields_near(resumed.heat.populations(), uninterrupted.heat.populations(), 0.0));
  EXPECT_TRUE(fields_near(resumed.flow.populations(), uninterrupted.flow.populations(), 0.0));
  EXPECT_TRUE(fields_near(resumed.flow.force_field(), uninterrupted.flow.force_field(), 0.0));
}

TEST(LbmThermalCheckpoint, CoupledRunResumesBitForBitWithTwoLattices) { resumes_bit_for_bit(); }
TEST(LbmThermalCheckpoint, CoupledRunResumesBitForBitInPlace) { resumes_bit_for_bit(in_place_streaming); }

// Each refused file: the message names the file and the fault, and the
// temperature is left as it was.
TEST(LbmThermalCheckpoint, RefusesCorruptAndMismatchingFiles) {
  const Geometry g({nx, ny});
  Heat written(g, heat_tau);
  written.initialise(1.25);
  written.run(RealVector<double, 2>{{0.01, 0.0}}, 3);
  const std::string path = temporary("thermal_refused");
  write_checkpoint(written, path);
  const auto bytes = std::filesystem::file_size(path);

  Heat reader(g, 0.8);
  reader.initialise(2.0);
  const auto refused = [&](const std::string& expected) {
    const std::string message = error_of<std::runtime_error>([&] { read_checkpoint(reader, path); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(reader.time(), 0);
    EXPECT_EQ(reader.tau(), 0.8);
    EXPECT_DOUBLE_EQ(reader.total(), 2.0 * nx * ny);
  };
  // Another lattice.
  {
    Heat other(Geometry({nx, ny + 2}), heat_tau);
    const std::string message = error_of<std::runtime_error>([&] { read_checkpoint(other, path); });
    EXPECT_NE(message.find("different simulation"), std::string::npos) << message;
  }
  // A flipped bit in a population.
  const auto patch = [&](std::uintmax_t offset, char value) {
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(static_cast<std::streamoff>(offset));
    file.write(&value, 1);
  };
  char original = 0;
  {
    std::ifstream file(path, std::ios::binary);
    file.seekg(static_cast<std::streamoff>(bytes / 2));
    file.read(&original, 1);
  }
  patch(bytes / 2, static_cast<char>(original ^ 0x10));
  refused("fails its checksum");
  patch(bytes / 2, original);
  // A tau_T below 1/2: the sign byte of the f64 (16 bytes before the records).
  const std::uintmax_t header_bytes = bytes - 8 - static_cast<std::uintmax_t>(nx) * ny * D2Q5::q * sizeof(double);
  patch(header_bytes - 9, static_cast<char>(0xbf));  // the top byte of tau: negative
  refused("which is not a relaxation time above 1/2");
  // The flow's checkpoint is not a temperature's.
  {
    Flow flow(g, Parameters{});
    write_checkpoint(flow, path);
  }
  refused("is not a Latte thermal lattice-Boltzmann checkpoint");
  // Truncated.
  write_checkpoint(written, path);
  std::filesystem::resize_file(path, bytes - 5);
  refused("is truncated");
  std::filesystem::remove(path);
  // And the intact file is read.
  write_checkpoint(written, path);
  read_checkpoint(reader, path);
  std::filesystem::remove(path);
  EXPECT_EQ(reader.time(), 3);
  EXPECT_EQ(reader.tau(), heat_tau);
  EXPECT_TRUE(fields_near(reader.populations(), written.populations(), 0.0));
}

}  // namespace thermal_checkpoint
}  // namespace
}  // namespace latte::testing
