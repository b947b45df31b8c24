// Curved thermal walls (solvers/lbm/thermal/thermal_curved_walls.hpp), D2Q5 at
// rest, against conduction solutions written out here:
//   - between concentric cylinders at fixed temperatures,
//       T(r) = T1 + (T2 - T1) ln(r / r1) / ln(r2 / r1),
//     second order in the lattice spacing (the staircase of half-way walls
//     is first order, and worse);
//   - with a heat flux q_w into the fluid on the inner cylinder,
//       T(r) = T2 + (q_w r1 / alpha) ln(r2 / r),
//     where the heat flows along the normal;
//   - around an insulated cylinder of radius a in a uniform gradient G
//     along x, T = G (r + a^2 / r) cos(theta), which has dT/dr = 0 at
//     r = a; the box's walls hold T at its values;
// and the rules' consistency: straight walls cut half-way give the half-
// way rule's bits, the curved step agrees on every SIMD layout and on the
// simt lowering, the marks refuse mismatched fields and the curved step
// is refused in place. Each lattice's problem is the same continuum one
// scaled by its size N, so that the errors show the order.

#include <cmath>
#include <cstdio>
#include <numbers>

#include "solvers/lbm/thermal/thermal.hpp"
#include "test_support.hpp"
#include "thermal_lowering_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;
using CurvedHeat = ThermalSimulation<D2Q5, double, VectorWidth>;
using Point = std::array<double, 2>;

// Runs until no site's temperature moves by more than 1e-13 (relative to
// `scale`) in 200 steps; fails beyond a limit.
void run_to_steady_state(CurvedHeat& heat, double scale) {
  CurvedHeat::ScalarField before(heat.geometry()), now(heat.geometry());
  now = heat.temperature();
  for (int chunk = 0; chunk < 2000; ++chunk) {
    before = now;
    heat.run(RealVector<double, 2>{}, 200);
    now = heat.temperature();
    if (maxval(abs(now - before)) < 1e-13 * scale) return;
  }
  FAIL() << "no steady state after " << heat.time() << " steps";
}

// The root-mean-square of T - exact(x) over the sites where fluid(x), over
// `scale`.
template <class Fluid, class Exact>
double rms_error(const CurvedHeat& heat, Fluid fluid, Exact exact, double scale) {
  CurvedHeat::ScalarField t(heat.geometry());
  t = heat.temperature();
  double sum = 0;
  long sites = 0;
  for_each_coordinate(heat.geometry(), [&](const Coordinate& x) {
    const Point p{double(x[0]), double(x[1])};
    if (!fluid(p)) return;
    const double error = peek(t, x) - exact(p);
    sum += error * error;
    ++sites;
  });
  return std::sqrt(sum / sites) / scale;
}

// The annulus between r1 = 0.19 N and r2 = 0.43 N about a centre off the
// lattice's symmetry, so that the links are cut at every fraction.
struct Annulus {
  int n;
  double cx() const { return 0.4937 * n; }
  double cy() const { return 0.4871 * n; }
  double r1() const { return 0.19 * n; }
  double r2() const { return 0.43 * n; }
  double radius(const Point& p) const { return std::hypot(p[0] - cx(), p[1] - cy()); }
  // Negative inside the inner cylinder, and outside the outer one.
  auto inner() const {
    return [*this](const Point& p) { return radius(p) - r1(); };
  }
  auto outer() const {
    return [*this](const Point& p) { return r2() - radius(p); };
  }
  bool fluid(const Point& p) const { return radius(p) >= r1() && radius(p) <= r2(); }
};

constexpr double tau_t = 0.8;  // alpha = (1/3)(0.8 - 0.5) = 0.1

enum class Marking { curved, staircase };

// Fixed temperatures t1 on the inner, t2 on the outer cylinder.
double annulus_fixed_error(int n, Marking marking) {
  const Annulus a{n};
  const double t1 = 1.0, t2 = 0.0;
  const Geometry g({n, n});
  CurvedHeat heat(g, tau_t);
  CurvedHeat::Boundary b(g);
  if (marking == Marking::curved) {
    CurvedHeat::WallLinkField links(g);
    mark_curved_fixed_temperature<D2Q5>(b, links, a.inner(), t1);
    mark_curved_fixed_temperature<D2Q5>(b, links, a.outer(), t2);
    heat.set_boundary(b);
    heat.set_curved_walls(links);
  } else {
    auto at = [](const Coordinate& x) { return Point{double(x[0]), double(x[1])}; };
    mark_fixed_temperature(b, [&](const Coordinate& x) { return a.inner()(at(x)) < 0; }, t1);
    mark_fixed_temperature(b, [&](const Coordinate& x) { return a.outer()(at(x)) < 0; }, t2);
    heat.set_boundary(b);
  }
  heat.initialise(0.5);
  run_to_steady_state(heat, 1.0);
  const auto exact = [&](const Point& p) { return t1 + (t2 - t1) * std::log(a.radius(p) / a.r1()) / std::log(a.r2() / a.r1()); };
  return rms_error(heat, [&](const Point& p) { return a.fluid(p); }, exact, std::abs(t1 - t2));
}

