// Curved walls (solvers/lbm/walls/curved_walls.hpp): the wall fractions of a
// circle are its exact link intersections; walls cut exactly half-way give
// the half-way bounce-back bit for bit; Poiseuille flow between walls at
// arbitrary off-lattice positions converges at second order; and the
// momentum-exchange force on the walls balances the body force.

#include <cmath>
#include <vector>

#include "lbm_flow_support.hpp"
#include "solvers/lbm/io/field_export.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

TEST(LbmCurvedWalls, CircleFractionsAreTheLinkIntersections) {
  const Geometry g({24, 24});
  BoundaryField<double, 2, VectorWidth> b(g);
  WallLinkField<D2Q9, double, VectorWidth> links(g);
  const double cx = 11.3, cy = 12.6, r = 5.2;
  mark_curved_obstacle<D2Q9>(b, links, [&](const std::array<double, 2>& x) { return std::hypot(x[0] - cx, x[1] - cy) - r; });
  int wall_links = 0;
  for (int y = 0; y < 24; ++y)
    for (int x = 0; x < 24; ++x) {
      const bool inside = std::hypot(x - cx, y - cy) < r;
      EXPECT_EQ(peek(b, {x, y}).v[0], inside ? 1.0 : 0.0) << x << ' ' << y;
      if (inside) continue;
      const auto q = peek(links, {x, y});
      for (int k = 1; k < D2Q9::q; ++k) {
        // x - t c_k on the circle: |p - t c|^2 = r^2 with p = x - centre.
        const double px = x - cx, py = y - cy, c0 = D2Q9::c[k][0], c1 = D2Q9::c[k][1];
        const double a = c0 * c0 + c1 * c1, half_b = -(px * c0 + py * c1), c = px * px + py * py - r * r;
        const double discriminant = half_b * half_b - a * c;
        const bool crosses = std::hypot(x - c0 - cx, y - c1 - cy) < r;
        if (!crosses) {
          EXPECT_EQ(q.v[k], 0.0);
          continue;
        }
        ++wall_links;
        const double t = (-half_b - std::sqrt(discriminant)) / a;  // the nearer root
        EXPECT_NEAR(q.v[k], t, 1e-10) << "site " << x << ' ' << y << " link " << k;
      }
    }
  EXPECT_GT(wall_links, 40);
}

// A channel across y between walls at y_low and y_high (off-lattice), driven
// along x; with_curved false marks the same rows as half-way walls.
template <class VS, class Model>
struct Channel {
  Geometry g;
  Simulation<VS, double, Model, VectorWidth> sim;
  typename decltype(sim)::Boundary b;
  WallLinkField<VS, double, VectorWidth> links;
  static Coordinate extents(int rows) {
    Coordinate dims(VS::d, 4);
    dims[1] = rows;
    return dims;
  }
  Channel(int rows, double y_low, double y_high, const Parameters& p, bool with_curved)
      : g(extents(rows)), sim(g, p), b(g), links(g) {
    auto distance = [&](const std::array<double, VS::d>& x) { return std::min(x[1] - y_low, y_high - x[1]); };
    if (with_curved) {
      mark_curved_obstacle<VS>(b, links, distance);
      sim.set_boundary(b);
      sim.set_curved_walls(links);
    } else {
      mark_solid(b, [&](const Coordinate& x) { return x[1] < y_low || x[1] > y_high; });
      sim.set_boundary(b);
    }
  }
};

template <class VS>
void expect_half_way_fractions_give_half_way_bounce_back() {
  const int width = 12;
  Parameters p;
  p.tau = 0.7;
  p.force[0] = 1e-5;
  Channel<VS, Trt> curved(width + 4, -0.5, width - 0.5, p, true), half_way(width + 4, -0.5, width - 0.5, p, false);
  ParallelRng rng(3);
  typename decltype(curved.sim)::PopulationField noise(curved.g);
  rng.uniform(noise, 0.0, 0.01);
  curved.sim.populations() = curved.sim.populations() + noise;
  half_way.sim.populations() = half_way.sim.populations() + noise;
  curved.sim.run(150);
  half_way.sim.run(150);
  for (int i = 0; i < VS::q; ++i)
    EXPECT_TRUE(gather_component(curved.sim.populations(), i) == gather_component(half_way.sim.populations(), i))
        << VS::name << " population " << i;
}

