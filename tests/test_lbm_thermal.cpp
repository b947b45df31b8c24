// The temperature as a second lattice-Boltzmann distribution
// (solvers/lbm/thermal/thermal.hpp, D2Q5 and D3Q7): conduction between plates at
// fixed temperatures, and through a slab with a fixed heat flux, is linear
// to round-off; a diffusing, drifting Gaussian in a periodic box follows
// the analytic solution at second order; the total temperature is
// conserved in a periodic box with a moving fluid driven by its own
// buoyancy (boussinesq.hpp) and inside adiabatic walls; Rayleigh-Benard
// convection sets in above the onset only; the Nusselt number (nusselt.hpp)
// is 1 in conduction and its reduction equals a sum written out here; a
// step is one statement and gives the same populations on every SIMD
// layout and lowering. Every reference is computed in the test from the
// continuum solution, not from the solver.

#include <cmath>
#include <cstdio>
#include <numbers>

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/thermal/boussinesq.hpp"
#include "solvers/lbm/thermal/nusselt.hpp"
#include "solvers/lbm/thermal/thermal.hpp"
#include "test_support.hpp"
#include "thermal_lowering_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;
using Heat2 = ThermalSimulation<D2Q5, double, VectorWidth>;
using Heat3 = ThermalSimulation<D3Q7, double, VectorWidth>;
using BuoyantFlow = Simulation<D2Q9, double, Bgk, VectorWidth>;

// T at every site, read back through a stored field.
template <class Heat>
typename Heat::ScalarField stored_temperature(const Heat& heat) {
  typename Heat::ScalarField t(heat.geometry());
  t = heat.temperature();
  return t;
}

// Plates normal to `axis` on the first and last layer of cells: the first
// at t_hot, the last at t_cold; between them H = n - 2 fluid layers, the
// walls half-way between the solid and fluid layers, at 0.5 and n - 1.5.
template <class Boundary>
void mark_plates(Boundary& b, int axis, int n, double t_hot, double t_cold) {
  mark_fixed_temperature(b, [&](const Coordinate& x) { return x[axis] == 0; }, t_hot);
  mark_fixed_temperature(b, [&](const Coordinate& x) { return x[axis] == n - 1; }, t_cold);
}

// The conduction profile, linear between the walls' positions.
double conduction_profile(int k, int n, double t_hot, double t_cold) {
  return t_hot + (t_cold - t_hot) * (k - 0.5) / (n - 2);
}

// Steps for the slowest mode between the plates, exp(-alpha (pi / H)^2 t),
// to fall below 1e-15 of its start.
long steps_to_conduction(int n, double alpha) {
  const double rate = alpha * std::pow(std::numbers::pi / (n - 2), 2);
  return static_cast<long>(std::ceil(35.0 / rate));
}

// Anti-bounce-back returns the exact populations of a linear profile at
// rest (thermal_walls.hpp), so the steady state is the continuum's to
// round-off, not merely at second order.
TEST(LbmThermal, ConductionBetweenPlatesIsLinearToRoundOff2D) {
  const int nx = 4, ny = 16;
  const double t_hot = 1.5, t_cold = 0.5, tau = 0.8;
  Heat2 heat(Geometry({nx, ny}), tau);
  Heat2::Boundary plates(heat.geometry());
  mark_plates(plates, 1, ny, t_hot, t_cold);
  heat.set_boundary(plates);
  heat.initialise(1.0);
  const RealVector<double, 2> at_rest{};
  heat.run(at_rest, steps_to_conduction(ny, heat.diffusivity()));
  const auto t = stored_temperature(heat);
  double largest = 0;
  for (int x = 0; x < nx; ++x)
    for (int y = 1; y < ny - 1; ++y)
      largest = std::max(largest, std::abs(peek(t, {x, y}) - conduction_profile(y, ny, t_hot, t_cold)));
  std::printf("D2Q5 conduction, %d x %d cells, %ld steps: largest |T - T_linear| = %.3e\n", nx, ny, heat.time(),
              largest);
  EXPECT_LT(largest, 1e-12);

  Heat2::VectorField still(heat.geometry());
  const NusseltSetup setup{heat.diffusivity(), t_hot - t_cold, ny - 2.0};
  EXPECT_DOUBLE_EQ(nusselt_number<1>(heat.temperature(), still, plates, setup), 1.0);
}

