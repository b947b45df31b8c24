// The differentially heated square cavity (de Vahl Davis 1983) with lattice
// Boltzmann: a D2Q9 flow (BGK) carries a D2Q5 temperature that drives it
// through buoyancy (solvers/lbm/thermal/boussinesq.hpp), run to a steady state.
//
//   lbm_heated_cavity --ra 1e4 --n 64 --out DIR
//
// n x n fluid cells; the left wall is hot (T = 1), the right one cold
// (T = 0), top and bottom adiabatic, all four no-slip half-way walls
// (bounce-back for the flow; anti-bounce-back for the fixed temperatures,
// plain bounce-back for the adiabatic walls), gravity along -y. The side
// is H = n cells; the lattice parameters follow from Ra, Pr and H with the
// free-fall velocity U (--velocity, examples/lbm_convection.hpp). The run
// starts from rest at the mean temperature and stops when both Nusselt
// numbers below and the velocity field change by less than --tolerance
// (relative) over --check-every steps.
//
// Prints the lattice parameters, a progress line every --check-every steps
// (step, Nu, max |u| / U, relative change of u), and at the end
//   - the mean Nusselt number on the hot wall, -(H / dT) dT/dx at the wall
//     averaged over it, and the Nusselt number averaged over the cavity,
//     the mean horizontal heat flux (u_x T - alpha dT/dx) / (alpha dT / H)
//     (solvers/lbm/thermal/nusselt.hpp): at steady state each vertical line
//     carries the heat that enters through the hot wall, so the two agree
//     up to the discretisation;
//   - the largest horizontal velocity on the vertical centre line and the
//     largest vertical velocity on the horizontal one, in units of alpha / H;
//   - at Ra = 1e3, 1e4, 1e5 and 1e6 (Pr = 0.71) de Vahl Davis's benchmark
//     values beside them and the relative errors.
// Writes
//   DIR/cavity.csv       "x,y,T,ux,uy" at the cell centres, x and y in units of H,
//                        T in units of dT, u in units of alpha / H
//   DIR/temperature.png  T with streamlines
// Exit status: 0 steady, 2 not steady by --max-steps, 3 the mean Nusselt
// number misses the benchmark by more than --max-nusselt-error (relative),
// 4 the flow diverged.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
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
  double ra = 1e4;
  double pr = 0.71;
  int n = 64;
  double velocity = 0.1;
  std::string out = "heated_cavity_out";
  double tolerance = 1e-6;
  long check_every = 1000;
  long max_steps = 2000000;
  double max_nusselt_error = 0;  // > 0: fail (exit 3) if the mean Nu misses the benchmark by more (relative)
};

// de Vahl Davis (1983), benchmark solution for Pr = 0.71: the Nusselt
// number averaged over the cavity and on the hot wall, the largest
// horizontal velocity on the vertical centre line and the largest vertical
// velocity on the horizontal one (in units of alpha / H).
struct Benchmark {
  double rayleigh, mean_nusselt, wall_nusselt, u_max, v_max;
};
constexpr Benchmark de_vahl_davis[] = {
    {1e3, 1.118, 1.117, 3.649, 3.697},
    {1e4, 2.243, 2.238, 16.178, 19.617},
    {1e5, 4.519, 4.509, 34.73, 68.59},
    {1e6, 8.800, 8.817, 64.63, 219.36},
};

std::optional<Benchmark> benchmark(double ra, double pr) {
  if (pr != 0.71) return std::nullopt;
  for (const Benchmark& b : de_vahl_davis)
    if (b.rayleigh == ra) return b;
  return std::nullopt;
}

