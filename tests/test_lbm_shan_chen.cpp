// The single-component Shan–Chen model (solvers/lbm/multiphase/shan_chen.hpp): the
// force statement against a site-by-site sum, the bulk pressure against
// the equations of state written here, a flat interface's coexistence
// densities against the equal-area rule of the model and, with
// Kupershtokh's mixed force, against its own rule and Maxwell's
// construction, Laplace's law for drops of three radii, mass to round-off
// and bounded spurious currents.
// One simulation type, D2Q9 BGK in double, so set_force compiles once.

#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <vector>

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/multiphase/shan_chen.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;
using PhaseSim = Simulation<D2Q9, double, Bgk, VectorWidth>;
using ScalarField = PhaseSim::ScalarField;
using VectorField = PhaseSim::VectorField;

// The equations of state, written here independently of the header.
// Original psi: p = rho/3 + (G/6) psi^2, psi = 1 - exp(-rho) (rho0 = 1).
struct ExponentialReference {
  double coupling;
  double psi(double rho) const { return 1.0 - std::exp(-rho); }
  double pressure(double rho) const { return rho / 3.0 + coupling / 6.0 * psi(rho) * psi(rho); }
};
// Carnahan–Starling with a, b, R = 1, 4, 1; psi from p = rho/3 + (G/6) psi^2.
struct CarnahanStarlingReference {
  double temperature;
  double coupling = -1.0;
  double pressure(double rho) const {
    const double eta = rho;  // b rho / 4 with b = 4
    return rho * temperature * (1 + eta + eta * eta - eta * eta * eta) / std::pow(1 - eta, 3) - rho * rho;
  }
  double psi(double rho) const { return std::sqrt(6.0 * (pressure(rho) - rho / 3.0) / coupling); }
};

// The coexistence densities of a flat interface by an equal-area rule:
// p(rho_g) = p(rho_l) = p0 and
//   int_{rho_g}^{rho_l} (p0 - p(rho)) psi'(rho) / psi(rho)^power drho = 0.
// Which power is right depends on the whole scheme, not on the equation of
// state alone:
//   - Maxwell's thermodynamic rule is equal areas in 1/rho (psi = rho,
//     power 2): the Shan–Chen model does not obey it (it has no free
//     energy), so it is not the reference.
//   - The force alone, Taylor-expanded on D2Q9 to third order,
//     F_y = -G psi (c_s^2 psi_y + (c_s^4 / 2) psi_yyy), balances the normal
//     pressure p + (G c_s^4 / 2)(psi psi_yy - psi_y^2 / 2), which gives
//     power 2 (equal areas in 1/psi; Shan & Chen 1994, Shan 2008). That
//     holds for the original velocity-shift forcing at tau = 1.
//   - With Guo's forcing, as here, the scheme's own second-order terms
//     change the psi_y^2 coefficient (the forcing scheme moves this
//     exponent: Huang, Krafczyk & Lu 2011; Li, Luo & Li 2012), and the
//     flat interface follows power 1, equal areas in ln psi. That is the
//     reference below: after 8000 steps the lattice meets it to 2.4e-3
//     (original psi; still oscillating slowly, 2e-5 after 30000 steps)
//     and 2e-4 (Carnahan–Starling), where power 2 misses the vapour
//     density by 24 % and 23 %; the test prints both.
// Solved by bisection on p0 between the spinodal pressures, each bracket's
// roots by bisection, the integral by Simpson's rule.
struct Coexistence {
  double gas, liquid, pressure;
};

