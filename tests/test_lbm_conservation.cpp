// Lattice-Boltzmann invariants: the velocity sets' isotropy, the moments of
// the equilibrium, and conservation of mass and momentum by the fused
// stream-collide step (BGK and TRT, periodic and with walls), plus the
// momentum a body force adds per step.

#include <array>
#include <cmath>

#include "solvers/lbm/flow/simulation.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

template <class VS>
void expect_isotropic_weights() {
  double total = 0, second[3][3] = {}, fourth_xxyy = 0, fourth_xxxx = 0;
  for (int i = 0; i < VS::q; ++i) {
    total += VS::w[i];
    for (int a = 0; a < VS::d; ++a)
      for (int b = 0; b < VS::d; ++b) second[a][b] += VS::w[i] * VS::c[i][a] * VS::c[i][b];
    fourth_xxyy += VS::w[i] * VS::c[i][0] * VS::c[i][0] * VS::c[i][1] * VS::c[i][1];
    fourth_xxxx += VS::w[i] * std::pow(VS::c[i][0], 4);
    EXPECT_EQ(VS::opposite[VS::opposite[i]], i);
    for (int a = 0; a < VS::d; ++a) EXPECT_EQ(VS::c[VS::opposite[i]][a], -VS::c[i][a]);
  }
  EXPECT_NEAR(total, 1.0, 1e-15);
  for (int a = 0; a < VS::d; ++a)
    for (int b = 0; b < VS::d; ++b) EXPECT_NEAR(second[a][b], a == b ? cs2 : 0.0, 1e-15);
  EXPECT_NEAR(fourth_xxyy, cs2 * cs2, 1e-15);
  EXPECT_NEAR(fourth_xxxx, 3 * cs2 * cs2, 1e-15);
}

TEST(LbmVelocitySets, WeightsAreIsotropicToFourthOrder) {
  expect_isotropic_weights<D2Q9>();
  expect_isotropic_weights<D3Q19>();
  expect_isotropic_weights<D3Q27>();
}

// sum f^eq = rho, sum c f^eq = rho u, sum c c f^eq = rho (c_s^2 I + u u).
template <class VS>
void expect_equilibrium_moments() {
  SiteRandomStream random(7, 0, 0);
  for (int trial = 0; trial < 20; ++trial) {
    const double rho = 0.5 + random.uniform();
    double u[VS::d];
    for (int d = 0; d < VS::d; ++d) u[d] = 0.2 * (random.uniform() - 0.5);
    const Populations<double, VS::q> feq = equilibrium<VS>(rho, u);
    double m0 = 0, m1[3] = {}, m2[3][3] = {};
    for (int i = 0; i < VS::q; ++i) {
      m0 += feq.v[i];
      for (int a = 0; a < VS::d; ++a) {
        m1[a] += VS::c[i][a] * feq.v[i];
        for (int b = 0; b < VS::d; ++b) m2[a][b] += VS::c[i][a] * VS::c[i][b] * feq.v[i];
      }
    }
    EXPECT_NEAR(m0, rho, 1e-14);
    for (int a = 0; a < VS::d; ++a) {
      EXPECT_NEAR(m1[a], rho * u[a], 1e-15);
      for (int b = 0; b < VS::d; ++b) EXPECT_NEAR(m2[a][b], rho * ((a == b ? cs2 : 0.0) + u[a] * u[b]), 1e-14);
    }
  }
}

TEST(LbmEquilibrium, MomentsAreDensityMomentumAndStress) {
  expect_equilibrium_moments<D2Q9>();
  expect_equilibrium_moments<D3Q19>();
  expect_equilibrium_moments<D3Q27>();
}

// The same through the DSL: density and momentum of f^eq(rho, u) fields.
TEST(LbmEquilibrium, MacroscopicFieldsOfTheEquilibriumField) {
  Geometry g({8, 8, 4});
  Lattice<double, VectorWidth> rho(g), rho_out(g);
  Lattice<RealVector<double, 3>, VectorWidth> u(g), j(g);
  Lattice<Populations<double, 19>, VectorWidth> f(g);
  ParallelRng rng(5);
  rng.uniform(rho, 0.8, 1.2);
  rng.uniform(u, -0.05, 0.05);
  f = equilibrium_of<D3Q19>(rho, u);
  rho_out = density<D3Q19>(f);
  j = momentum<D3Q19>(f);
  EXPECT_TRUE(fields_near(rho_out, rho, 1e-15));
  EXPECT_TRUE(field_matches(j, [&](const Coordinate& x) {
    RealVector<double, 3> expected = peek(u, x);
    for (int d = 0; d < 3; ++d) expected.v[d] *= peek(rho, x);
    return expected;
  }, 1e-15));
  Lattice<RealVector<double, 3>, VectorWidth> u_out(g);
  u_out = velocity<D3Q19>(f);
  EXPECT_TRUE(fields_near(u_out, u, 1e-14));
}

