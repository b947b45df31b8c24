// Force-driven D3Q19 Poiseuille flow in a square duct against the analytic
// Fourier-series solution (solvers/lbm/flow/analytic.hpp).
//
// TRT with the magic parameter 3/16 makes half-way bounce-back exact for
// profiles that are parabolic along the wall normal, but the duct profile is
// not a polynomial: near the corners the wall sees higher derivatives, so a
// small second-order discretisation error remains. Measured relative L2
// errors are 4.0e-3 (n = 8), 8.8e-4 (n = 16), 2.1e-4 (n = 32). The tests
// bound the error at n = 16 by 2e-3 (a wrong wall position, e.g. BGK or a
// wall one cell off, gives errors of order 1/n = 6e-2) and require the error
// to fall at second order (log2 of the ratio between n = 8 and 16 within
// 1.6..2.6): a plane-Poiseuille profile or a bug in the series would not
// converge. With TRT the steady solution depends on tau only through Lambda,
// which a third test checks.

#include <cmath>

#include "lbm_flow_support.hpp"
#include "solvers/lbm/flow/analytic.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

// Relative L2 error of the steady duct flow with n x n fluid cells. The flow
// runs along x on a lattice one cell long (the solution does not depend on
// x); one solid row and column (periodic: the wall on both sides), padded so
// the SIMD layout divides the extents.
double duct_error(int n, double tau) {
  const int extent = (n + 1 + 7) / 8 * 8;
  const Geometry g({1, extent, extent});
  // A slow flow: the tau-independence below holds up to O(u_max^2) terms.
  const double nu = viscosity_from_tau(tau), u_max = 5e-4;
  Parameters p;
  p.tau = tau;
  p.force[0] = u_max * nu / (0.0736713 * n * n);  // centre-line speed u_max (see SeriesMatchesKnownCoefficients)
  Simulation<D3Q19, double, Trt, VectorWidth> sim(g, p);
  Simulation<D3Q19, double, Trt, VectorWidth>::Boundary b(g);
  mark_solid(b, [&](const Coordinate& x) { return x[1] >= n || x[2] >= n; });
  sim.set_boundary(b);
  EXPECT_TRUE(run_to_steady_state(sim, 1e-11, 40000));
  Lattice<RealVector<double, 3>, VectorWidth> u(g);
  u = sim.velocity();
  double error = 0, norm = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y) {
      const double exact = analytic::duct_poiseuille(y + 0.5, z + 0.5, n, n, p.force[0], nu);
      const double measured = peek(u, Coordinate{0, y, z}).v[0];
      error += (measured - exact) * (measured - exact);
      norm += exact * exact;
    }
  return std::sqrt(error / norm);
}

// The series itself: the centre-line speed of a square duct of side a is
// 0.0736713 F a^2 / nu and the mean speed 0.0351443 F a^2 / nu (Shah &
// London 1978, f Re = 56.91; both also from the closed forms of the series); a finite-difference check of the Poisson
// equation and the wall values.
TEST(LbmDuct, SeriesMatchesKnownCoefficients) {
  const double a = 1.0, F = 1.0, nu = 1.0;
  EXPECT_NEAR(analytic::duct_poiseuille(0.5, 0.5, a, a, F, nu), 0.0736713, 1e-7);
  const int m = 200;
  double mean = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) mean += analytic::duct_poiseuille((i + 0.5) / m, (j + 0.5) / m, a, a, F, nu);
  EXPECT_NEAR(mean / (m * m), 0.0351443, 2e-6);  // midpoint rule: O(1/m^2)
  EXPECT_NEAR(analytic::duct_poiseuille(0.0, 0.3, a, a, F, nu), 0.0, 1e-14);
  EXPECT_NEAR(analytic::duct_poiseuille(0.7, 1.0, a, a, F, nu), 0.0, 1e-14);
  const double h = 1e-3, y = 0.3, z = 0.2;
  auto u = [&](double yy, double zz) { return analytic::duct_poiseuille(yy, zz, a, a, F, nu); };
  const double laplacian = (u(y + h, z) + u(y - h, z) + u(y, z + h) + u(y, z - h) - 4 * u(y, z)) / (h * h);
  EXPECT_NEAR(nu * laplacian, -F, 1e-5);
}

TEST(LbmDuct, TrtMatchesTheSeriesAndConvergesAtSecondOrder) {
  const double e8 = duct_error(8, 1.0), e16 = duct_error(16, 1.0);
  const double order = std::log2(e8 / e16);
  std::printf("D3Q19 TRT square duct: relative L2 error n=8 %.3e, n=16 %.3e; order %.2f\n", e8, e16, order);
  EXPECT_LT(e16, 2e-3);
  EXPECT_GT(order, 1.6);
  EXPECT_LT(order, 2.6);
}

TEST(LbmDuct, TrtSteadyStateDoesNotDependOnTau) {
  // Same Lambda, different tau: the same steady solution in the Stokes limit.
  // At u_max = 5e-4 the two errors agree to about 1e-8 (the difference grows
  // like u_max^2: 9e-7 at u_max = 5e-3); with BGK they differ by ~1e-2.
  const double e_low = duct_error(8, 0.7), e_high = duct_error(8, 1.5);
  EXPECT_NEAR(e_low, e_high, 1e-7);
}

}  // namespace
}  // namespace latte::testing
