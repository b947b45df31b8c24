// The onset of Rayleigh-Benard convection between rigid plates at fixed
// temperatures (solvers/lbm/thermal/thermal.hpp, boussinesq.hpp): the growth rate
// of a small convective perturbation, measured at Rayleigh numbers on both
// sides of the onset, vanishes at the critical Rayleigh number of linear
// stability theory. The reference is the continuum's, not the solver's.

#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/thermal/boussinesq.hpp"
#include "solvers/lbm/thermal/thermal.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {
namespace onset {

using namespace latte::lbm;
using Flow = Simulation<D2Q9, double, Bgk, VectorWidth>;
using Heat = ThermalSimulation<D2Q5, double, VectorWidth>;

// Linear stability of a fluid layer between two rigid plates at fixed
// temperatures (Reid & Harris 1958; Chandrasekhar, Hydrodynamic and
// Hydromagnetic Stability, 1961, ch. II): the conduction state loses
// stability at Ra_c = 1707.76, to rolls of wavenumber k_c H = 3.117,
// whatever the Prandtl number.
constexpr double critical_rayleigh = 1707.76;
constexpr double critical_wavenumber = 3.117;  // times H

// The layer: H fluid rows between solid rows 0 and H + 1 (half-way walls at
// y = 0.5 and y = H + 0.5), hot below; the periodic box is the integer width
// closest to one critical wavelength 2 pi H / k_c = 2.016 H. For H = 16 that
// is 32 cells, k H = pi instead of 3.117: the neutral curve Ra(k) has its
// minimum at k_c, so the onset of the box's mode lies above Ra_c by
// Ra''(k_c) (k - k_c)^2 / 2: Ra(pi / H) = 1707.92, 1e-4 above Ra_c.
constexpr int height = 16;
const int width = static_cast<int>(std::lround(2 * std::numbers::pi * height / critical_wavenumber));
// Pr = 1 with tau = tau_T = 0.8 (nu = alpha = 0.1): the diffusion time
// H^2 / alpha is 2560 steps, and the velocity alpha / H of convection stays
// far below the lattice's speed of sound.
constexpr double tau = 0.8;
constexpr double t_hot = 1.0, t_cold = 0.0;
// The perturbation's amplitude, 1e-6 of the plates' temperature difference:
// the nonlinear terms, quadratic in it, stay 1e-6 of the linear ones over
// the run (the amplitude changes by less than a factor 20).
constexpr double amplitude = 1e-6;

// The amplitude of the box's fundamental mode in u_y: the modulus of the
// discrete Fourier coefficient at wavenumber 2 pi / width, summed over the
// fluid rows. Anything uniform along x (the hydrostatic adjustment of the
// start, the flow's staggered response to a force varying along y) drops
// out of it exactly.
struct ModeAmplitude {
  Flow::ScalarField cosine, sine;  // zero on the solid rows
  explicit ModeAmplitude(const Geometry& g) : cosine(g), sine(g) {
    const auto fluid = [](const Coordinate& x) { return x[1] >= 1 && x[1] <= height; };
    fill(cosine, [&](const Coordinate& x) {
      return fluid(x) ? std::cos(2 * std::numbers::pi * x[0] / width) : 0.0;
    });
    fill(sine, [&](const Coordinate& x) {
      return fluid(x) ? std::sin(2 * std::numbers::pi * x[0] / width) : 0.0;
    });
  }
  template <class Velocity>
  double operator()(const Velocity& u) const {
    const double c = sum(element<1>(u) * cosine), s = sum(element<1>(u) * sine);
    return std::hypot(c, s);
  }
};

// The growth rate sigma (per step) of the perturbation at Rayleigh number
// ra: the slope of ln(amplitude) against time, fitted by least squares over
// [start, end), after the faster modes the seed also excites have died.
// The test fits from 1500 to 4000 steps, 0.6 to 1.6 diffusion times H^2 /
// alpha, sampling every 50 steps.
double growth_rate(double ra, long start, long end, long every) {
  const int nx = width, ny = height + 2;
  const double nu = (tau - 0.5) / 3, alpha = diffusivity_from_tau<D2Q5>(tau);
  const Geometry geometry({nx, ny});
  Parameters p;
  p.tau = tau;
  Flow flow(geometry, p);
  Flow::Boundary solid(geometry);
  mark_solid(solid, [&](const Coordinate& x) { return x[1] == 0 || x[1] == ny - 1; });
  flow.set_boundary(solid);
  Heat heat(geometry, tau);
  Heat::Boundary plates(geometry);
  mark_fixed_temperature(plates, [&](const Coordinate& x) { return x[1] == 0; }, t_hot);
  mark_fixed_temperature(plates, [&](const Coordinate& x) { return x[1] == ny - 1; }, t_cold);
  heat.set_boundary(plates);
  // Conduction, linear between the walls, and a roll's temperature: warm
  // where x < width / 2, cool beyond, largest mid-layer.
  Heat::ScalarField t0(geometry);
  fill(t0, [&](const Coordinate& x) {
    const double conduction = t_hot + (t_cold - t_hot) * (x[1] - 0.5) / height;
    return conduction + amplitude * (t_hot - t_cold) * std::sin(2 * std::numbers::pi * x[0] / nx) *
                            std::sin(std::numbers::pi * (x[1] - 0.5) / height);
  });
  heat.initialise(t0, RealVector<double, 2>{});
  // Boussinesq with beta = 1 and gravity along -y: warmer fluid rises; the
  // Rayleigh number Ra = g beta dT H^3 / (nu alpha) sets g.
  Boussinesq buoyancy;
  buoyancy.expansion = 1.0;
  buoyancy.reference_temperature = 0.5 * (t_hot + t_cold);
  buoyancy.gravity = {0.0, -ra * nu * alpha / ((t_hot - t_cold) * std::pow(height, 3)), 0.0};
  set_buoyancy(flow, heat, buoyancy);

  const ModeAmplitude mode(geometry);
  double st = 0, sy = 0, stt = 0, sty = 0;
  int samples = 0;
  for (long s = 1; s < end; ++s) {
    coupled_step(flow, heat, buoyancy);
    if (s >= start && (s - start) % every == 0) {
      const double t = static_cast<double>(s), y = std::log(mode(flow.velocity()));
      st += t;
      sy += y;
      stt += t * t;
      sty += t * y;
      ++samples;
    }
  }
  const double sigma = (samples * sty - st * sy) / (samples * stt - st * st);
  std::printf("Rayleigh-Benard onset, %d x %d fluid cells, Ra %.0f: growth rate %+.4e per step (%+.4f alpha / H^2)\n",
              nx, height, ra, sigma, sigma * height * height / alpha);
  return sigma;
}

TEST(LbmRayleighBenard, CriticalRayleighNumberFromGrowthRates) {
  const std::vector<double> rayleigh{1500, 1650, 1800, 1950};
  std::vector<double> sigma;
  for (double ra : rayleigh) sigma.push_back(growth_rate(ra, 1500, 4000, 50));
  // Near the onset sigma is linear in Ra: its least-squares line's zero.
  double sr = 0, ss = 0, srr = 0, srs = 0;
  const double n = static_cast<double>(rayleigh.size());
  for (std::size_t i = 0; i < rayleigh.size(); ++i) {
    sr += rayleigh[i];
    ss += sigma[i];
    srr += rayleigh[i] * rayleigh[i];
    srs += rayleigh[i] * sigma[i];
  }
  const double slope = (n * srs - sr * ss) / (n * srr - sr * sr), intercept = (ss - slope * sr) / n;
  const double onset = -intercept / slope;
  std::printf("critical Rayleigh number %.2f (linear stability %.2f): relative error %+.3e\n", onset,
              critical_rayleigh, onset / critical_rayleigh - 1);
  // Damped below the onset, growing above it.
  EXPECT_LT(sigma.front(), 0.0);
  EXPECT_LT(sigma[1], 0.0);
  EXPECT_GT(sigma[2], 0.0);
  EXPECT_GT(sigma.back(), 0.0);
  EXPECT_NEAR(onset, critical_rayleigh, 0.02 * critical_rayleigh);
}

}  // namespace onset
}  // namespace
}  // namespace latte::testing