int run(const Options& opt) {
  using Flow = Simulation<D2Q9, double, Bgk>;
  using Heat = ThermalSimulation<D2Q5>;
  const int n = opt.n;
  // Fluid cells 1..n in each direction, walls on the solid cells 0 and
  // n + 1; the lattice padded with solid cells to a multiple of 8 so that
  // the SIMD layout and the ranks divide it.
  const int extent = round_up(n + 2, 8);
  const Geometry g({extent, extent});
  const double t_hot = 1.0, t_cold = 0.0, dt = t_hot - t_cold;
  const auto c = examples::convection_parameters<D2Q5>(opt.ra, opt.pr, n, opt.velocity);
  std::printf("differentially heated cavity: D2Q9 + D2Q5, n = %d (lattice %dx%d), Ra = %g, Pr = %g\n", n, extent,
              extent, opt.ra, opt.pr);
  std::printf("lattice: U = %g (free fall), nu = %.6f, tau = %.5f, alpha = %.6f, tau_T = %.5f, g beta dT = %.4e\n",
              opt.velocity, c.viscosity, c.tau, c.diffusivity, c.tau_thermal, c.gravity);
  std::printf("a diffusive time H^2 / alpha is %.0f steps\n", n * n / c.diffusivity);

  const auto is_fluid = [&](const Coordinate& x) { return x[0] >= 1 && x[0] <= n && x[1] >= 1 && x[1] <= n; };
  Parameters p;
  p.tau = c.tau;
  Flow flow(g, p);
  Flow::Boundary walls(g);
  mark_solid(walls, [&](const Coordinate& x) { return !is_fluid(x); });
  flow.set_boundary(walls);
  flow.initialise(1.0);

  // Every solid cell adiabatic, then the two side walls at their
  // temperatures (the corner cells touch the fluid only diagonally, which
  // D2Q5 does not link).
  Heat heat(g, c.tau_thermal);
  Heat::Boundary thermal_walls(g);
  mark_adiabatic(thermal_walls, [&](const Coordinate& x) { return !is_fluid(x); });
  const auto beside_fluid_rows = [&](const Coordinate& x) { return x[1] >= 1 && x[1] <= n; };
  mark_fixed_temperature(thermal_walls, [&](const Coordinate& x) { return x[0] == 0 && beside_fluid_rows(x); },
                         t_hot);
  mark_fixed_temperature(thermal_walls, [&](const Coordinate& x) { return x[0] == n + 1 && beside_fluid_rows(x); },
                         t_cold);
  heat.set_boundary(thermal_walls);
  const double t_mean = 0.5 * (t_hot + t_cold);
  heat.initialise(t_mean);

  Boussinesq buoyancy;
  buoyancy.expansion = 1.0;
  buoyancy.reference_temperature = t_mean;
  buoyancy.gravity[1] = -c.gravity;  // along -y: warm fluid rises
  set_buoyancy(flow, heat, buoyancy);

  // The hot wall's Nusselt number, -(H / dT) dT/dx at x = 1/2 averaged
  // over the wall, with the wall half-way between the solid column 0 and
  // the first fluid column: dT/dx there from T_hot and the first two fluid
  // columns, at 1/2 and 3/2 from the wall (second order,
  // examples/lbm_convection.hpp).
  Heat::ScalarField temperature(g);
  auto wall_nusselt = [&](const std::vector<double>& tf) {
    double total = 0;
    for (int y = 1; y <= n; ++y) {
      const std::size_t row = static_cast<std::size_t>(y) * extent;
      total -= examples::wall_derivative(t_hot, tf[row + 1], tf[row + 2]) * n / dt;
    }
    return total / n;
  };
  const NusseltSetup setup{heat.diffusivity(), dt, double(n)};
  auto mean_nusselt = [&] { return nusselt_number<0>(heat.temperature(), flow.velocity(), thermal_walls, setup); };

  Flow::VectorField u(g), previous(g);
  previous = flow.velocity();
  double mean_previous = 0, wall_previous = 0;
  bool steady = false;
  double seconds = 0;
  std::printf("%10s %12s %12s %12s %14s\n", "step", "Nu (wall)", "Nu (mean)", "max|u|/U", "change of u");
  while (flow.time() < opt.max_steps) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long s = 0; s < opt.check_every; ++s) coupled_step(flow, heat, buoyancy);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    u = flow.velocity();
    const double norm = sum(where(element<0>(walls), 0.0, localNorm2(u)));
    const double change =
        norm > 0 ? std::sqrt(sum(where(element<0>(walls), 0.0, localNorm2(u - previous))) / norm) : 0.0;
    previous = u;
    temperature = heat.temperature();
    const double wall_now = wall_nusselt(gather_component(temperature));
    const double mean_now = mean_nusselt();
    const double max_u = flow.max_speed();
    std::printf("%10ld %12.6f %12.6f %12.6f %14.3e\n", flow.time(), wall_now, mean_now, max_u / opt.velocity, change);
    std::fflush(stdout);
    if (!std::isfinite(max_u) || !std::isfinite(mean_now)) {
      std::printf("diverged: the velocity is not finite after %ld steps (tau = %.5f, tau_T = %.5f)\n", flow.time(),
                  c.tau, c.tau_thermal);
      return 4;
    }
    const bool settled = std::abs(wall_now - wall_previous) < opt.tolerance * wall_now &&
                         std::abs(mean_now - mean_previous) < opt.tolerance * mean_now && change < opt.tolerance;
    wall_previous = wall_now;
    mean_previous = mean_now;
    if (settled) {
      steady = true;
      break;
    }
  }
  if (!steady) std::printf("warning: not steady after %ld steps\n", flow.time());
  std::printf("performance %.1f MLUPS (flow and temperature together)\n",
              static_cast<double>(flow.time()) * static_cast<double>(g.volume()) / std::max(seconds, 1e-9) * 1e-6);

  temperature = heat.temperature();
  const std::vector<double> tf = gather_component(temperature), ux = gather_component(u, 0),
                            uy = gather_component(u, 1);
  const double velocity_unit = c.diffusivity / n;  // alpha / H
  auto at = [&](const std::vector<double>& f, int x, int y) { return f[static_cast<std::size_t>(y) * extent + x]; };
  // The centre lines x = 1/2 and y = 1/2 lie on cell centres for odd n and
  // between cells (n + 1) / 2 and n / 2 + 1 for even n: the mean of the two.
  const int low = (n + 1) / 2, high = n / 2 + 1;
  double u_max = 0, v_max = 0;
  for (int k = 1; k <= n; ++k) {
    u_max = std::max(u_max, 0.5 * (at(ux, low, k) + at(ux, high, k)) / velocity_unit);
    v_max = std::max(v_max, 0.5 * (at(uy, k, low) + at(uy, k, high)) / velocity_unit);
  }
  const double nu_wall = wall_nusselt(tf);
  const double nu_mean = mean_nusselt();

  std::filesystem::create_directories(opt.out);
  {
    ReportFile csv(opt.out + "/cavity.csv");
    csv << "x,y,T,ux,uy\n";
    csv.precision(8);
    for (int y = 1; y <= n; ++y)
      for (int x = 1; x <= n; ++x)
        csv << (x - 0.5) / n << ',' << (y - 0.5) / n << ',' << at(tf, x, y) << ',' << at(ux, x, y) / velocity_unit
            << ',' << at(uy, x, y) / velocity_unit << '\n';
  }
  std::vector<double> picture_t = examples::cut(tf, extent, 1, 1, n, n);
  for (double& t : picture_t) t = (t - t_mean) / dt;
  const int scale = std::max(1, 512 / n);
  write_png(opt.out + "/temperature.png", picture_t, n, n,
            FieldPicture("(T - T_mean) / dT", true)
                .scaled(scale)
                .with_streamlines(examples::cut(ux, extent, 1, 1, n, n), examples::cut(uy, extent, 1, 1, n, n)));
  std::printf("wrote %s/cavity.csv, temperature.png\n", opt.out.c_str());

  std::printf("after %ld steps: Nu on the hot wall %.4f, mean Nu %.4f, max u on x = 1/2 %.3f, max v on y = 1/2 %.3f "
              "(alpha / H)\n", flow.time(), nu_wall, nu_mean, u_max, v_max);
  int status = steady ? 0 : 2;
  if (const auto b = benchmark(opt.ra, opt.pr)) {
    auto relative = [](double value, double reference) { return (value - reference) / reference; };
    std::printf("de Vahl Davis (1983), Ra = %g: Nu on the hot wall %.3f (error %+.4f), mean Nu %.3f (error %+.4f), "
                "max u %.3f (error %+.4f), max v %.3f (error %+.4f)\n", b->rayleigh, b->wall_nusselt,
                relative(nu_wall, b->wall_nusselt), b->mean_nusselt, relative(nu_mean, b->mean_nusselt), b->u_max,
                relative(u_max, b->u_max), b->v_max, relative(v_max, b->v_max));
    if (opt.max_nusselt_error > 0 && std::abs(relative(nu_mean, b->mean_nusselt)) > opt.max_nusselt_error) {
      std::printf("error: the mean Nusselt number misses the benchmark by more than --max-nusselt-error %g\n",
                  opt.max_nusselt_error);
      status = 3;
    }
  } else if (opt.max_nusselt_error > 0) {
    std::printf("error: --max-nusselt-error needs a benchmark case (Ra = 1e3, 1e4, 1e5 or 1e6 at Pr = 0.71)\n");
    status = 3;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{"Lattice-Boltzmann differentially heated cavity (D2Q9 + D2Q5), run to steady state"};
  cli.option("--ra", opt.ra, "Rayleigh number g beta dT H^3 / (nu alpha)").positive().show_default();
  cli.option("--pr", opt.pr, "Prandtl number nu / alpha").positive().show_default();
  cli.option("--n", opt.n, "H: fluid cells per side").range(4, 4096).show_default();
  cli.option("--velocity", opt.velocity, "free-fall velocity U = sqrt(g beta dT H) in lattice units")
      .range(1e-4, 0.3)
      .show_default();
  cli.option("--out", opt.out, "output directory").show_default();
  cli.option("--tolerance", opt.tolerance,
             "steady when both Nusselt numbers and the velocity change by less than this (relative) over "
             "--check-every steps")
      .show_default();
  cli.option("--check-every", opt.check_every, "steps between progress lines").positive().show_default();
  cli.option("--max-steps", opt.max_steps, "give up after this many steps").show_default();
  cli.option("--max-nusselt-error", opt.max_nusselt_error,
             "at a benchmark Ra: exit with status 3 if the mean Nu misses de Vahl Davis's by more (relative)");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::cerr << "lbm_heated_cavity: " << e.what() << '\n';
    return 1;
  }
}