TEST(LbmThermal, ConductionBetweenPlatesIsLinearToRoundOff3D) {
  const int n = 4, nz = 12;
  const double t_hot = 2.0, t_cold = -1.0, tau = 0.7;
  Heat3 heat(Geometry({n, n, nz}), tau);
  Heat3::Boundary plates(heat.geometry());
  mark_plates(plates, 2, nz, t_hot, t_cold);
  heat.set_boundary(plates);
  heat.initialise(0.0);
  heat.run(RealVector<double, 3>{}, steps_to_conduction(nz, heat.diffusivity()));
  const auto t = stored_temperature(heat);
  double largest = 0;
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y)
      for (int z = 1; z < nz - 1; ++z)
        largest = std::max(largest, std::abs(peek(t, {x, y, z}) - conduction_profile(z, nz, t_hot, t_cold)));
  std::printf("D3Q7 conduction, %d x %d x %d cells, %ld steps: largest |T - T_linear| = %.3e\n", n, n, nz,
              heat.time(), largest);
  EXPECT_LT(largest, 1e-12);
}

// A heat flux q into the fluid through the bottom wall, the top wall at
// t_top: Fourier's law -alpha dT/dy = q through the slab, so the profile
// is linear with slope -q / alpha from t_top at the top wall (y = n - 1.5),
// and the bottom wall's rule returns the linear profile's populations
// exactly (thermal_walls.hpp).
TEST(LbmThermal, HeatFluxThroughASlabIsLinearToRoundOff) {
  const int nx = 4, ny = 12;
  const double q = 1e-3, t_top = 1.0, tau = 1.0;
  Heat2 heat(Geometry({nx, ny}), tau);
  Heat2::Boundary walls(heat.geometry());
  mark_heat_flux(walls, [&](const Coordinate& x) { return x[1] == 0; }, q);
  mark_fixed_temperature(walls, [&](const Coordinate& x) { return x[1] == ny - 1; }, t_top);
  heat.set_boundary(walls);
  heat.initialise(t_top);
  // One fixed-temperature wall: the slowest mode has a quarter wave across
  // the slab, four times slower than between two fixed walls.
  heat.run(RealVector<double, 2>{}, 4 * steps_to_conduction(ny, heat.diffusivity()));
  const double alpha = heat.diffusivity();
  const auto t = stored_temperature(heat);
  double largest = 0;
  for (int x = 0; x < nx; ++x)
    for (int y = 1; y < ny - 1; ++y)
      largest = std::max(largest, std::abs(peek(t, {x, y}) - (t_top + q / alpha * (ny - 1.5 - y))));
  std::printf("D2Q5 heat flux %.1e through a slab, %d x %d cells, %ld steps: largest |T - T_linear| = %.3e\n", q,
              nx, ny, heat.time(), largest);
  EXPECT_LT(largest, 1e-12);
}

// A Gaussian of variance s0^2 in a periodic box of n^2 cells, carried at
// the uniform velocity u: the continuum solution is the sum over periodic
// images of T0 + A (s0^2 / s^2) exp(-|x - x0 - u t - n k|^2 / (2 s^2)) with
// s^2 = s0^2 + 2 alpha t (2-D: the amplitude falls as 1/s^2).
double periodic_gaussian(double x, double y, double cx, double cy, double variance, double initial_variance,
                         int n) {
  double value = 0;
  for (int kx = -2; kx <= 2; ++kx)
    for (int ky = -2; ky <= 2; ++ky) {
      const double dx = x - cx + kx * n, dy = y - cy + ky * n;
      value += std::exp(-(dx * dx + dy * dy) / (2 * variance));
    }
  return 1.0 + 0.5 * initial_variance / variance * value;
}

// The relative L2 error of the lattice's T at time t against the
// continuum's, on n^2 cells; the initial variance, the time and the
// velocity follow diffusive scaling (s0 ~ n, t ~ n^2, u ~ 1/n), so the
// error falls as 1/n^2.
double drifting_gaussian_error(int n, double tau) {
  const double s0 = n / 8.0, initial_variance = s0 * s0;
  const double ux = 1.6 / n, uy = 0.8 / n;
  Heat2 heat(Geometry({n, n}), tau);
  const double alpha = heat.diffusivity();
  const long steps = std::lround(initial_variance / (2 * alpha));  // the variance doubles
  const double c0 = n / 2.0;
  Heat2::ScalarField t0(heat.geometry());
  fill(t0, [&](const Coordinate& x) {
    return periodic_gaussian(x[0], x[1], c0, c0, initial_variance, initial_variance, n);
  });
  const RealVector<double, 2> u{{ux, uy}};
  heat.initialise(t0, u);
  heat.run(u, steps);
  const double time = static_cast<double>(steps), variance = initial_variance + 2 * alpha * time;
  const auto t = stored_temperature(heat);
  double error = 0, norm = 0;
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      const double exact = periodic_gaussian(x, y, c0 + ux * time, c0 + uy * time, variance, initial_variance, n);
      error += std::pow(peek(t, {x, y}) - exact, 2);
      norm += std::pow(exact - 1.0, 2);
    }
  const double relative = std::sqrt(error / norm);
  std::printf("D2Q5 drifting Gaussian, tau_T %.2f, %d^2 cells, %ld steps: relative L2 error %.3e\n", tau, n, steps,
              relative);
  return relative;
}

