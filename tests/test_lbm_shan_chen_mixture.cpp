// The two-component Shan–Chen mixture (solvers/lbm/multiphase/mixture_simulation.hpp):
// the cross-force statement against a site-by-site sum, each component's
// mass and the total momentum to round-off while a mixture separates, two
// flat layers that stay separated at the coexistence densities of the
// model's component balance, and a layered Poiseuille flow of two
// viscosities against its piecewise-parabolic profile. D2Q9 in double.

#include <cmath>
#include <cstdio>
#include <vector>

#include "solvers/lbm/io/field_export.hpp"
#include "solvers/lbm/multiphase/mixture_simulation.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;
using Mixture = MixtureSimulation<D2Q9, double, VectorWidth>;

// F_1 = -G rho_1(x) sum_i w_i rho_2(x + c_i) c_i and F_2 with 1 and 2
// exchanged, summed here site by site with periodic wrap.
TEST(LbmShanChenMixture, CrossForceMatchesTheSumOverNeighbours) {
  const Geometry g({8, 16});
  Mixture::DensityPairField rho(g);
  ParallelRng(7).uniform(rho, 0.05, 1.0);
  Mixture::ForcePairField force(g);
  const double coupling = 2.7;
  force = mixture_cross_force<D2Q9>(coupling, rho);
  double largest = 0;
  for_each_coordinate(g, [&](const Coordinate& x) {
    double sum[2][2] = {};  // sum[s][d] = sum_i w_i rho_s(x + c_i) c_id
    for (int i = 0; i < D2Q9::q; ++i) {
      const Coordinate c{D2Q9::c[i][0], D2Q9::c[i][1]};
      const auto neighbour = peek(rho, displaced(x, c, g.dims()));
      for (int s = 0; s < 2; ++s)
        for (int d = 0; d < 2; ++d) sum[s][d] += D2Q9::w[i] * neighbour.v[s] * D2Q9::c[i][d];
    }
    const auto here = peek(rho, x);
    const auto f = peek(force, x);
    for (int d = 0; d < 2; ++d) {
      largest = std::max(largest, std::abs(f.v[d] + coupling * here.v[0] * sum[1][d]));
      largest = std::max(largest, std::abs(f.v[2 + d] + coupling * here.v[1] * sum[0][d]));
    }
  });
  EXPECT_LT(largest, 1e-15);
}

// A random mixture of equal parts with G rho = 2.7 (above the spinodal
// G rho = 2): it separates into domains while each component's mass and the
// total momentum (no external force; the cross forces cancel in pairs) stay
// to round-off.
TEST(LbmShanChenMixture, SeparatingMixtureConservesEachMassAndTheMomentum) {
  const Geometry g({32, 32});
  MixtureParameters p;
  p.tau[0] = 1.0;
  p.tau[1] = 0.8;
  p.coupling = 2.7;
  Mixture mix(g, p);
  Lattice<double, VectorWidth> rho1(g), rho2(g);
  ParallelRng(3).uniform(rho1, 0.45, 0.55);
  rho2 = 1.0 - rho1;
  mix.initialise(rho1, rho2);
  const double m1 = mix.mass<0>(), m2 = mix.mass<1>();
  const auto j0 = mix.total_momentum();
  Lattice<double, VectorWidth> phi(g);
  phi = mix.composition();
  const double spread0 = std::sqrt(sum(localNorm2(phi - 0.5)) / g.volume());
  mix.run(1500);
  const auto j = mix.total_momentum();
  phi = mix.composition();
  const double spread = std::sqrt(sum(localNorm2(phi - 0.5)) / g.volume());
  std::printf("separation: rms |phi - 1/2| %.3g -> %.3g; mass drift %.2e, %.2e; momentum (%.2e, %.2e) -> (%.2e, %.2e)\n",
              spread0, spread, mix.mass<0>() / m1 - 1, mix.mass<1>() / m2 - 1, j0[0], j0[1], j[0], j[1]);
  EXPECT_GT(spread, 0.3) << "the mixture did not separate";
  EXPECT_NEAR(mix.mass<0>() / m1, 1.0, 1e-13);
  EXPECT_NEAR(mix.mass<1>() / m2, 1.0, 1e-13);
  for (int d = 0; d < 2; ++d) EXPECT_NEAR(j[d], j0[d], 1e-12);
}

