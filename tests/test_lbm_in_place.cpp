// In-place streaming (the AA pattern, solvers/lbm/streaming/in_place_streaming.hpp)
// gives the two-lattice scheme's populations to round-off: D2Q9, D3Q19 and
// D3Q27; periodic, with walls, a moving wall and a body force; BGK, TRT and
// MRT; the vector and the per-lane lowering; after odd and even step counts
// (the two in-place states), carrying on after populations() has put the
// field in natural order; and with a velocity inlet and pressure outlet
// applied between steps. From a random start, so every population matters.

#include <filesystem>
#include <unistd.h>

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/walls/open_boundaries.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

template <class Sim>
void randomise(Sim& sim, const Geometry& g) {
  typename Sim::ScalarField rho(g);
  typename Sim::VectorField u(g);
  typename Sim::PopulationField noise(g);
  ParallelRng rng(42);
  rng.uniform(rho, 0.95, 1.05);
  rng.uniform(u, -0.03, 0.03);
  rng.uniform(noise, -0.002, 0.002);
  sim.populations() = equilibrium_of<typename Sim::velocity_set>(rho, u) + noise;
}

// A box whose top face moves, with an obstacle inside.
template <class Sim>
void add_walls(Sim& sim, const Geometry& g) {
  constexpr int D = Sim::D;
  typename Sim::Boundary b(g);
  const int top = g.dims()[D - 1] - 1;
  mark_solid(b, [&](const Coordinate& x) {
    bool obstacle = true;
    for (int d = 0; d < D; ++d) obstacle = obstacle && x[d] >= 3 && x[d] < 5;
    return x[D - 1] == 0 || x[D - 1] == top || obstacle;
  }, [&](const Coordinate& x) {
    std::array<double, D> u{};
    if (x[D - 1] == top) u[0] = 0.05;
    return u;
  });
  sim.set_boundary(b);
}

// The two-lattice populations as in place shows them: solid cells at rest
// with unit density (in place, a solid cell's record holds the populations
// that bounce back from it, not populations of its own).
template <class Sim>
typename Sim::PopulationField as_in_place(const Sim& sim) {
  typename Sim::PopulationField f(sim.geometry());
  if (sim.boundary()) f = at_rest_on_solid<typename Sim::velocity_set>(sim.populations(), *sim.boundary());
  else f = sim.populations();
  return f;
}

struct Case {
  bool walls = false;
  bool forced = false;
};

template <class VS, class Model, class Real, class Width = VectorWidth, class... Scheme>
Simulation<VS, Real, Model, Width> make_case(const Geometry& g, Case c, Scheme... scheme) {
  Parameters p;
  p.tau = 0.8;
  if (c.forced) p.force = {2e-5, -1e-5, 1e-5};
  Simulation<VS, Real, Model, Width> sim(g, p, scheme...);
  if (c.walls) add_walls(sim, g);
  randomise(sim, g);
  return sim;
}

template <class VS, class Model, class Real, class Backend = backend::Default, class Width = VectorWidth>
void expect_same_as_two_lattices(const Coordinate& dims, Case c, double tolerance) {
  const Geometry g(dims);
  auto two = make_case<VS, Model, Real, Width>(g, c);
  auto one = make_case<VS, Model, Real, Width>(g, c, in_place_streaming);
  ASSERT_TRUE(one.in_place());
  EXPECT_EQ(one.population_bytes_per_cell(), 0.5 * two.population_bytes_per_cell());
  const auto start = two.populations();
  const std::string what = std::string(VS::name) + ' ' + Model::name + (c.walls ? " walls" : " periodic") +
                           (c.forced ? " forced " : " ") + Backend::name + " nsimd " +
                           std::to_string(decltype(one)::PopulationField::nsimd);
  // 7 steps end on a push step, 8 more on a local step; populations() in
  // between puts the in-place field in natural order and the run carries on.
  for (int steps : {7, 8}) {
    two.template run<Backend>(steps);
    one.template run<Backend>(steps);
    EXPECT_TRUE(fields_near(one.populations(), as_in_place(two), tolerance)) << what << " after " << two.time();
  }
  EXPECT_GT(norm2(two.populations() - start), 1e-8) << what;  // the state moved well beyond the tolerance
  const double mass = sum(density<VS>(as_in_place(two)));
  EXPECT_NEAR(one.mass(), mass, 1e-12 * mass) << what;
}

TEST(LbmInPlace, D2Q9SameAsTwoLattices) {
  for (const Case c : {Case{false, false}, Case{true, true}}) {
    expect_same_as_two_lattices<D2Q9, Bgk, double>({16, 16}, c, 1e-14);
    expect_same_as_two_lattices<D2Q9, Trt, double>({16, 16}, c, 1e-14);
    expect_same_as_two_lattices<D2Q9, Mrt, double>({16, 16}, c, 1e-14);
    expect_same_as_two_lattices<D2Q9, Trt, float>({16, 16}, c, 1e-6);
    expect_same_as_two_lattices<D2Q9, Trt, double, backend::Simt>({16, 16}, c, 1e-14);
  }
}