TEST(LbmThermal, DriftingGaussianConvergesAtSecondOrder) {
  const double tau = 0.8;
  const double coarse = drifting_gaussian_error(32, tau);
  const double fine = drifting_gaussian_error(64, tau);
  const double order = std::log2(coarse / fine);
  std::printf("observed order of convergence %.3f\n", order);
  EXPECT_LT(fine, 1e-2);
  EXPECT_NEAR(order, 2.0, 0.2);
}

// Streaming moves every population to another site and the collision
// conserves sum_i g_i at each site, so in a periodic box the total
// temperature stays what it was, to round-off, however the fluid moves.
// Here the fluid is driven by the temperature itself (the Boussinesq force
// through the flow's force field), which also checks the coupling: the
// force field is -rho0 beta (T - T_ref) g at every site after a step.
TEST(LbmThermal, TotalTemperatureIsConservedInABuoyantPeriodicFlow) {
  const int nx = 16, ny = 16;
  const Geometry geometry({nx, ny});
  Parameters p;
  p.tau = 0.8;
  BuoyantFlow flow(geometry, p);
  Heat2 heat(geometry, 0.9);
  Heat2::ScalarField t0(geometry);
  fill(t0, [&](const Coordinate& x) {
    return 1.0 + 0.2 * std::sin(2 * std::numbers::pi * x[0] / nx) * std::cos(2 * std::numbers::pi * x[1] / ny);
  });
  heat.initialise(t0, RealVector<double, 2>{});
  Boussinesq buoyancy;
  buoyancy.reference_density = 1.0;
  buoyancy.expansion = 0.5;
  buoyancy.reference_temperature = 1.0;
  buoyancy.gravity = {0.0, -2e-3, 0.0};
  set_buoyancy(flow, heat, buoyancy);
  const double total0 = heat.total();
  // The perturbation diffuses away at alpha k^2 ~ 0.04 per step and the
  // flow it drives then decays: 120 steps see the fluid at its fastest.
  double fastest = 0;
  for (int s = 0; s < 120; ++s) {
    coupled_step(flow, heat, buoyancy);
    fastest = std::max(fastest, flow.max_speed());
  }
  const double drift = std::abs(heat.total() - total0) / total0;
  std::printf("buoyant periodic flow, %d x %d cells, %ld steps: largest |u| %.3e, relative change of sum T %.3e\n",
              nx, ny, heat.time(), fastest, drift);
  EXPECT_GT(fastest, 5e-4);  // the fluid moves
  EXPECT_LT(drift, 1e-13);

  const auto t = stored_temperature(heat);
  for (const Coordinate& x : {Coordinate{0, 0}, Coordinate{3, 7}, Coordinate{15, 11}}) {
    const double expected = -1.0 * 0.5 * (peek(t, x) - 1.0) * -2e-3;
    const auto force = peek(flow.force_field(), x);
    EXPECT_DOUBLE_EQ(force.v[0], 0.0);
    EXPECT_NEAR(force.v[1], expected, 1e-18) << to_string(x);
  }
}