TEST(LbmThermalCurvedWalls, ConcentricCylindersAtFixedTemperaturesConvergeAtSecondOrder) {
  const double coarse = annulus_fixed_error(32, Marking::curved), fine = annulus_fixed_error(64, Marking::curved);
  const double staircase = annulus_fixed_error(64, Marking::staircase);
  const double order = std::log2(coarse / fine);
  std::printf("concentric cylinders, fixed T: rms error / (T1 - T2) %.3e (N = 32), %.3e (N = 64), order %.2f; "
              "half-way staircase at N = 64: %.3e\n",
              coarse, fine, order, staircase);
  EXPECT_GT(order, 1.8);
  EXPECT_LT(fine, 2e-3);
  EXPECT_LT(fine, 0.25 * staircase);  // the curved walls are worth having
}

// A heat flux into the fluid through the inner cylinder, the outer at t2.
double annulus_flux_error(int n) {
  const Annulus a{n};
  const double t2 = 0.0;
  const double alpha = diffusivity_from_tau<D2Q5>(tau_t);
  const double heat_flux = alpha / (a.r1() * std::log(a.r2() / a.r1()));  // a rise of 1 across the gap
  const Geometry g({n, n});
  CurvedHeat heat(g, tau_t);
  CurvedHeat::Boundary b(g);
  CurvedHeat::WallLinkField links(g);
  mark_curved_heat_flux<D2Q5>(b, links, a.inner(), heat_flux);
  mark_curved_fixed_temperature<D2Q5>(b, links, a.outer(), t2);
  heat.set_boundary(b);
  heat.set_curved_walls(links);
  heat.initialise(0.5);
  run_to_steady_state(heat, 1.0);
  const auto exact = [&](const Point& p) { return t2 + heat_flux * a.r1() / alpha * std::log(a.r2() / a.radius(p)); };
  return rms_error(heat, [&](const Point& p) { return a.fluid(p); }, exact, 1.0);
}

TEST(LbmThermalCurvedWalls, HeatFluxThroughACylinderConverges) {
  const double coarse = annulus_flux_error(32), fine = annulus_flux_error(64);
  const double order = std::log2(coarse / fine);
  std::printf("concentric cylinders, heat flux on the inner: rms error / (T(r1) - T2) %.3e (N = 32), %.3e (N = 64), "
              "order %.2f\n",
              coarse, fine, order);
  EXPECT_GT(order, 0.9);
  EXPECT_LT(fine, 3e-3);
}

// An insulated cylinder of radius 0.2 N at the centre of an N x N box
// whose frame of solid cells holds T at the solution's values on the
// half-way walls.
double insulated_cylinder_error(int n) {
  const double cx = 0.5013 * n - 0.5, cy = 0.4958 * n - 0.5, radius = 0.2 * n, gradient = 1.0 / n;
  const auto exact = [&](const Point& p) {
    const double dx = p[0] - cx, dy = p[1] - cy, r2 = dx * dx + dy * dy;
    return gradient * dx * (1.0 + radius * radius / r2);  // G (r + a^2 / r) cos(theta)
  };
  const Geometry g({n, n});
  CurvedHeat heat(g, tau_t);
  CurvedHeat::Boundary b(g);
  CurvedHeat::WallLinkField links(g);
  const auto frame = [&](const Coordinate& x) { return x[0] == 0 || x[1] == 0 || x[0] == n - 1 || x[1] == n - 1; };
  mark_fixed_temperature(b, frame, [&](const Coordinate& x) {  // at the wall point, half-way to the fluid
    const auto inward = [&](int k) { return x[k] == 0 ? 0.5 : x[k] == n - 1 ? n - 1.5 : double(x[k]); };
    return exact(Point{inward(0), inward(1)});
  });
  mark_curved_adiabatic<D2Q5>(b, links, [&](const Point& p) { return std::hypot(p[0] - cx, p[1] - cy) - radius; });
  heat.set_boundary(b);
  heat.set_curved_walls(links);
  heat.initialise(0.0);
  run_to_steady_state(heat, 1.0);
  return rms_error(
      heat,
      [&](const Point& p) {
        return p[0] > 0 && p[1] > 0 && p[0] < n - 1 && p[1] < n - 1 && std::hypot(p[0] - cx, p[1] - cy) >= radius;
      },
      exact, 1.0);
}

TEST(LbmThermalCurvedWalls, InsulatedCylinderInAGradientConverges) {
  const double coarse = insulated_cylinder_error(32), fine = insulated_cylinder_error(64);
  const double order = std::log2(coarse / fine);
  std::printf("insulated cylinder in a uniform gradient: rms error / (G N) %.3e (N = 32), %.3e (N = 64), order %.2f\n",
              coarse, fine, order);
  EXPECT_GT(order, 0.9);
  EXPECT_LT(fine, 3e-3);
}

