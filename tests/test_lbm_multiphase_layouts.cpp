// The multiphase steps give the same populations, to round-off, on the
// build's SIMD layout and on the scalar layout (one lane): the Shan-Chen
// coupling (psi, the force from psi shifted along every velocity, the
// forced flow step) with the plain and with Kupershtokh's mixed force, on
// a wetting wall, and the two-component mixture (densities, cross forces,
// both components in one statement) between walls. Each starts from a
// drop whose interface crosses many vector lanes, so every lane
// permutation of the shifts is used. (The per-lane lowering of the same
// statements is the simt-device configuration of tests/run_all.sh, which
// runs this whole suite.)

#include <cmath>

#include "solvers/lbm/multiphase/mixture_simulation.hpp"
#include "solvers/lbm/multiphase/shan_chen.hpp"
#include "solvers/lbm/multiphase/shan_chen_wetting.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

// A drop of radius 5 in its vapour on a 16 x 16 lattice, with walls at
// y = 0 and y = 15 when asked, after `steps` Shan-Chen steps of `model`.
template <class Width, class Pseudopotential>
Simulation<D2Q9, double, Bgk, Width> shan_chen_case(const ShanChen<Pseudopotential>& model, bool walls, long steps) {
  using Sim = Simulation<D2Q9, double, Bgk, Width>;
  const Geometry g({16, 16});
  Sim sim(g, Parameters{1.0});
  if (walls) {
    typename Sim::Boundary b(g);
    b = zero;
    mark_solid(b, [](const Coordinate& x) { return x[1] == 0 || x[1] == 15; });
    sim.set_boundary(b);
  }
  typename Sim::ScalarField rho(g);
  fill(rho, [](const Coordinate& x) { return std::hypot(x[0] - 7.3, x[1] - 5.6) < 5 ? 1.9 : 0.16; });
  sim.initialise(rho, RealVector<double, 2>{});
  if (walls) {
    ShanChenCoupling coupling(sim, model, Wetting{0.8});
    coupling.run(steps);
  } else {
    ShanChenCoupling coupling(sim, model);
    coupling.run(steps);
  }
  return sim;
}

template <class Pseudopotential>
void expect_shan_chen_same_on_both_layouts(const ShanChen<Pseudopotential>& model, bool walls) {
  const auto start = shan_chen_case<VectorWidth>(model, walls, 0);
  const auto vector = shan_chen_case<VectorWidth>(model, walls, 40);
  const auto scalar = shan_chen_case<ScalarWidth>(model, walls, 40);
  EXPECT_GT(norm2(vector.populations() - start.populations()), 1e-6);  // the drop moved well beyond the tolerance
  EXPECT_TRUE(fields_near(vector.populations(), scalar.populations(), 1e-12));
}

TEST(LbmMultiphaseLayouts, ShanChenPlainForce) { expect_shan_chen_same_on_both_layouts(shan_chen_exponential(-5.0), false); }

TEST(LbmMultiphaseLayouts, ShanChenMixedForceOnAWettingWall) {
  expect_shan_chen_same_on_both_layouts(shan_chen_exponential_maxwell(-5.0), true);
}

template <class Width>
MixtureSimulation<D2Q9, double, Width> mixture_case(long steps) {
  using Mix = MixtureSimulation<D2Q9, double, Width>;
  const Geometry g({16, 16});
  MixtureParameters p;
  p.tau[0] = 0.8;
  p.tau[1] = 1.1;
  p.coupling = 2.5;
  p.gravity[0][1] = -1e-4;
  Mix mix(g, p);
  typename Mix::Boundary b(g);
  b = zero;
  mark_solid(b, [](const Coordinate& x) { return x[1] == 0 || x[1] == 15; });
  mix.set_boundary(b);
  typename Mix::ScalarField rho1(g), rho2(g);
  const auto blob = [](const Coordinate& x) { return std::hypot(x[0] - 6.5, x[1] - 8.7) < 4.5; };
  fill(rho1, [&](const Coordinate& x) { return blob(x) ? 1.0 : 0.05; });
  fill(rho2, [&](const Coordinate& x) { return blob(x) ? 0.05 : 1.0; });
  mix.initialise(rho1, rho2);
  mix.run(steps);
  return mix;
}

TEST(LbmMultiphaseLayouts, TwoComponentsBetweenWalls) {
  const auto start = mixture_case<VectorWidth>(0);
  const auto vector = mixture_case<VectorWidth>(40);
  const auto scalar = mixture_case<ScalarWidth>(40);
  for (int c = 0; c < 2; ++c) {
    EXPECT_GT(norm2(vector.populations(c) - start.populations(c)), 1e-6) << "component " << c;
    EXPECT_TRUE(fields_near(vector.populations(c), scalar.populations(c), 1e-12)) << "component " << c;
  }
}

}  // namespace
}  // namespace latte::testing