// The coexistence of an equal-area rule int (p0 - p) weight(rho) drho = 0
// for any weight; the integral in ln rho, so that a vapour density near
// zero is resolved.
template <class Eos, class Weight>
Coexistence equal_area_weighted(const Eos& eos, double low, double high, const Weight& weight) {
  const auto derivative = [&](double rho) { return (eos.pressure(rho + 1e-7) - eos.pressure(rho - 1e-7)) / 2e-7; };
  // The spinodals: dp/drho = 0 at a local maximum (gas side) then a minimum.
  const auto bisect = [](const std::function<double(double)>& f, double a, double b) {
    double fa = f(a);
    for (int k = 0; k < 200; ++k) {
      const double m = 0.5 * (a + b), fm = f(m);
      if ((fm < 0) == (fa < 0)) {
        a = m;
        fa = fm;
      } else {
        b = m;
      }
    }
    return 0.5 * (a + b);
  };
  double maximum = 0, minimum = 0;
  const int samples = 4000;
  for (int k = 1; k < samples; ++k) {
    const double r0 = low + (high - low) * (k - 1) / samples, r1 = low + (high - low) * k / samples;
    if (maximum == 0 && derivative(r0) > 0 && derivative(r1) <= 0) maximum = bisect(derivative, r0, r1);
    if (maximum != 0 && minimum == 0 && derivative(r0) < 0 && derivative(r1) >= 0) minimum = bisect(derivative, r0, r1);
  }
  EXPECT_GT(maximum, 0.0) << "no van der Waals loop";
  EXPECT_GT(minimum, maximum);
  const auto roots = [&](double p0) {
    const auto shifted = [&](double rho) { return eos.pressure(rho) - p0; };
    return std::pair{bisect(shifted, low, maximum), bisect(shifted, minimum, high)};
  };
  // int (p0 - p) weight drho by Simpson's rule in ln rho.
  const auto area = [&](double p0) {
    const auto [gas, liquid] = roots(p0);
    const int n = 4000;
    const double start = std::log(gas), h = (std::log(liquid) - start) / n;
    const auto integrand = [&](double log_rho) {
      const double rho = std::exp(log_rho);
      return (p0 - eos.pressure(rho)) * weight(rho) * rho;
    };
    double s = integrand(start) + integrand(start + n * h);
    for (int k = 1; k < n; ++k) s += (k % 2 ? 4 : 2) * integrand(start + k * h);
    return s * h / 3;
  };
  // p0 between the spinodal pressures, and above p(low), so that the
  // vapour root stays inside [low, maximum].
  const double p_low = std::max(eos.pressure(minimum), 2 * eos.pressure(low)), p_high = eos.pressure(maximum);
  const double p0 = bisect(area, p_low + 1e-12 * p_high, p_high - 1e-12 * p_high);
  const auto [gas, liquid] = roots(p0);
  return {gas, liquid, p0};
}

// Equal areas with weight psi' / psi^power.
template <class Eos>
Coexistence equal_area(const Eos& eos, double low, double high, double power) {
  return equal_area_weighted(eos, low, high, [&](double rho) {
    // A relative step: the vapour root may lie far below 1e-7.
    const double dpsi = (eos.psi(rho * (1 + 1e-6)) - eos.psi(rho * (1 - 1e-6))) / (2e-6 * rho);
    return dpsi / std::pow(eos.psi(rho), power);
  });
}

// Maxwell's construction: equal areas in 1/rho, weight 1 / rho^2.
template <class Eos>
Coexistence maxwell(const Eos& eos, double low, double high) {
  return equal_area_weighted(eos, low, high, [](double rho) { return 1.0 / (rho * rho); });
}

// F(x) = -G [(1 - 2A) psi(x) sum_i w_i psi(x + c_i) c_i
// + A sum_i w_i psi(x + c_i)^2 c_i], summed here site by site with
// periodic wrap, against the fused statement on a random psi field; D2Q9
// and D3Q19 (the statement is written once for any velocity set), the
// plain force (A = 0) and a mixed one.
template <class VS>
double largest_force_error(const Geometry& g, double mixing) {
  Lattice<double, VectorWidth> psi(g);
  ParallelRng rng(5);
  rng.uniform(psi, 0.2, 0.9);
  auto model = shan_chen_exponential(-5.0);
  model.mixing = mixing;
  Lattice<RealVector<double, VS::d>, VectorWidth> force(g);
  force = shan_chen_force<VS>(model, psi);
  double largest = 0;
  for_each_coordinate(g, [&](const Coordinate& x) {
    double sum[VS::d] = {}, squares[VS::d] = {};
    for (int i = 0; i < VS::q; ++i) {
      Coordinate c(VS::d);
      for (int d = 0; d < VS::d; ++d) c[d] = VS::c[i][d];
      const double neighbour = peek(psi, displaced(x, c, g.dims()));
      for (int d = 0; d < VS::d; ++d) {
        sum[d] += VS::w[i] * neighbour * VS::c[i][d];
        squares[d] += VS::w[i] * neighbour * neighbour * VS::c[i][d];
      }
    }
    const auto f = peek(force, x);
    for (int d = 0; d < VS::d; ++d) {
      const double expected = 5.0 * ((1 - 2 * mixing) * peek(psi, x) * sum[d] + mixing * squares[d]);
      largest = std::max(largest, std::abs(f.v[d] - expected));
    }
  });
  return largest;
}

