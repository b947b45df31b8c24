// Rayleigh-Benard convection between rigid plates with lattice Boltzmann:
// the flow (D2Q9 or D3Q19, BGK) carries a temperature (D2Q5 or D3Q7) that
// drives it through buoyancy (solvers/lbm/thermal/boussinesq.hpp), run to a steady
// state.
//
//   lbm_rayleigh_benard --ra 1e4 --n 32 --out DIR              2-D rolls
//   lbm_rayleigh_benard --dim 3 --ra 1e4 --n 16 --out DIR      3-D box
//
// The hot plate (T = 1) lies below, the cold one (T = 0) above, H = --n
// fluid layers apart; both are no-slip, half-way walls (bounce-back for the
// flow, anti-bounce-back for the temperature), and gravity points down the
// last axis (y in 2-D, z in 3-D). Sideways the box is periodic, --aspect H
// long in each direction (default 2.016: the critical wavelength of rigid
// plates, one pair of rolls), rounded to the nearest multiple of 4 cells.
// The lattice parameters follow from Ra, Pr and H with the free-fall
// velocity U (--velocity, examples/lbm_convection.hpp). The run starts from the
// conduction profile with a small roll-shaped perturbation of the
// temperature (1 % of dT) and stops when the Nusselt number and the velocity
// field change by less than --tolerance (relative) over --check-every steps,
// or after --steps steps if given.
//
// Prints the lattice parameters, a progress line every --check-every steps
// (step, Nu, max |u| / U, relative change of u), and the final Nusselt number
// twice: from the heat flux averaged over the fluid (solvers/lbm/thermal/nusselt.hpp)
// and from the temperature gradient at the hot plate. For 2-D at Ra = 1e4,
// Pr = 0.71 and a wavelength near 2.016 H it prints Clever & Busse's (1974)
// value beside it, Nu = 2.661. Writes
//   DIR/plane.csv        "x,z,T,ux,uz" on the fluid cells of the x-z plane (2-D: the
//                        whole box; 3-D: the vertical mid-plane y = ny / 2), x and z in
//                        units of H from the hot plate, T in units of dT, u in U
//   DIR/temperature.png  T on that plane with streamlines of (ux, uz)
// Exit status: 0 steady (or --steps done), 2 not steady by --max-steps,
// 3 outside --max-nusselt-error of the reference or below --min-nusselt,
// 4 the flow diverged.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/lbm_convection.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/field_export.hpp"
#include "solvers/lbm/io/png_output.hpp"
#include "solvers/lbm/thermal/boussinesq.hpp"
#include "solvers/lbm/thermal/nusselt.hpp"
#include "solvers/lbm/thermal/thermal.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;
using examples::round_up;

struct Options {
  int dim = 2;
  double ra = 1e4;
  double pr = 0.71;
  int n = 32;
  double aspect = 2.016;
  double velocity = 0.1;
  std::string out = "rayleigh_benard_out";
  double tolerance = 1e-6;
  long check_every = 1000;
  long steps = 0;  // > 0: run exactly so many steps
  long max_steps = 2000000;
  double max_nusselt_error = 0;  // > 0: fail (exit 3) if Nu misses the reference by more (relative)
  double min_nusselt = 0;        // > 0: fail (exit 3) if Nu is below it
};

// Clever & Busse (1974), two-dimensional rolls between rigid plates at
// Pr = 0.71, wavelength 2.016 H.
constexpr double clever_busse_ra1e4 = 2.661;