// Two flat layers, fluid 1 in the middle half of y: after many steps they
// are still flat (uniform along x) and nearly pure, and the bulk densities
// meet the coexistence of the model's component momentum balance. At rest
// each component's pressure c_s^2 rho_s balances its cross force, to
// leading order in the gradients c_s^2 grad rho_1 = -G c_s^2 rho_1 grad rho_2,
// so ln rho_1 + G rho_2 is the same in both phases (and ln rho_2 + G rho_1).
// With the symmetric layers, majority M and minority m in both, that is
// ln(M / m) = G (M - m); given M, m is its root below M, found here by
// bisection.
TEST(LbmShanChenMixture, FlatLayersStaySeparatedAtTheCoexistenceDensities) {
  const Geometry g({8, 64});
  MixtureParameters p;
  p.coupling = 2.5;
  Mixture mix(g, p);
  Lattice<double, VectorWidth> rho1(g), rho2(g);
  const auto inside = [](const Coordinate& x) { return x[1] >= 16 && x[1] < 48; };
  fill(rho1, [&](const Coordinate& x) { return inside(x) ? 1.0 : 0.1; });
  fill(rho2, [&](const Coordinate& x) { return inside(x) ? 0.1 : 1.0; });
  mix.initialise(rho1, rho2);
  mix.run(4000);
  Lattice<double, VectorWidth> phi(g), r1(g), r2(g);
  phi = mix.composition();
  r1 = mix.density<0>();
  r2 = mix.density<1>();
  // Flat: every row the same along x.
  double row_spread = 0;
  for_each_coordinate(g, [&](const Coordinate& x) {
    row_spread = std::max(row_spread, std::abs(peek(phi, x) - peek(phi, Coordinate{0, x[1]})));
  });
  const double majority = peek(r1, Coordinate{0, 32}), minority = peek(r2, Coordinate{0, 32});
  const double outside_majority = peek(r2, Coordinate{0, 0}), outside_minority = peek(r1, Coordinate{0, 0});
  // m with ln(M / m) = G (M - m), 0 < m < M: the left side minus the right
  // falls from +infinity and changes sign once below M for G M > 1.
  const double G = p.coupling;
  const auto balance = [&](double m) { return std::log(majority / m) - G * (majority - m); };
  double low = 1e-9, high = 1.0 / G;  // balance is decreasing on (0, 1/G) and negative at 1/G for G M > 1 + ln(G M)
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (low + high);
    (balance(mid) > 0 ? low : high) = mid;
  }
  const double expected_minority = 0.5 * (low + high);
  std::printf("layers: phi in the middle %.6f, outside %.6f, row spread %.2e; majority %.6f, minority %.6f "
              "(balance: %.6f, off by %.2f %%)\n",
              peek(phi, Coordinate{0, 32}), peek(phi, Coordinate{0, 0}), row_spread, majority, minority,
              expected_minority, 100 * (minority / expected_minority - 1));
  EXPECT_LT(row_spread, 1e-10);
  EXPECT_GT(peek(phi, Coordinate{0, 32}), 0.9);
  EXPECT_LT(peek(phi, Coordinate{0, 0}), 0.1);
  EXPECT_NEAR(outside_majority, majority, 1e-6);  // the two phases mirror each other
  EXPECT_NEAR(outside_minority, minority, 1e-6);
  EXPECT_NEAR(minority / expected_minority, 1.0, 0.05);
}