// Rayleigh-Benard convection between plates H = 14 fluid cells apart, hot
// below, in a periodic box 2H wide (one pair of rolls), Pr = 0.71, from
// the conduction profile with a small perturbation of the rolls' shape.
// Below the onset (Ra_c = 1708 between rigid plates) the perturbation
// decays back to conduction: no horizontal motion is left, and Nu -> 1
// but for the flow's own artefact: under a force that varies along y the
// D2Q9 flow keeps a staggered vertical velocity, of sign alternating from
// row to row and step to step, of amplitude |dF_y/dy| / 4 (a flow alone
// with a linear force field shows it; here 1e-5), which biases Nu by about
// 1e-4. Above the onset convection carries heat: at Ra = 10^4 the Nusselt
// number of the reduction is well above 1 and equals, within the lattice's
// resolution, the one of the conductive flux through the hot wall,
// 2 (T_hot - <T(first fluid row)>) H / dT (half a cell from the wall: first
// order in the spacing, hence the 2 %).
struct RayleighBenard {
  double nusselt;       // nusselt_number()
  double wall_nusselt;  // from the temperature next to the hot wall
  double horizontal;    // max |u_x|
};
RayleighBenard rayleigh_benard(double ra, long steps) {
  const int h = 14, nx = 2 * h, ny = h + 2;
  const double pr = 0.71, tau = 0.6, nu = (tau - 0.5) / 3, alpha = nu / pr, t_hot = 1.0, t_cold = 0.0;
  const Geometry geometry({nx, ny});
  Parameters p;
  p.tau = tau;
  BuoyantFlow flow(geometry, p);
  BuoyantFlow::Boundary solid(geometry);
  mark_solid(solid, [&](const Coordinate& x) { return x[1] == 0 || x[1] == ny - 1; });
  flow.set_boundary(solid);
  Heat2 heat(geometry, tau_from_diffusivity<D2Q5>(alpha));
  Heat2::Boundary plates(geometry);
  mark_plates(plates, 1, ny, t_hot, t_cold);
  heat.set_boundary(plates);
  Heat2::ScalarField t0(geometry);
  fill(t0, [&](const Coordinate& x) {
    return conduction_profile(x[1], ny, t_hot, t_cold) +
           0.01 * std::sin(2 * std::numbers::pi * x[0] / nx) * std::sin(std::numbers::pi * (x[1] - 0.5) / h);
  });
  heat.initialise(t0, RealVector<double, 2>{});
  Boussinesq buoyancy;
  buoyancy.expansion = 1.0;
  buoyancy.reference_temperature = 0.5 * (t_hot + t_cold);
  buoyancy.gravity = {0.0, -ra * nu * alpha / ((t_hot - t_cold) * h * h * h), 0.0};  // Ra = g beta dT H^3 / (nu alpha)
  set_buoyancy(flow, heat, buoyancy);
  for (long s = 0; s < steps; ++s) coupled_step(flow, heat, buoyancy);
  RayleighBenard out;
  out.nusselt = nusselt_number<1>(heat.temperature(), flow.velocity(), plates,
                                  NusseltSetup{heat.diffusivity(), t_hot - t_cold, double(h)});
  const auto t = stored_temperature(heat);
  double first_row = 0;
  for (int x = 0; x < nx; ++x) first_row += peek(t, {x, 1}) / nx;
  out.wall_nusselt = 2 * (t_hot - first_row) * h / (t_hot - t_cold);
  BuoyantFlow::VectorField u(geometry);
  u = flow.velocity();
  out.horizontal = 0;
  for (int x = 0; x < nx; ++x)
    for (int y = 1; y < ny - 1; ++y) out.horizontal = std::max(out.horizontal, std::abs(peek(u, {x, y}).v[0]));
  std::printf("Rayleigh-Benard, Ra %.0f, Pr %.2f, H %d, %ld steps: Nu %.6f (hot wall %.6f), max |u_x| %.3e\n", ra,
              pr, h, steps, out.nusselt, out.wall_nusselt, out.horizontal);
  return out;
}

TEST(LbmThermal, RayleighBenardConvectsAboveOnsetOnly) {
  const RayleighBenard below = rayleigh_benard(1000, 20000);
  EXPECT_NEAR(below.nusselt, 1.0, 2e-4);
  EXPECT_LT(below.horizontal, 1e-9);
  const RayleighBenard above = rayleigh_benard(1e4, 4000);
  EXPECT_GT(above.horizontal, 1e-2);
  EXPECT_GT(above.nusselt, 2.0);
  EXPECT_NEAR(above.nusselt, above.wall_nusselt, 0.02 * above.nusselt);
}

// One step of the temperature is one statement that reads and writes its
// 2 x Q populations per cell once; a coupled step is three statements: the
// flow's step, the temperature's (the flow's velocity fused into it) and
// the force from the temperature.
TEST(LbmThermal, OneStatementPerStep) {
  const Geometry geometry({16, 8});
  Heat2 heat(geometry, 0.8);
  heat.initialise(1.0);
  {
    profile::ModelCapture capture;
    heat.step(RealVector<double, 2>{{0.01, 0.0}});
    EXPECT_EQ(capture.statements, 1);
    EXPECT_EQ(capture.bytes / static_cast<double>(geometry.volume()), 2 * D2Q5::q * sizeof(double));
  }
  Parameters p;
  p.tau = 0.8;
  BuoyantFlow flow(geometry, p);
  Boussinesq buoyancy;
  buoyancy.expansion = 1.0;
  buoyancy.gravity = {0.0, -1e-4, 0.0};
  set_buoyancy(flow, heat, buoyancy);
  profile::ModelCapture capture;
  coupled_step(flow, heat, buoyancy);
  EXPECT_EQ(capture.statements, 3);
}