TEST(LbmShanChen, ForceStatementMatchesTheSumOverNeighbours) {
  for (double mixing : {0.0, -0.3}) {
    EXPECT_LT(largest_force_error<D2Q9>(Geometry({8, 16}), mixing), 1e-15) << "A " << mixing;
    EXPECT_LT(largest_force_error<D3Q19>(Geometry({8, 8, 16}), mixing), 1e-15) << "A " << mixing;
  }
}

// The bulk pressure (expression and host function) is the equation of
// state written above; Yuan–Schaefer's psi gives back Carnahan–Starling.
TEST(LbmShanChen, BulkPressureIsTheEquationOfState) {
  const Geometry g({8, 8});
  ScalarField rho(g), p(g);
  ParallelRng rng(3);
  rng.uniform(rho, 0.02, 0.4);
  const CarnahanStarlingReference cs{0.08};
  const auto cs_model = shan_chen_carnahan_starling(CarnahanStarling{1.0, 4.0, 1.0, 0.08});
  p = bulk_pressure(cs_model, rho);
  EXPECT_TRUE(field_matches(p, [&](const Coordinate& x) { return cs.pressure(peek(rho, x)); }, 1e-13));
  EXPECT_NEAR(cs_model.pseudopotential.eos.critical_temperature(), 0.0943, 1e-4);
  EXPECT_NEAR(cs_model.pseudopotential.eos.critical_density(), 0.1304, 1e-4);

  const ExponentialReference original{-5.0};
  rng.uniform(rho, 0.05, 2.5);
  p = bulk_pressure(shan_chen_exponential(-5.0), rho);
  EXPECT_TRUE(field_matches(p, [&](const Coordinate& x) { return original.pressure(peek(rho, x)); }, 1e-14));
  EXPECT_NEAR(shan_chen_exponential(-5.0).pressure(0.7), original.pressure(0.7), 1e-15);
  EXPECT_THROW(shan_chen_carnahan_starling(CarnahanStarling{}, 1.0), std::invalid_argument);
}

// A slab: liquid for a quarter to three quarters of y, vapour elsewhere.
template <class Model>
PhaseSim slab(const Geometry& g, double gas, double liquid, double tau) {
  Parameters p;
  p.tau = tau;
  PhaseSim sim(g, p);
  ScalarField rho(g);
  VectorField u(g);
  const int ny = g.dims()[1];
  fill(rho, [&](const Coordinate& x) { return x[1] >= ny / 4 && x[1] < 3 * ny / 4 ? liquid : gas; });
  u = zero;
  sim.initialise(rho, u);
  return sim;
}

template <class Model, class Reference>
void check_flat_interface(const Model& model, const Reference& reference, double low, double high, long steps,
                          const char* name) {
  const Coexistence expected = equal_area(reference, low, high, 1.0);
  const Coexistence continuum = equal_area(reference, low, high, 2.0);
  const Geometry g({4, 128});
  PhaseSim sim = slab<Model>(g, expected.gas * 1.2, expected.liquid * 0.95, 1.0);
  ShanChenCoupling coupling(sim, model);
  const double mass = sim.mass();
  coupling.run(steps);
  ScalarField rho(g);
  rho = sim.density();
  const double liquid = peek(rho, {0, 64}), gas = peek(rho, {0, 0});
  std::printf("Shan-Chen %s, flat interface (4 x 128, %ld steps): gas %.5f liquid %.5f (ratio %.2f); equal areas "
              "in ln psi: %.5f %.5f (relative error %.1e %.1e); in 1/psi: %.5f %.5f; mass drift %.2e\n",
              name, steps, gas, liquid, liquid / gas, expected.gas, expected.liquid, gas / expected.gas - 1,
              liquid / expected.liquid - 1, continuum.gas, continuum.liquid, sim.mass() / mass - 1);
  EXPECT_NEAR(gas / expected.gas, 1.0, 0.02) << name;
  EXPECT_NEAR(liquid / expected.liquid, 1.0, 0.02) << name;
  // Mass to round-off: collision and forcing conserve it exactly in real
  // arithmetic; in doubles each step's sums may lose a fraction of an ulp
  // of the mass, with a sign that need not average out, so the bound
  // grows with the steps: one ulp per step.
  EXPECT_NEAR(sim.mass() / mass, 1.0, static_cast<double>(steps) * 2.2e-16) << name;
}