// A random, far-from-equilibrium start: f = f^eq(rho, u) + noise.
template <class Sim>
void randomise(Sim& sim, std::uint64_t seed) {
  using VS = typename Sim::velocity_set;
  const Geometry& g = sim.geometry();
  typename Sim::ScalarField rho(g);
  typename Sim::VectorField u(g);
  typename Sim::PopulationField noise(g);
  ParallelRng rng(seed);
  rng.uniform(rho, 0.9, 1.1);
  rng.uniform(u, -0.05, 0.05);
  rng.uniform(noise, -0.01, 0.01);
  sim.populations() = equilibrium_of<VS>(rho, u) + noise;
}

template <class VS, class Model>
void expect_conservation(const Coordinate& dims, bool with_walls) {
  Geometry g(dims);
  Parameters p;
  p.tau = 0.7;
  Simulation<VS, double, Model, VectorWidth> sim(g, p);
  if (with_walls) {
    // A solid block in the middle: bounce-back conserves mass but not momentum.
    typename decltype(sim)::Boundary b(g);
    mark_solid(b, [&](const Coordinate& x) { return x[0] >= 2 && x[0] < 4 && x[1] >= 3 && x[1] < 6; });
    sim.set_boundary(b);
  }
  randomise(sim, 11);
  const double mass0 = sim.mass();
  const auto momentum0 = sim.total_momentum();
  sim.run(40);
  EXPECT_NEAR(sim.mass(), mass0, 1e-13 * mass0) << VS::name << ' ' << Model::name;
  if (!with_walls) {
    const auto momentum1 = sim.total_momentum();
    for (int d = 0; d < VS::d; ++d)
      EXPECT_NEAR(momentum1[d], momentum0[d], 1e-13 * mass0) << VS::name << ' ' << Model::name << " d=" << d;
  }
}

TEST(LbmConservation, MassAndMomentumInAPeriodicBoxD2Q9) {
  expect_conservation<D2Q9, Bgk>({16, 16}, false);
  expect_conservation<D2Q9, Trt>({16, 16}, false);
}
TEST(LbmConservation, MassAndMomentumInAPeriodicBoxD3Q19) {
  expect_conservation<D3Q19, Bgk>({8, 8, 8}, false);
  expect_conservation<D3Q19, Trt>({8, 8, 8}, false);
}
TEST(LbmConservation, MassWithBounceBackObstacle) {
  expect_conservation<D2Q9, Bgk>({16, 16}, true);
  expect_conservation<D3Q19, Trt>({8, 8, 8}, true);
}

// With a uniform body force F (Guo), total momentum grows by exactly F per
// fluid site per step, and mass is untouched.
template <class VS, class Model>
void expect_force_adds_momentum() {
  Geometry g(Coordinate(VS::d, 8));
  Parameters p;
  p.tau = 0.8;
  p.force = {1e-5, -2e-5, 3e-5};
  Simulation<VS, double, Model, VectorWidth> sim(g, p);
  randomise(sim, 3);
  const double mass0 = sim.mass();
  const auto j0 = sim.total_momentum();
  const int steps = 25;
  sim.run(steps);
  const auto j1 = sim.total_momentum();
  EXPECT_NEAR(sim.mass(), mass0, 1e-13 * mass0);
  for (int d = 0; d < VS::d; ++d)
    EXPECT_NEAR(j1[d] - j0[d], steps * p.force[d] * static_cast<double>(g.volume()), 1e-12 * mass0)
        << VS::name << ' ' << Model::name << " d=" << d;
}

TEST(LbmConservation, BodyForceAddsMomentumAtTheForcedRate) {
  expect_force_adds_momentum<D2Q9, Bgk>();
  expect_force_adds_momentum<D2Q9, Trt>();
  expect_force_adds_momentum<D3Q19, Bgk>();
  expect_force_adds_momentum<D3Q19, Trt>();
}

}  // namespace
}  // namespace latte::testing