// Adiabatic walls return what reaches them: inside a closed box the heat of
// the fluid stays constant while the temperature evens out.
TEST(LbmThermal, AdiabaticBoxKeepsItsHeat) {
  const int n = 16;
  Heat2 heat(Geometry({n, n}), 0.9);
  Heat2::Boundary box(heat.geometry());
  mark_adiabatic(box, [&](const Coordinate& x) { return x[0] == 0 || x[1] == 0 || x[0] == n - 1 || x[1] == n - 1; });
  heat.set_boundary(box);
  Heat2::ScalarField t0(heat.geometry());
  fill(t0, [&](const Coordinate& x) { return x[0] < n / 2 ? 2.0 : 1.0; });
  heat.initialise(t0, RealVector<double, 2>{});
  const auto fluid_heat = [&] { return sum(where(element<0>(box), 0.0, heat.temperature())); };
  const double heat0 = fluid_heat();
  heat.run(RealVector<double, 2>{}, 3000);
  const auto t = stored_temperature(heat);
  const double mean = heat0 / ((n - 2) * (n - 2));
  std::printf("adiabatic box: relative change of the fluid's heat %.3e, T(1, 1) - mean %.3e\n",
              std::abs(fluid_heat() - heat0) / heat0, peek(t, {1, 1}) - mean);
  EXPECT_NEAR(fluid_heat(), heat0, 1e-12 * heat0);
  EXPECT_NEAR(peek(t, {1, 1}), mean, 1e-6);
  EXPECT_NEAR(peek(t, {n - 2, n - 2}), mean, 1e-6);
}

// The thermal step gives the same populations, to round-off, on the
// build's SIMD layout, on the scalar layout and on the per-lane (simt)
// lowering: every wall kind (fixed temperature, heat flux, adiabatic), a
// velocity field that varies from site to site, a random start.
template <class Width>
ThermalSimulation<D2Q5, double, Width> random_thermal_case(const Geometry& g) {
  using Heat = ThermalSimulation<D2Q5, double, Width>;
  Heat heat(g, 0.7);
  typename Heat::Boundary walls(g);
  const int top = g.dims()[1] - 1;
  mark_fixed_temperature(walls, [&](const Coordinate& x) { return x[1] == 0; },
                         [](const Coordinate& x) { return 1.0 + 0.1 * x[0]; });
  mark_heat_flux(walls, [&](const Coordinate& x) { return x[1] == top; }, -2e-3);
  mark_adiabatic(walls, [&](const Coordinate& x) { return x[0] >= 5 && x[0] < 8 && x[1] >= 5 && x[1] < 7; });
  heat.set_boundary(walls);
  start_from_random_temperature(heat, 7);
  return heat;
}

TEST(LbmThermal, SameOnEveryLowering) {
  const Geometry g({16, 16});
  expect_thermal_step_same_on_every_lowering(
      g, [&](auto width) { return random_thermal_case<decltype(width)>(g); });
}

// The Nusselt number's reduction against the sum written out: with u_y = U
// and T = T(y) the convective part is U <T> over the fluid.
TEST(LbmThermal, NusseltNumberIsOnePlusTheMeanConvectiveFlux) {
  const int nx = 4, ny = 16;
  const double t_hot = 1.5, t_cold = 0.5, alpha = 0.1, uy = 0.01;
  const Geometry geometry({nx, ny});
  Heat2::Boundary plates(geometry);
  mark_plates(plates, 1, ny, t_hot, t_cold);
  Heat2::ScalarField t(geometry);
  fill(t, [&](const Coordinate& x) { return 1.0 + 0.1 * x[1] * x[1] + 0.01 * x[0]; });
  Heat2::VectorField u(geometry);
  u = RealVector<double, 2>{{0.0, uy}};
  double convective = 0;
  for (int x = 0; x < nx; ++x)
    for (int y = 1; y < ny - 1; ++y) convective += uy * (1.0 + 0.1 * y * y + 0.01 * x);
  convective /= nx * (ny - 2);
  const double expected = 1.0 + convective / (alpha * (t_hot - t_cold) / (ny - 2));
  EXPECT_NEAR(nusselt_number<1>(t, u, plates, NusseltSetup{alpha, t_hot - t_cold, ny - 2.0}), expected,
              1e-12 * expected);
}

}  // namespace
}  // namespace latte::testing