TEST(LbmShanChen, FlatInterfaceReachesEqualAreaCoexistenceOriginalPsi) {
  check_flat_interface(shan_chen_exponential(-5.0), ExponentialReference{-5.0}, 1e-3, 4.0, 8000,
                       "psi = 1 - exp(-rho), G = -5");
}

TEST(LbmShanChen, FlatInterfaceReachesEqualAreaCoexistenceCarnahanStarling) {
  const double temperature = 0.85 * 0.37733072 / 4;
  check_flat_interface(shan_chen_carnahan_starling(CarnahanStarling{1.0, 4.0, 1.0, temperature}),
                       CarnahanStarlingReference{temperature}, 1e-3, 0.6, 8000,
                       "Carnahan-Starling, T = 0.85 T_c");
}

// The densities a flat interface settles to: a slab on 1 x 128 (the
// problem is one-dimensional), started at 1.1 and 0.98 times the given
// densities, after `steps` steps at tau = 1; the vapour at the bottom
// row, the liquid at the middle one.
template <class Model>
Coexistence lattice_coexistence(const Model& model, const Coexistence& start, long steps) {
  const Geometry g({1, 128});
  PhaseSim sim = slab<Model>(g, start.gas * 1.1, start.liquid * 0.98, 1.0);
  ShanChenCoupling coupling(sim, model);
  coupling.run(steps);
  ScalarField rho(g);
  rho = sim.density();
  return {peek(rho, {0, 0}), peek(rho, {0, 64}), 0.0};
}

// Kupershtokh's force with A = mixing has the mechanical-stability rule
// int (p0 - p) psi' / psi^(1 + epsilon) drho = 0 with epsilon = -4 A (see
// shan_chen.hpp; A = 0 is the equal areas in ln psi above). Checked here
// for five values of A near the critical point, where the interface is
// wide and the rule, a second-order expansion, is accurate: the lattice
// meets it within 0.5 % (measured: vapour 1e-5 to 3e-3, growing with |A|;
// liquid below 5e-4), while each step of 0.1 in A moves the vapour density
// by 3 % to 4 %, so a wrong epsilon(A) fails. The rule of the force alone,
// Taylor-expanded without the lattice's own momentum flux (power 2 - 6 A),
// misses the vapour by 9 % to 14 % (printed for contrast).
TEST(LbmShanChen, KupershtokhForceFollowsItsEqualAreaRule) {
  const auto check = [](const auto& model_without_mixing, const auto& reference, double high, const char* name) {
    for (double mixing : {0.0, -0.1, -0.2, -0.3, -0.4}) {
      auto model = model_without_mixing;
      model.mixing = mixing;
      const Coexistence expected = equal_area(reference, 1e-8, high, 1.0 - 4.0 * mixing);
      const Coexistence continuum = equal_area(reference, 1e-8, high, 2.0 - 6.0 * mixing);
      const Coexistence lattice = lattice_coexistence(model, expected, 20000);
      std::printf("Shan-Chen %s, A = %.2f: gas %.5f liquid %.5f; rule psi^(1 - 4A): %.5f %.5f (relative error "
                  "%.1e %.1e); force alone psi^(2 - 6A): %.5f %.5f\n",
                  name, mixing, lattice.gas, lattice.liquid, expected.gas, expected.liquid,
                  lattice.gas / expected.gas - 1, lattice.liquid / expected.liquid - 1, continuum.gas,
                  continuum.liquid);
      EXPECT_NEAR(lattice.gas / expected.gas, 1.0, 0.005) << name << ", A " << mixing;
      EXPECT_NEAR(lattice.liquid / expected.liquid, 1.0, 0.005) << name << ", A " << mixing;
    }
  };
  check(shan_chen_exponential(-4.5), ExponentialReference{-4.5}, 4.0, "psi = 1 - exp(-rho), G = -4.5");
  const double temperature = 0.9 * 0.37733072 / 4;
  check(shan_chen_carnahan_starling(CarnahanStarling{1.0, 4.0, 1.0, temperature}),
        CarnahanStarlingReference{temperature}, 0.42, "Carnahan-Starling, T = 0.9 T_c");
}