TEST(LbmInPlace, D3Q19SameAsTwoLattices) {
  for (const Case c : {Case{false, false}, Case{true, true}}) {
    expect_same_as_two_lattices<D3Q19, Bgk, double>({8, 8, 8}, c, 1e-14);
    expect_same_as_two_lattices<D3Q19, Trt, float>({8, 8, 8}, c, 1e-6);
    expect_same_as_two_lattices<D3Q19, Bgk, double, backend::Simt>({8, 8, 8}, c, 1e-14);
    expect_same_as_two_lattices<D3Q19, Bgk, double, backend::Default, ScalarWidth>({8, 8, 8}, c, 1e-14);
  }
}

TEST(LbmInPlace, D3Q27SameAsTwoLattices) {
  for (const Case c : {Case{false, false}, Case{true, true}}) {
    expect_same_as_two_lattices<D3Q27, Bgk, double>({8, 8, 8}, c, 1e-14);
    expect_same_as_two_lattices<D3Q27, Bgk, double, backend::Simt>({8, 8, 8}, c, 1e-14);
  }
}

// A channel between walls with a velocity inlet and a pressure outlet
// (open_boundaries.hpp) applied to populations() after every step.
TEST(LbmInPlace, OpenBoundariesSameAsTwoLattices) {
  using Sim = Simulation<D2Q9, double, Trt>;
  const Geometry g({24, 12});
  Sim::ScalarField x(g), inlet(g), outlet(g);
  Sim::VectorField u_in(g), rho_out(g);
  fill_coordinate(x, 0);
  inlet = where(x < 0.5, 1.0, 0.0);
  outlet = where(x > 22.5, 1.0, 0.0);
  RealVector<double, 2> u, unit_density;
  u.v[0] = 0.03;
  u.v[1] = 0.0;
  unit_density.v[0] = 1.0;
  unit_density.v[1] = 0.0;
  u_in = u;
  rho_out = unit_density;
  const auto channel = [&](auto... scheme) {
    Sim sim = make_case<D2Q9, Trt, double, VectorWidth>(g, Case{}, scheme...);
    Sim::Boundary b(g);
    mark_solid(b, [](const Coordinate& x) { return x[1] == 0 || x[1] == 11; });
    sim.set_boundary(b);
    return sim;
  };
  Sim two = channel(), one = channel(in_place_streaming);
  for (int s = 0; s < 21; ++s) {
    two.step();
    two.populations() = velocity_inlet_pressure_outlet<D2Q9>(two.populations(), inlet, u_in, outlet, rho_out);
    one.step();
    one.populations() = velocity_inlet_pressure_outlet<D2Q9>(one.populations(), inlet, u_in, outlet, rho_out);
  }
  EXPECT_TRUE(fields_near(as_in_place(one), as_in_place(two), 1e-14));  // the masks write solid ghost cells too
}

// A checkpoint holds natural order whichever scheme wrote it: an in-place
// run resumes bit for bit from its own, after an odd step count (the
// pushed state), and a two-lattice run resumes from it too.
TEST(LbmInPlace, CheckpointsResumeEitherScheme) {
  using Sim = Simulation<D2Q9, double, Trt>;
  const Geometry g({16, 16});
  const Case walls{true, true};
  Sim uninterrupted = make_case<D2Q9, Trt, double, VectorWidth>(g, walls, in_place_streaming);
  Sim first = make_case<D2Q9, Trt, double, VectorWidth>(g, walls, in_place_streaming);
  Sim resumed = make_case<D2Q9, Trt, double, VectorWidth>(g, walls, in_place_streaming);
  Sim two = make_case<D2Q9, Trt, double>(g, walls);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("latte_in_place_" + std::to_string(::getpid()) + ".chk")).string();
  first.run(25);
  write_checkpoint(first, path);
  read_checkpoint(resumed, path);
  read_checkpoint(two, path);
  std::filesystem::remove(path);
  resumed.run(35);
  two.run(35);
  uninterrupted.run(60);
  EXPECT_TRUE(fields_near(resumed.populations(), uninterrupted.populations(), 0.0));
  EXPECT_TRUE(fields_near(as_in_place(two), uninterrupted.populations(), 1e-14));
}

TEST(LbmInPlace, CurvedWallsAskForTwoLattices) {
  const Geometry g({16, 16});
  Simulation<D2Q9, double, Bgk> sim(g, Parameters{}, in_place_streaming);
  Simulation<D2Q9, double, Bgk>::Boundary b(g);
  b = zero;
  sim.set_boundary(b);
  WallLinkField<D2Q9, double> links(g);
  const std::string message = error_of<std::logic_error>([&] { sim.set_curved_walls(links); });
  EXPECT_NE(message.find("curved walls need the two-lattice scheme"), std::string::npos) << message;
}

}  // namespace
}  // namespace latte::testing
