// Lattice-Boltzmann flows with analytic solutions:
// force-driven Poiseuille flow with half-way bounce-back walls (second-order
// convergence with BGK, exact with TRT's magic parameter 3/16), in D2Q9 and
// D3Q19; Couette flow under a moving wall; and the decay of the 2-D
// Taylor-Green vortex at the rate exp(-2 nu k^2 t), nu = (tau - 1/2) / 3.

#include <cmath>
#include <numbers>

#include "lbm_flow_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

// Channel of `width` fluid rows 0..width-1 across dimension `across`, the
// rest of the (periodic) lattice solid: walls lie at -1/2 and width - 1/2.
// Driven along dimension 0 by a force giving centre-line speed u_max.
template <class VS, class Model>
double poiseuille_error(int width, double tau, int across) {
  const int pad = 8;  // solid rows; keeps every extent divisible by the SIMD layout
  Coordinate dims(VS::d, 4);
  dims[across] = width + pad;
  Geometry g(dims);
  const double nu = viscosity_from_tau(tau), u_max = 0.01;
  Parameters p;
  p.tau = tau;
  p.force[0] = 8.0 * nu * u_max / (width * width);
  Simulation<VS, double, Model, VectorWidth> sim(g, p);
  typename decltype(sim)::Boundary b(g);
  mark_solid(b, [&](const Coordinate& x) { return x[across] >= width; });
  sim.set_boundary(b);
  EXPECT_TRUE(run_to_steady_state(sim, 1e-11, 60000));
  const auto profile = velocity_profile(sim, across, 0, width);
  return relative_l2_error(profile, [&](int k) {
    const double y = k + 0.5;  // distance from the lower wall
    return p.force[0] / (2.0 * nu) * y * (width - y);
  });
}

TEST(LbmPoiseuille, BgkBounceBackConvergesAtSecondOrder) {
  const double e8 = poiseuille_error<D2Q9, Bgk>(8, 1.0, 1);
  const double e16 = poiseuille_error<D2Q9, Bgk>(16, 1.0, 1);
  const double e32 = poiseuille_error<D2Q9, Bgk>(32, 1.0, 1);
  const double order1 = std::log2(e8 / e16), order2 = std::log2(e16 / e32);
  std::printf("D2Q9 BGK Poiseuille L2 errors: N=8 %.3e  N=16 %.3e  N=32 %.3e; orders %.3f %.3f\n", e8, e16, e32,
              order1, order2);
  EXPECT_LT(e32, 5e-3);
  EXPECT_NEAR(order1, 2.0, 0.1);
  EXPECT_NEAR(order2, 2.0, 0.1);
}

TEST(LbmPoiseuille, TrtMagicParameterIsExact) {
  // Lambda = 3/16 puts the bounce-back wall exactly half-way: the parabola
  // is reproduced up to the steady-state tolerance, for any tau.
  for (double tau : {0.6, 1.0, 1.7}) {
    const double e = poiseuille_error<D2Q9, Trt>(12, tau, 1);
    EXPECT_LT(e, 1e-8) << "tau " << tau;
  }
}

TEST(LbmPoiseuille, D3Q19BetweenPlates) {
  const double bgk = poiseuille_error<D3Q19, Bgk>(16, 0.8, 2);
  const double trt = poiseuille_error<D3Q19, Trt>(16, 0.8, 2);
  std::printf("D3Q19 plates N=16: BGK L2 error %.3e, TRT %.3e\n", bgk, trt);
  EXPECT_LT(bgk, 5e-3);
  EXPECT_LT(trt, 1e-8);
}