// With one value of A per equation of state (ShanChen::maxwell_mixing of
// the model's constructors) a flat interface meets Maxwell's construction,
// equal pressures and int (p0 - p) drho / rho^2 = 0, solved above from the
// equations of state written in this test: within 2 % in both phases,
// over G = -4.5 to -5 (original psi) and T = 0.75 to 0.9 T_c
// (Carnahan–Starling). Measured: vapour within 0.5 %, liquid within 0.1 %.
// With the plain force (printed) the vapour is 7 % to 63 % below Maxwell's,
// and at 0.75 T_c that flow blows up: the mixing also stabilises it.
template <class Model, class Reference>
void check_maxwell(const Model& model, const Reference& reference, double high, const char* name) {
  const Coexistence expected = maxwell(reference, 1e-8, high);
  const Coexistence lattice = lattice_coexistence(model, expected, 20000);
  auto plain_model = model;
  plain_model.mixing = 0.0;
  const Coexistence plain = lattice_coexistence(plain_model, expected, 20000);
  std::printf("Shan-Chen %s, A = %.2f: gas %.5f liquid %.5f; Maxwell: %.5f %.5f (relative error %.1e %.1e); "
              "plain force (A = 0): %.5f %.5f (%.1e %.1e)\n",
              name, model.mixing, lattice.gas, lattice.liquid, expected.gas, expected.liquid,
              lattice.gas / expected.gas - 1, lattice.liquid / expected.liquid - 1, plain.gas, plain.liquid,
              plain.gas / expected.gas - 1, plain.liquid / expected.liquid - 1);
  EXPECT_NEAR(lattice.gas / expected.gas, 1.0, 0.02) << name;
  EXPECT_NEAR(lattice.liquid / expected.liquid, 1.0, 0.02) << name;
}

TEST(LbmShanChen, FlatInterfaceMeetsMaxwellWithMixingOriginalPsi) {
  for (double coupling : {-4.5, -5.0}) {
    char name[64];
    std::snprintf(name, sizeof name, "psi = 1 - exp(-rho), G = %.1f", coupling);
    check_maxwell(shan_chen_exponential_maxwell(coupling), ExponentialReference{coupling}, 4.0, name);
  }
}

TEST(LbmShanChen, FlatInterfaceMeetsMaxwellWithMixingCarnahanStarling) {
  for (double reduced : {0.9, 0.85, 0.8, 0.75}) {
    const double temperature = reduced * 0.37733072 / 4;
    char name[64];
    std::snprintf(name, sizeof name, "Carnahan-Starling, T = %.2f T_c", reduced);
    check_maxwell(shan_chen_carnahan_starling_maxwell(CarnahanStarling{1.0, 4.0, 1.0, temperature}),
                  CarnahanStarlingReference{temperature}, 0.42, name);
  }
}

// A drop of radius r0 in its vapour, at the centre of an n x n periodic box.
PhaseSim drop(int n, double r0, double gas, double liquid, double tau) {
  const Geometry g({n, n});
  Parameters p;
  p.tau = tau;
  PhaseSim sim(g, p);
  ScalarField rho(g);
  VectorField u(g);
  const double centre = 0.5 * (n - 1);
  // A tanh profile of width 2: a sharp step starts strong sound waves.
  fill(rho, [&](const Coordinate& x) {
    const double r = std::hypot(x[0] - centre, x[1] - centre);
    return 0.5 * (liquid + gas) - 0.5 * (liquid - gas) * std::tanh((r - r0) / 2.0);
  });
  u = zero;
  sim.initialise(rho, u);
  return sim;
}