// Plates across y cut exactly half-way (q = 1/2, c_k.n = 1) give the bits
// of half-way walls on the same cells, for each kind of wall.
TEST(LbmThermalCurvedWalls, StraightWallsCutHalfWayGiveTheHalfWayBits) {
  const int nx = 8, ny = 12;
  const Geometry g({nx, ny});
  const auto case_with = [&](bool curved) {
    CurvedHeat heat(g, 0.7);
    CurvedHeat::Boundary b(g);
    CurvedHeat::WallLinkField links(g);
    const auto temperature = [](const Coordinate& x) { return 1.0 + 0.1 * x[0]; };
    if (curved) {  // walls at y = 0.5 and y = ny - 1.5
      mark_curved_fixed_temperature<D2Q5>(b, links, [](const Point& p) { return p[1] - 0.5; }, temperature);
      mark_curved_heat_flux<D2Q5>(b, links, [&](const Point& p) { return ny - 1.5 - p[1]; }, -2e-3);
      heat.set_boundary(b);
      heat.set_curved_walls(links);
    } else {
      mark_fixed_temperature(b, [](const Coordinate& x) { return x[1] == 0; }, temperature);
      mark_heat_flux(b, [&](const Coordinate& x) { return x[1] == ny - 1; }, -2e-3);
      heat.set_boundary(b);
    }
    CurvedHeat::ScalarField t(g);
    fill(t, [](const Coordinate& x) { return 1.0 + 0.05 * std::sin(0.7 * x[0] + 0.3 * x[1]); });
    heat.initialise(t, RealVector<double, 2>{});
    CurvedHeat::VectorField u(g);
    fill(u, [](const Coordinate& x) { return RealVector<double, 2>{{0.02 * std::sin(0.5 * x[1]), 0.0}}; });
    heat.run(u, 40);
    return heat;
  };
  const auto curved = case_with(true), half_way = case_with(false);
  EXPECT_TRUE(fields_near(curved.populations(), half_way.populations(), 0.0));  // the same bits
}

// A cylinder at a fixed temperature and one letting heat through, in a
// sheared flow, from a random start: the curved step on the SIMD layout,
// on the scalar layout and per lane (the simt lowering).
template <class Width>
ThermalSimulation<D2Q5, double, Width> random_curved_case(const Geometry& g) {
  using Heat = ThermalSimulation<D2Q5, double, Width>;
  Heat heat(g, 0.7);
  typename Heat::Boundary b(g);
  typename Heat::WallLinkField links(g);
  mark_curved_fixed_temperature<D2Q5>(b, links, [](const Point& p) { return std::hypot(p[0] - 4.3, p[1] - 5.6) - 2.2; },
                                      1.2);
  mark_curved_heat_flux<D2Q5>(b, links, [](const Point& p) { return std::hypot(p[0] - 11.4, p[1] - 9.7) - 3.1; }, 5e-3);
  heat.set_boundary(b);
  heat.set_curved_walls(links);
  start_from_random_temperature(heat, 11);
  return heat;
}

TEST(LbmThermalCurvedWalls, SameOnEveryLowering) {
  const Geometry g({16, 16});
  expect_thermal_step_same_on_every_lowering(
      g, [&](auto width) { return random_curved_case<decltype(width)>(g); });
}

TEST(LbmThermalCurvedWalls, MisuseIsRefused) {
  const Geometry g({8, 8}), other({8, 10});
  CurvedHeat::Boundary b(g);
  CurvedHeat::WallLinkField links(g), elsewhere(other);
  const auto disk = [](const Point& p) { return std::hypot(p[0] - 3.6, p[1] - 4.2) - 1.7; };
  EXPECT_NE(error_of<GeometryMismatch>([&] { mark_curved_adiabatic<D2Q5>(b, elsewhere, disk); }).find("wall-link field"),
            std::string::npos);
  mark_curved_adiabatic<D2Q5>(b, links, disk);
  CurvedHeat two_lattices(g, 0.7), one_field(g, 0.7, in_place_streaming);
  EXPECT_NE(error_of<std::logic_error>([&] { two_lattices.set_curved_walls(links); }).find("set_boundary before"),
            std::string::npos);
  one_field.set_boundary(b);
  EXPECT_NE(error_of<std::logic_error>([&] { one_field.set_curved_walls(links); }).find("two-lattice"),
            std::string::npos);
  two_lattices.set_boundary(b);
  EXPECT_NE(error_of<GeometryMismatch>([&] { two_lattices.set_curved_walls(elsewhere); }).find("link field"),
            std::string::npos);
}

}  // namespace
}  // namespace latte::testing