// Beside a wall the density the collision sees is made of the streamed
// populations and, for each link from a solid cell, the bounced-back one
// f*_opp(i)(x) (half-way bounce-back at rest); the force must be that of
// this density, or a layered fluid between walls is driven by a force that
// does not match what collides (it then flows and does not come to rest).
// Summed here site by site from the stored populations; on solid cells,
// the density of the cell's own record.
TEST(LbmShanChenMixture, DensitiesBesideWallsAreThoseTheCollisionSees) {
  const Geometry g({8, 16});
  Mixture mix(g, MixtureParameters{});
  Mixture::Boundary walls(g);
  walls = zero;
  const auto solid = [](const Coordinate& x) { return x[1] == 0 || x[1] >= 13; };
  mark_solid(walls, solid);
  mix.set_boundary(walls);
  Lattice<double, VectorWidth> rho1(g), rho2(g);
  ParallelRng(9).uniform(rho1, 0.1, 1.0);
  ParallelRng(10).uniform(rho2, 0.1, 1.0);
  mix.initialise(rho1, rho2);  // computes the densities and the force once
  double largest = 0;
  for_each_coordinate(g, [&](const Coordinate& x) {
    const auto computed = peek(mix.densities_after_streaming(), x);
    for (int s = 0; s < 2; ++s) {
      const auto& f = mix.populations(s);
      double expected = 0;
      for (int i = 0; i < D2Q9::q; ++i) {
        const Coordinate up = displaced(x, Coordinate{-D2Q9::c[i][0], -D2Q9::c[i][1]}, g.dims());
        if (solid(x)) expected += peek(f, x).v[i];
        else if (solid(up)) expected += peek(f, x).v[D2Q9::opposite[i]];
        else expected += peek(f, up).v[i];
      }
      largest = std::max(largest, std::abs(computed.v[s] - expected));
    }
  });
  EXPECT_LT(largest, 1e-15);
}

// Layered Poiseuille flow: walls (half-way bounce-back) at y = 1/2 and
// y = H + 1/2, fluid 2 along both walls and fluid 1 in the core, driven by
// the same acceleration g along x on both components. With s the distance
// from the mid-plane, h = H / 2 the half-width and b the core's half-width,
// the shear stress balances the force, rho nu du/ds = -rho g s, and velocity
// and stress are continuous at |s| = b (nu_w, nu_c: the layers' viscosities):
//   wall layer  u(s) = g (h^2 - s^2) / (2 nu_w),                 b <= |s| <= h
//   core        u(s) = g (h^2 - b^2) / (2 nu_w) + g (b^2 - s^2) / (2 nu_c)
// Pure fluid 2 has tau = 1/2 + sqrt(3/16), where BGK's half-way wall lies
// exactly half-way (its magic parameter (tau - 1/2)^2 = 3/16; the wall
// layer's dissolved fluid 1 moves it a little), so what is left is mostly
// the diffuse interface. G = 3 keeps the layers purer than G = 2.5 (about 5 %
// of the other fluid instead of 11 %) and the interfaces steadier.
struct LayeredResult {
  double error;      // largest |u - u_exact| / max u_exact
  double core_error; // the same at the centre line
};