// Laplace's law: the pressure jump across a drop's interface is
// Delta p = sigma / R in two dimensions. Drops of three radii on 64 x 64,
// original psi with G = -5 and tau = 1, 6000 steps (20000 give the same
// densities to 5 digits). Delta p is the bulk pressure of the equation of
// state, written in this test, at the drop's centre minus at the box's
// corner; R is the equimolar radius, from the mass:
// pi R^2 (rho_in - rho_out) = M - rho_out n^2.
// Asserted: Delta p R, each drop's estimate of sigma, agrees within 5 %
// across the radii (measured: 0.0335, 0.0342, 0.0346), and the
// least-squares line Delta p = sigma / R + c passes through zero within
// 10 % of the smallest jump. The intercept is not zero within the fit's
// own standard error: the points are smooth to 1e-5 and what is left is
// the next order in 1/R, a curvature correction (the surface of tension
// lies about 0.6 lattice units outside the equimolar surface: the radius
// where psi crosses its mean is that much larger); it shrinks with R (7 %
// of the smallest jump for radii 10-18 on 64^2, 5 % for 14-28 on 96^2).
// The slope is the surface tension (printed). Each drop stays round (its
// mid-density contour as far out along an axis as along a diagonal, to 2 %
// of the radius). Mass stays to round-off, and
// the spurious currents (the largest |u| of a drop at rest, printed) stay
// small (bounded by 0.01 here, measured 6e-3): the nearest-neighbour force
// is isotropic to fourth order only, and its anisotropy drives steady
// currents at the interface.
// The model: G = -5 (the pressure is the reference's); gas and liquid:
// the drop's starting densities.
template <class Model>
void check_laplace(const Model& model, double gas, double liquid, const char* name) {
  const ExponentialReference reference{-5.0};
  const int n = 64;
  const long steps = 6000;  // converged: 20000 steps give the same densities to 5 digits
  std::vector<double> inverse_radius, jump;
  double largest_speed = 0;
  for (double r0 : {10.0, 14.0, 18.0}) {
    PhaseSim sim = drop(n, r0, gas, liquid, 1.0);
    ShanChenCoupling coupling(sim, model);
    const double mass = sim.mass();
    coupling.run(steps);
    EXPECT_NEAR(sim.mass() / mass, 1.0, static_cast<double>(steps) * 2.2e-16) << "R0 " << r0;
    ScalarField rho(sim.geometry());
    rho = sim.density();
    const double inside = peek(rho, {n / 2, n / 2}), outside = peek(rho, {0, 0});
    const double radius =
        std::sqrt((sim.mass() - outside * n * n) / (std::numbers::pi * (inside - outside)));
    const double delta_p = reference.pressure(inside) - reference.pressure(outside);
    const double speed = sim.max_speed();
    largest_speed = std::max(largest_speed, speed);
    // Round: the mid-density contour lies as far from the centre along an
    // axis as along a diagonal (each crossing interpolated between the
    // sites on either side, at their true distances from the centre).
    const double mid = 0.5 * (inside + outside), centre = 0.5 * (n - 1);
    const auto contour_distance = [&](int dx, int dy) {
      double previous_r = 0, previous_rho = inside;
      for (int k = 0; k < n / 2; ++k) {
        const int x = n / 2 + k * dx, y = n / 2 + k * dy;
        const double r = std::hypot(x - centre, y - centre), value = peek(rho, {x, y});
        if (value < mid) return previous_r + (r - previous_r) * (previous_rho - mid) / (previous_rho - value);
        previous_r = r;
        previous_rho = value;
      }
      return -1.0;
    };
    const double along_axis = contour_distance(1, 0), along_diagonal = contour_distance(1, 1);
    std::printf("%s drop R0 %.0f: mid-density contour at %.3f along an axis, %.3f along a diagonal\n", name, r0,
                along_axis, along_diagonal);
    EXPECT_GT(along_axis, 0.0);
    EXPECT_NEAR(along_axis, along_diagonal, 0.02 * radius) << "R0 " << r0 << ": the drop is not round";
    std::printf("%s drop R0 %.0f: rho_in %.5f rho_out %.5f, R %.3f, Delta p %.4e, Delta p R %.5f, max |u| %.2e, "
                "mass drift %.1e\n",
                name, r0, inside, outside, radius, delta_p, delta_p * radius, speed, sim.mass() / mass - 1);
    inverse_radius.push_back(1.0 / radius);
    jump.push_back(delta_p);
  }
  // Least squares, with the standard error of the intercept.
  const double k = static_cast<double>(jump.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < jump.size(); ++i) {
    sx += inverse_radius[i];
    sy += jump[i];
    sxx += inverse_radius[i] * inverse_radius[i];
    sxy += inverse_radius[i] * jump[i];
  }
  const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx), intercept = (sy - slope * sx) / k;
  double residuals = 0;
  for (std::size_t i = 0; i < jump.size(); ++i) {
    const double r = jump[i] - (slope * inverse_radius[i] + intercept);
    residuals += r * r;
  }
  const double variance = residuals / (k - 2);
  const double intercept_error = std::sqrt(variance * sxx / (k * sxx - sx * sx));
  std::printf("Laplace, %s: surface tension sigma = %.5f, intercept %.2e +- %.2e (smallest jump %.2e); largest "
              "spurious |u| %.2e\n",
              name, slope, intercept, intercept_error, jump.back(), largest_speed);
  EXPECT_GT(slope, 0.0);
  EXPECT_LT(std::abs(intercept), 0.1 * jump.back());
  double mean_sigma = 0;
  for (std::size_t i = 0; i < jump.size(); ++i) mean_sigma += jump[i] / inverse_radius[i] / k;
  for (std::size_t i = 0; i < jump.size(); ++i)
    EXPECT_NEAR(jump[i] / inverse_radius[i] / mean_sigma, 1.0, 0.05) << "R " << 1.0 / inverse_radius[i];
  EXPECT_LT(largest_speed, 0.01);
}

