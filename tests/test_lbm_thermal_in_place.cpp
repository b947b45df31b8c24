// The temperature streamed in place (ThermalSimulation with
// in_place_streaming, the AA pattern of solvers/lbm/streaming/in_place_streaming.hpp)
// gives the two-lattice scheme's temperatures: D2Q5 and D3Q7, periodic and
// with every wall kind (fixed temperature, heat flux, adiabatic), a flow
// velocity that varies from site to site, after odd and even step counts
// (the two in-place states), and carrying on after populations() has put
// the field in natural order. From a random start, so every population
// matters. Both schemes do the same arithmetic on the same values (the same
// collision and wall rule; only where the populations are read and written
// differs), so the fluid cells agree bit for bit when the compiler contracts
// both statements alike; the tolerance allows round-off for compilers that
// do not.

#include <cmath>
#include <cstdio>

#include "solvers/lbm/thermal/thermal.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {
namespace thermal_in_place {

using namespace latte::lbm;

template <class VS>
using Heat = ThermalSimulation<VS, double, VectorWidth>;

// Walls on the first and last layer along the last axis (a hot plate below
// whose temperature varies along x, a heat flux through the top) and an
// adiabatic block inside.
template <class VS>
typename Heat<VS>::Boundary walls_of(const Geometry& g) {
  constexpr int D = VS::d;
  typename Heat<VS>::Boundary walls(g);
  const int top = g.dims()[D - 1] - 1;
  mark_fixed_temperature(walls, [&](const Coordinate& x) { return x[D - 1] == 0; },
                         [](const Coordinate& x) { return 1.0 + 0.1 * x[0]; });
  mark_heat_flux(walls, [&](const Coordinate& x) { return x[D - 1] == top; }, -2e-3);
  mark_adiabatic(walls, [&](const Coordinate& x) {
    bool inside = true;
    for (int d = 0; d < D; ++d) inside = inside && x[d] >= 3 && x[d] < 5;
    return inside;
  });
  return walls;
}

// A random temperature near equilibrium, with walls or without.
template <class VS, class... Scheme>
Heat<VS> random_case(const Geometry& g, bool with_walls, Scheme... scheme) {
  Heat<VS> heat(g, 0.7, scheme...);
  if (with_walls) heat.set_boundary(walls_of<VS>(g));
  typename Heat<VS>::ScalarField t(g);
  typename Heat<VS>::PopulationField noise(g);
  ParallelRng rng(11);
  rng.uniform(t, 0.5, 1.5);
  rng.uniform(noise, -0.01, 0.01);
  heat.populations() = scalar_equilibrium_of<VS>(t, RealVector<double, VS::d>{}) + noise;
  return heat;
}

// A shear flow, different at every site.
template <int D>
Lattice<RealVector<double, D>, VectorWidth> shear_flow(const Geometry& g) {
  Lattice<RealVector<double, D>, VectorWidth> u(g);
  fill(u, [](const Coordinate& x) {
    RealVector<double, D> v{};
    v.v[0] = 0.05 * std::sin(0.4 * x[D - 1]);
    v.v[1] = 0.03 * std::cos(0.3 * x[0]);
    return v;
  });
  return u;
}

// The largest difference of T between the schemes over the fluid cells
// (in place a solid cell's record is not its own).
template <class VS>
double largest_difference(const Heat<VS>& one, const Heat<VS>& two) {
  typename Heat<VS>::ScalarField difference(one.geometry());
  difference = one.temperature() - two.temperature();
  if (const auto* walls = two.boundary()) return maxval(where(element<0>(*walls), 0.0, abs(difference)));
  return maxval(abs(difference));
}

template <class VS>
void compare_schemes(const Geometry& g, bool with_walls) {
  const auto u = shear_flow<VS::d>(g);
  Heat<VS> two = random_case<VS>(g, with_walls);
  Heat<VS> one = random_case<VS>(g, with_walls, in_place_streaming);
  EXPECT_TRUE(one.in_place());
  EXPECT_FALSE(two.in_place());
  EXPECT_EQ(one.population_bytes_per_cell(), 0.5 * two.population_bytes_per_cell());
  const double total = two.total();
  const auto start = two.populations();
  double largest = 0;
  // 7 and 8 steps: both in-place states; then on from natural order.
  for (const int steps : {7, 1, 5}) {
    two.run(u, steps);
    one.run(u, steps);
    const double difference = largest_difference(one, two);
    largest = std::max(largest, difference);
    EXPECT_LE(difference, 1e-14) << VS::name << (with_walls ? " with walls" : " periodic") << " after "
                                 << two.time();
  }
  const double moved = std::abs(sum(one.temperature()) - total);
  std::printf("%s %s, %ld steps: largest |T_in_place - T_two_lattices| on fluid cells %.3e\n", VS::name,
              with_walls ? "with walls" : "periodic", one.time(), largest);
  if (!with_walls) {
    EXPECT_LT(moved, 1e-12 * total);  // periodic: sum T is conserved
  }
  EXPECT_GT(norm2(two.populations() - start), 1e-4);  // the state moved well beyond the tolerance
}

TEST(LbmThermalInPlace, D2Q5SameAsTwoLattices) {
  compare_schemes<D2Q5>(Geometry({16, 12}), false);
  compare_schemes<D2Q5>(Geometry({16, 12}), true);
}

TEST(LbmThermalInPlace, D3Q7SameAsTwoLattices) {
  compare_schemes<D3Q7>(Geometry({8, 8, 8}), false);
  compare_schemes<D3Q7>(Geometry({8, 8, 8}), true);
}

// An in-place step is one statement, reading and writing Q populations per
// cell once, whether it is a push step or a local one.
TEST(LbmThermalInPlace, OneStatementPerStep) {
  const Geometry g({16, 8});
  Heat<D2Q5> heat(g, 0.8, in_place_streaming);
  heat.set_boundary(walls_of<D2Q5>(g));
  heat.initialise(1.0);
  const RealVector<double, 2> u{{0.01, 0.0}};
  heat.step(u);  // from natural order: swapped first, then a push step
  for (int parity = 0; parity < 2; ++parity) {
    profile::ModelCapture capture;
    heat.step(u);
    EXPECT_EQ(capture.statements, 1);
  }
}

}  // namespace thermal_in_place
}  // namespace
}  // namespace latte::testing