LayeredResult layered_poiseuille(int half_width, double viscosity_ratio, bool print) {
  const int H = 2 * half_width;
  const int ny = (H + 2 + 7) / 8 * 8;  // two wall rows, extents the SIMD layout divides
  const Geometry g({8, ny});
  MixtureParameters p;
  const double nu2 = std::sqrt(3.0 / 16.0) / 3.0;  // tau_2 - 1/2 = sqrt(3/16)
  const double nu1 = viscosity_ratio * nu2;
  p.tau[0] = tau_from_viscosity(nu1);
  p.tau[1] = tau_from_viscosity(nu2);
  p.coupling = 3.0;
  const double accel = 1e-6 * 16.0 * 16.0 / (half_width * half_width);  // u_max about 1e-2
  p.gravity[0][0] = p.gravity[1][0] = accel;
  Mixture mix(g, p);
  Mixture::Boundary walls(g);
  walls = zero;
  mark_solid(walls, [&](const Coordinate& x) { return x[1] == 0 || x[1] > H; });
  mix.set_boundary(walls);
  // Fluid rows 1..H; the core is the middle half, b = h / 2. The walls are
  // initialised as fluid 2, so fluid 2 wets them.
  const double b = 0.5 * half_width, centre = 0.5 * (H + 1);
  const auto core = [&](const Coordinate& x) { return x[1] >= 1 && std::abs(x[1] - centre) < b; };
  const double major = 1.0, minor = 0.08;
  Lattice<double, VectorWidth> rho1(g), rho2(g);
  fill(rho1, [&](const Coordinate& x) { return core(x) ? major : minor; });
  fill(rho2, [&](const Coordinate& x) { return core(x) ? minor : major; });
  mix.initialise(rho1, rho2);
  const double m1 = mix.mass<0>(), m2 = mix.mass<1>();
  // Each layer is not quite pure: at coexistence (the balance of the test
  // above, ln(M / m) = G (M - m), with M + m = major + minor, the densities
  // the layers start with) it holds a little of the other fluid, and its
  // viscosity is the model's rule at that composition,
  // nu = phi nu_1 + (1 - phi) nu_2. The force and the dynamic viscosity
  // both carry the local density, which cancels in a uniform layer.
  const double total = major + minor, G = p.coupling;
  double low = 0.5 * total, high = total;  // M: ln(M / (T - M)) - G (2 M - T) changes sign once above T / 2
  for (int k = 0; k < 200; ++k) {
    const double M = 0.5 * (low + high);
    (std::log(M / (total - M)) - G * (2 * M - total) < 0 ? low : high) = M;
  }
  const double phi_core = 0.5 * (low + high) / total;  // fluid 1's share in the core
  const double nu_core = phi_core * nu1 + (1 - phi_core) * nu2;
  const double nu_wall = (1 - phi_core) * nu1 + phi_core * nu2;
  const double h = half_width;
  const auto exact = [&](double s) {
    s = std::abs(s);
    if (s >= b) return accel * (h * h - s * s) / (2 * nu_wall);
    return accel * (h * h - b * b) / (2 * nu_wall) + accel * (b * b - s * s) / (2 * nu_core);
  };
  const double viscous_time = h * h / std::min(nu1, nu2);
  const long steps = static_cast<long>(4 * viscous_time);
  mix.run(steps);
  Mixture::VectorField u(g);
  u = mix.velocity();
  const std::vector<double> ux = gather_component(u, 0);
  const double peak = exact(0);
  LayeredResult r{0, 0};
  for (int y = 1; y <= H; ++y) {
    const double s = y - centre, measured = ux[static_cast<std::size_t>(y) * 8];
    r.error = std::max(r.error, std::abs(measured - exact(s)) / peak);
    if (print) std::printf("  y %3d  u %.6e  exact %.6e\n", y, measured, exact(s));
  }
  r.core_error = std::abs(ux[static_cast<std::size_t>(half_width) * 8] - exact(half_width - centre)) / peak;
  // Round-off: each step's collision rounds every population once.
  EXPECT_NEAR(mix.mass<0>() / m1, 1.0, 1e-16 * steps);
  EXPECT_NEAR(mix.mass<1>() / m2, 1.0, 1e-16 * steps);
  return r;
}

// The error is the interface's: a few cells where the viscosity and the
// density (which dips there) differ from either layer's. It falls as the
// channel widens with the interface's width fixed, about as 1 / h.
TEST(LbmShanChenMixture, LayeredPoiseuilleFollowsThePiecewiseParabola) {
  double previous = 1;
  for (int h : {8, 16, 32}) {
    const LayeredResult r = layered_poiseuille(h, 3.0, false);
    std::printf("layered Poiseuille, viscosity ratio 3, half-width %d: largest error %.3f %%, at the centre %.3f %%\n",
                h, 100 * r.error, 100 * r.core_error);
    EXPECT_LT(r.error, 0.7 * previous) << "the error should shrink as the channel widens";
    previous = r.error;
  }
  EXPECT_LT(previous, 0.02);
}

}  // namespace
}  // namespace latte::testing