TEST(LbmShanChen, DropsObeyLaplacesLaw) { check_laplace(shan_chen_exponential(-5.0), 0.12, 1.88, "plain force"); }

// The same with Kupershtokh's force at the Maxwell-consistent A = -0.21:
// Laplace's law holds as well (measured Delta p R = 0.0447, 0.0455, 0.0460;
// intercept 6 % of the smallest jump), with a larger surface tension,
// sigma = 0.043 against 0.032 (the mixing changes the gradient terms of
// the pressure tensor, psi psi'' + 2A psi'^2, which set sigma), and
// smaller spurious currents (5e-3 against 6e-3).
TEST(LbmShanChen, DropsObeyLaplacesLawWithMixing) {
  check_laplace(shan_chen_exponential_maxwell(-5.0), 0.15, 1.93, "A = -0.21");
}

// In place (the AA pattern) the coupling reads the populations in natural
// order, so a drop evolves as with two lattices, to round-off; the
// transient (a start off coexistence, 300 steps) makes the force change
// every step. Odd and even step counts: in place ends on either step kind.
TEST(LbmShanChen, InPlaceSameAsTwoLattices) {
  const auto model = shan_chen_exponential(-5.0);
  const Geometry g({32, 32});
  ScalarField rho(g);
  VectorField u(g);
  fill(rho, [](const Coordinate& x) { return std::hypot(x[0] - 15.5, x[1] - 15.5) < 8 ? 1.7 : 0.2; });
  u = zero;
  Parameters p;
  p.tau = 0.9;
  PhaseSim two(g, p), one(g, p, in_place_streaming);
  two.initialise(rho, u);
  one.initialise(rho, u);
  ShanChenCoupling two_coupled(two, model), one_coupled(one, model);
  for (long steps : {151, 150}) {
    two_coupled.run(steps);
    one_coupled.run(steps);
    EXPECT_TRUE(fields_near(one.populations(), two.populations(), 1e-12)) << "after " << two.time();
  }
  EXPECT_NEAR(one.mass(), two.mass(), 1e-10);
}

}  // namespace
}  // namespace latte::testing