template <class FlowSet, class ThermalSet>
int run(const Options& opt) {
  constexpr int D = FlowSet::d;
  constexpr int up = D - 1;  // the vertical axis: gravity along -up
  using Flow = Simulation<FlowSet, double, Bgk>;
  using Heat = ThermalSimulation<ThermalSet>;
  const int h = opt.n;
  // Periodic sideways: the nearest multiple of 4 cells. Vertically the hot
  // plate is layer 0, the fluid layers 1..H, the cold plate layer H + 1 and
  // the layers above it (padding up to a multiple of 8, so that the SIMD layout
  // and the ranks divide the lattice) solid and cold as well.
  const int width = std::max(4, 4 * static_cast<int>(std::lround(opt.aspect * h / 4)));
  Coordinate dims(D, width);
  dims[up] = round_up(h + 2, 8);
  const Geometry g(dims);
  const double t_hot = 1.0, t_cold = 0.0, dt = t_hot - t_cold;
  const auto c = examples::convection_parameters<ThermalSet>(opt.ra, opt.pr, h, opt.velocity);
  std::printf("Rayleigh-Benard convection: %s + %s, H = %d, box %s (wavelength %.4f H), Ra = %g, Pr = %g\n",
              FlowSet::name, ThermalSet::name, h, to_string(dims).c_str(), double(width) / h, opt.ra, opt.pr);
  std::printf("lattice: U = %g (free fall), nu = %.6f, tau = %.5f, alpha = %.6f, tau_T = %.5f, g beta dT = %.4e\n",
              opt.velocity, c.viscosity, c.tau, c.diffusivity, c.tau_thermal, c.gravity);
  std::printf("a diffusive time H^2 / alpha is %.0f steps\n", h * h / c.diffusivity);

  Parameters p;
  p.tau = c.tau;
  Flow flow(g, p);
  typename Flow::Boundary walls(g);
  mark_solid(walls, [&](const Coordinate& x) { return x[up] == 0 || x[up] > h; });
  flow.set_boundary(walls);
  flow.initialise(1.0);

  Heat heat(g, c.tau_thermal);
  typename Heat::Boundary plates(g);
  mark_fixed_temperature(plates, [&](const Coordinate& x) { return x[up] == 0; }, t_hot);
  mark_fixed_temperature(plates, [&](const Coordinate& x) { return x[up] > h; }, t_cold);
  heat.set_boundary(plates);
  // Conduction (linear between the walls at 1/2 and H + 1/2) plus one roll
  // pair along x (rolls along y in 3-D), vanishing at the plates.
  typename Heat::ScalarField t0(g);
  fill(t0, [&](const Coordinate& x) {
    const double z = x[up] - 0.5;  // height above the hot plate
    return t_hot - dt * z / h +
           0.01 * dt * std::sin(2 * std::numbers::pi * (x[0] + 0.5) / width) * std::sin(std::numbers::pi * z / h);
  });
  heat.initialise(t0, RealVector<double, D>{});

  Boussinesq buoyancy;
  buoyancy.expansion = 1.0;
  buoyancy.reference_temperature = 0.5 * (t_hot + t_cold);
  buoyancy.gravity[up] = -c.gravity;  // pointing down: warm fluid rises
  set_buoyancy(flow, heat, buoyancy);

  const NusseltSetup setup{heat.diffusivity(), dt, double(h)};
  auto nusselt = [&] { return nusselt_number<up>(heat.temperature(), flow.velocity(), plates, setup); };
  typename Flow::VectorField u(g), previous(g);
  previous = flow.velocity();
  double nu_previous = nusselt();
  bool steady = false;
  double seconds = 0;
  const long limit = opt.steps > 0 ? opt.steps : opt.max_steps;
  std::printf("%10s %12s %12s %14s\n", "step", "Nu", "max|u|/U", "change of u");
  while (flow.time() < limit) {
    const long chunk = std::min(opt.check_every, limit - flow.time());
    const auto t0_clock = std::chrono::steady_clock::now();
    for (long s = 0; s < chunk; ++s) coupled_step(flow, heat, buoyancy);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_clock).count();
    u = flow.velocity();
    const double norm = sum(where(element<0>(walls), 0.0, localNorm2(u)));
    const double change =
        norm > 0 ? std::sqrt(sum(where(element<0>(walls), 0.0, localNorm2(u - previous))) / norm) : 0.0;
    previous = u;
    const double nu_now = nusselt();
    const double max_u = flow.max_speed();
    std::printf("%10ld %12.6f %12.6f %14.3e\n", flow.time(), nu_now, max_u / opt.velocity, change);
    std::fflush(stdout);
    if (!std::isfinite(max_u) || !std::isfinite(nu_now)) {
      std::printf("diverged: the velocity is not finite after %ld steps (tau = %.5f, tau_T = %.5f)\n", flow.time(),
                  c.tau, c.tau_thermal);
      return 4;
    }
    const bool settled = std::abs(nu_now - nu_previous) < opt.tolerance * nu_now && change < opt.tolerance;
    nu_previous = nu_now;
    if (opt.steps <= 0 && settled) {
      steady = true;
      break;
    }
  }
  if (opt.steps > 0) steady = true;
  else if (!steady) std::printf("warning: not steady after %ld steps\n", flow.time());
  std::printf("performance %.1f MLUPS (flow and temperature together)\n",
              static_cast<double>(flow.time()) * static_cast<double>(g.volume()) / std::max(seconds, 1e-9) * 1e-6);

  // The x-z plane: the whole box in 2-D, y = ny / 2 in 3-D.
  typename Heat::ScalarField temperature(g);
  temperature = heat.temperature();
  const std::vector<double> tf = gather_component(temperature), ux = gather_component(u, 0),
                            uz = gather_component(u, up);
  const int ny = D == 3 ? dims[1] : 1, y_mid = ny / 2;
  auto at = [&](const std::vector<double>& f, int x, int z) {
    return f[(static_cast<std::size_t>(z) * ny + y_mid) * width + x];
  };
  // The hot plate's Nusselt number: -(H / dT) dT/dz at the wall, averaged
  // over the plate (all of it, in 3-D), second order from the first two
  // fluid layers (examples/lbm_convection.hpp).
  double wall_nusselt = 0;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < width; ++x) {
      auto t_at = [&](int z) { return tf[(static_cast<std::size_t>(z) * ny + y) * width + x]; };
      wall_nusselt -= examples::wall_derivative(t_hot, t_at(1), t_at(2)) * h / dt;
    }
  wall_nusselt /= static_cast<double>(width) * ny;
  const double nu_final = nusselt();

  std::filesystem::create_directories(opt.out);
  {
    ReportFile csv(opt.out + "/plane.csv");
    csv << "x,z,T,ux,uz\n";
    csv.precision(8);
    for (int z = 1; z <= h; ++z)
      for (int x = 0; x < width; ++x)
        csv << (x + 0.5) / h << ',' << (z - 0.5) / h << ',' << at(tf, x, z) << ',' << at(ux, x, z) / opt.velocity
            << ',' << at(uz, x, z) / opt.velocity << '\n';
  }
  // The picture: the fluid layers only, T - (T_hot + T_cold) / 2 on a
  // diverging map (warm red, cold blue).
  std::vector<double> plane_t, plane_ux, plane_uz;
  for (int z = 1; z <= h; ++z)
    for (int x = 0; x < width; ++x) {
      plane_t.push_back((at(tf, x, z) - buoyancy.reference_temperature) / dt);
      plane_ux.push_back(at(ux, x, z));
      plane_uz.push_back(at(uz, x, z));
    }
  const int scale = std::max(1, 768 / width);
  write_png(opt.out + "/temperature.png", plane_t, width, h,
            FieldPicture("(T - T_mean) / dT", true).scaled(scale).with_streamlines(plane_ux, plane_uz));
  std::printf("wrote %s/plane.csv, temperature.png\n", opt.out.c_str());

  std::printf("Nusselt number after %ld steps: %.4f (mean heat flux), %.4f (hot plate)\n", flow.time(), nu_final,
              wall_nusselt);
  const bool tabulated = D == 2 && opt.ra == 1e4 && opt.pr == 0.71 && std::abs(double(width) / h - 2.016) < 0.1;
  int status = steady ? 0 : 2;
  if (tabulated) {
    const double error = (nu_final - clever_busse_ra1e4) / clever_busse_ra1e4;
    std::printf("Clever & Busse (1974), 2-D rolls, Ra = 1e4, Pr = 0.71, wavelength 2.016 H: Nu = %.3f; "
                "relative error %+.4f\n", clever_busse_ra1e4, error);
    if (opt.max_nusselt_error > 0 && std::abs(error) > opt.max_nusselt_error) {
      std::printf("error: the Nusselt number misses the reference by more than --max-nusselt-error %g\n",
                  opt.max_nusselt_error);
      status = 3;
    }
  } else if (opt.max_nusselt_error > 0) {
    std::printf("error: --max-nusselt-error needs a tabulated case (--dim 2 --ra 1e4 --pr 0.71, aspect 2.016)\n");
    status = 3;
  }
  if (opt.min_nusselt > 0 && nu_final < opt.min_nusselt) {
    std::printf("error: the Nusselt number is below --min-nusselt %g\n", opt.min_nusselt);
    status = 3;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{"Lattice-Boltzmann Rayleigh-Benard convection between rigid plates"};
  cli.option("--dim", opt.dim, "2 (D2Q9 + D2Q5) or 3 (D3Q19 + D3Q7)").one_of({2, 3}).show_default();
  cli.option("--ra", opt.ra, "Rayleigh number g beta dT H^3 / (nu alpha)").positive().show_default();
  cli.option("--pr", opt.pr, "Prandtl number nu / alpha").positive().show_default();
  cli.option("--n", opt.n, "H: fluid layers between the plates").range(4, 1024).show_default();
  cli.option("--aspect", opt.aspect, "periodic length of the box in units of H, each sideways direction")
      .range(0.25, 64.0)
      .show_default();
  cli.option("--velocity", opt.velocity, "free-fall velocity U = sqrt(g beta dT H) in lattice units")
      .range(1e-4, 0.3)
      .show_default();
  cli.option("--out", opt.out, "output directory").show_default();
  cli.option("--tolerance", opt.tolerance,
             "steady when Nu and the velocity change by less than this (relative) over --check-every steps")
      .show_default();
  cli.option("--check-every", opt.check_every, "steps between progress lines").positive().show_default();
  cli.option("--steps", opt.steps, "run exactly this many steps (0: until steady)").show_default();
  cli.option("--max-steps", opt.max_steps, "give up after this many steps").show_default();
  cli.option("--max-nusselt-error", opt.max_nusselt_error,
             "2-D, Ra = 1e4, Pr = 0.71: exit with status 3 if Nu misses Clever & Busse's 2.661 by more (relative)");
  cli.option("--min-nusselt", opt.min_nusselt, "exit with status 3 if the final Nu is below this");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    return opt.dim == 2 ? run<D2Q9, D2Q5>(opt) : run<D3Q19, D3Q7>(opt);
  } catch (const std::exception& e) {
    std::cerr << "lbm_rayleigh_benard: " << e.what() << '\n';
    return 1;
  }
}