// Couette flow: the upper wall moves at U, the lower rests. The linear
// profile U (y + 1/2) / width is exact with half-way moving-wall bounce-back.
template <class VS, class Model>
void expect_couette(double tau) {
  const int width = 16, across = VS::d - 1;
  Coordinate dims(VS::d, 4);
  dims[across] = width + 8;
  Geometry g(dims);
  Parameters p;
  p.tau = tau;
  Simulation<VS, double, Model, VectorWidth> sim(g, p);
  typename decltype(sim)::Boundary b(g);
  const double U = 0.02;
  mark_solid(b, [&](const Coordinate& x) { return x[across] >= width; }, [&](const Coordinate& x) {
    std::array<double, VS::d> u{};
    if (x[across] == width) u[0] = U;  // the solid row touching the top of the channel
    return u;
  });
  sim.set_boundary(b);
  EXPECT_TRUE(run_to_steady_state(sim, 1e-11, 60000));
  const auto profile = velocity_profile(sim, across, 0, width);
  EXPECT_LT(relative_l2_error(profile, [&](int k) { return U * (k + 0.5) / width; }), 1e-8)
      << VS::name << ' ' << Model::name;
}

TEST(LbmCouette, MovingWallGivesTheLinearProfile) {
  expect_couette<D2Q9, Bgk>(0.9);
  expect_couette<D3Q19, Trt>(0.7);
}

// Taylor-Green vortex, u = u0 (-cos kx sin ky, sin kx cos ky) exp(-2 nu k^2 t),
// started from the equilibrium with the matching pressure.
// The lattice's error in the decay rate grows like (k tau)^2: large tau needs
// a finer lattice for 1%.
template <class Model>
void expect_taylor_green(double tau, int n) {
  Geometry g({n, n});
  Parameters p;
  p.tau = tau;
  Simulation<D2Q9, double, Model, VectorWidth> sim(g, p);
  const double k = 2 * std::numbers::pi / n, u0 = 0.02, nu = viscosity_from_tau(tau);
  Lattice<double, VectorWidth> rho(g), x(g), y(g);
  Lattice<RealVector<double, 2>, VectorWidth> u(g), mode(g);
  fill_coordinate(x, 0);
  fill_coordinate(y, 1);
  // The mode shape, filled on the host (the DSL has no cos).
  const auto view = mode.host_view(Access::write);
  for_each_site(mode.layout(), [&](std::int64_t o, int l, const Coordinate& c) {
    RealVector<double, 2> m;
    m.v[0] = -std::cos(k * c[0]) * std::sin(k * c[1]);
    m.v[1] = std::sin(k * c[0]) * std::cos(k * c[1]);
    view.store(LaneSite<double>{o, l}, m);
  });
  Lattice<double, VectorWidth> cos2(g);
  const auto cview = cos2.host_view(Access::write);
  for_each_site(cos2.layout(), [&](std::int64_t o, int l, const Coordinate& c) {
    cview.store(LaneSite<double>{o, l}, std::cos(2 * k * c[0]) + std::cos(2 * k * c[1]));
  });
  rho = 1.0 - (3.0 * u0 * u0 / 4.0) * cos2;  // p = c_s^2 rho
  u = u0 * mode;
  sim.initialise(rho, u);
  const double mode_norm = norm2(mode);
  auto amplitude = [&] { return sum(localInnerProduct(mode, sim.velocity())) / mode_norm; };
  EXPECT_NEAR(amplitude(), u0, 1e-15);
  const double rate = 2 * nu * k * k;
  const long t1 = 20, t2 = static_cast<long>(1.5 / rate);
  sim.run(t1);
  const double a1 = amplitude();
  sim.run(t2 - t1);
  const double a2 = amplitude();
  const double measured_rate = std::log(a1 / a2) / static_cast<double>(t2 - t1);
  std::printf("Taylor-Green %s N=%d tau=%.2f: decay rate %.6e, analytic %.6e (ratio %.5f); amplitude at t=%ld: "
              "%.6e, analytic %.6e\n", Model::name, n, tau, measured_rate, rate, measured_rate / rate, t2, a2,
              u0 * std::exp(-rate * t2));
  EXPECT_NEAR(measured_rate / rate, 1.0, 0.01);
  EXPECT_NEAR(a2 / (u0 * std::exp(-rate * static_cast<double>(t2))), 1.0, 0.01);
}

TEST(LbmTaylorGreen, DecaysAtTheAnalyticRate) {
  expect_taylor_green<Bgk>(0.8, 32);
  expect_taylor_green<Bgk>(0.55, 32);
  expect_taylor_green<Trt>(0.8, 32);
  expect_taylor_green<Trt>(1.2, 64);
}

}  // namespace
}  // namespace latte::testing