TEST(LbmCurvedWalls, HalfWayFractionsAreTheHalfWayBounceBackBitForBit) {
  expect_half_way_fractions_give_half_way_bounce_back<D2Q9>();
  expect_half_way_fractions_give_half_way_bounce_back<D3Q19>();
}

// Relative L2 error of the steady Poiseuille profile between walls at
// -0.8 and n - 0.7 (fractions 0.8 and 0.3), and the wall force balance.
template <class VS>
double off_lattice_poiseuille_error(int n, double* force_balance) {
  // tau = 1.2 (nu = 0.23): the steady state comes 2.3 times sooner than at
  // tau = 0.8, which matters on the per-lane (simt) backend.
  const double y_low = -0.8, y_high = n - 0.7, tau = 1.2, nu = viscosity_from_tau(tau);
  const double width = y_high - y_low, u_max = 0.01;
  Parameters p;
  p.tau = tau;
  p.force[0] = 8.0 * nu * u_max / (width * width);
  Channel<VS, Trt> channel(n + 8, y_low, y_high, p, true);
  EXPECT_TRUE(run_to_steady_state(channel.sim, 1e-11, 200000));
  const auto profile = velocity_profile(channel.sim, 1, 0, n);
  Lattice<double, VectorWidth> fluid(channel.g), walls(channel.g);
  fluid = 1.0 - element<0>(channel.b);
  walls = element<0>(channel.b);
  const auto force = sum(curved_momentum_exchange<VS>(channel.sim.populations(), channel.b, channel.links, fluid, walls));
  const double body_force = p.force[0] * sum(fluid);
  *force_balance = std::abs(force.v[0] - body_force) / body_force;
  return relative_l2_error(profile, [&](int k) { return p.force[0] / (2.0 * nu) * (k - y_low) * (y_high - k); });
}

template <class VS>
void expect_off_lattice_poiseuille_at_second_order() {
  double balance[3];
  const double e8 = off_lattice_poiseuille_error<VS>(8, &balance[0]);
  const double e16 = off_lattice_poiseuille_error<VS>(16, &balance[1]);
  const double e32 = off_lattice_poiseuille_error<VS>(32, &balance[2]);
  const double order1 = std::log2(e8 / e16), order2 = std::log2(e16 / e32);
  std::printf("%s off-lattice Poiseuille (walls cut at 0.8 and 0.3 of a link): L2 errors %.3e %.3e %.3e, orders %.2f "
              "%.2f; wall force over body force - 1: %.1e %.1e %.1e\n",
              VS::name, e8, e16, e32, order1, order2, balance[0], balance[1], balance[2]);
  EXPECT_LT(e32, 2e-3);
  EXPECT_GT(order1, 1.8);
  EXPECT_GT(order2, 1.8);
  for (double b : balance) EXPECT_LT(b, 1e-6);
}

TEST(LbmCurvedWalls, OffLatticePoiseuilleConvergesAtSecondOrderAndTheWallForceBalances) {
  expect_off_lattice_poiseuille_at_second_order<D2Q9>();
  expect_off_lattice_poiseuille_at_second_order<D3Q19>();
}

TEST(LbmCurvedWalls, LinkFieldOfAnotherLatticeIsRejected) {
  Parameters p;
  Simulation<D2Q9, double, Trt, VectorWidth> sim(Geometry({8, 8}), p);
  WallLinkField<D2Q9, double, VectorWidth> links(Geometry({8, 16}));
  EXPECT_THROW(sim.set_curved_walls(links), std::logic_error);  // no boundary field yet
  typename decltype(sim)::Boundary b(sim.geometry());
  sim.set_boundary(b);
  EXPECT_THROW(sim.set_curved_walls(links), std::invalid_argument);
}

}  // namespace
}  // namespace latte::testing
