// The lattice-Boltzmann step gives the same populations, to round-off, on
// the build's SIMD layout, on the scalar layout (one lane) and on the
// per-lane (simt) lowering: walls, a moving wall, a body force, BGK and TRT,
// D2Q9 and D3Q19, from a random start so every population matters.

#include "solvers/lbm/flow/simulation.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

template <class VS, class Model, class Real, class Width>
Simulation<VS, Real, Model, Width> make_case(const Geometry& g) {
  Parameters p;
  p.tau = 0.75;
  p.force = {2e-5, -1e-5, 1e-5};
  Simulation<VS, Real, Model, Width> sim(g, p);
  typename Simulation<VS, Real, Model, Width>::Boundary b(g);
  // A box whose top face moves, and an obstacle inside.
  const int top = g.dims()[VS::d - 1] - 1;
  mark_solid(b, [&](const Coordinate& x) {
    bool obstacle = true;
    for (int d = 0; d < VS::d; ++d) obstacle = obstacle && x[d] >= 3 && x[d] < 5;
    return x[VS::d - 1] == 0 || x[VS::d - 1] == top || obstacle;
  }, [&](const Coordinate& x) {
    std::array<double, VS::d> u{};
    if (x[VS::d - 1] == top) u[0] = 0.05;
    return u;
  });
  sim.set_boundary(b);
  typename decltype(sim)::ScalarField rho(g);
  typename decltype(sim)::VectorField u(g);
  typename decltype(sim)::PopulationField noise(g);
  ParallelRng rng(42);
  rng.uniform(rho, 0.95, 1.05);
  rng.uniform(u, -0.03, 0.03);
  rng.uniform(noise, -0.002, 0.002);
  sim.populations() = equilibrium_of<VS>(rho, u) + noise;
  return sim;
}

template <class VS, class Model, class Real>
void expect_same_on_every_lowering(const Coordinate& dims, double tolerance) {
  const Geometry g(dims);
  auto vector = make_case<VS, Model, Real, VectorWidth>(g);
  auto scalar = make_case<VS, Model, Real, ScalarWidth>(g);
  auto lanes = make_case<VS, Model, Real, VectorWidth>(g);
  const auto start = vector.populations();
  const int steps = 15;
  vector.run(steps);
  scalar.run(steps);
  lanes.template run<backend::Simt>(steps);
  // The premise: the state moved well beyond the tolerance.
  EXPECT_GT(norm2(vector.populations() - start), 1e-8);
  EXPECT_TRUE(fields_near(vector.populations(), scalar.populations(), tolerance)) << VS::name << ' ' << Model::name;
  EXPECT_TRUE(fields_near(vector.populations(), lanes.populations(), tolerance)) << VS::name << ' ' << Model::name;
}

TEST(LbmLayouts, D2Q9SameOnEveryLowering) {
  expect_same_on_every_lowering<D2Q9, Bgk, double>({16, 16}, 1e-14);
  expect_same_on_every_lowering<D2Q9, Trt, double>({16, 16}, 1e-14);
  expect_same_on_every_lowering<D2Q9, Trt, float>({16, 16}, 1e-6);
}

TEST(LbmLayouts, D3Q19SameOnEveryLowering) {
  expect_same_on_every_lowering<D3Q19, Bgk, double>({8, 8, 8}, 1e-14);
  expect_same_on_every_lowering<D3Q19, Trt, double>({8, 8, 8}, 1e-14);
}

}  // namespace
}  // namespace latte::testing
