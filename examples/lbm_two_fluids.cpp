// Two immiscible fluids with the two-component Shan–Chen model (D2Q9,
// solvers/lbm/multiphase/mixture_simulation.hpp).
//
//   lbm_two_fluids --case rayleigh-taylor --n 64 --steps 4000 --out DIR
//   lbm_two_fluids --case layered-channel --half-width 16 --max-error 0.05 --out DIR
//
// rayleigh-taylor: a heavy fluid (1) above a light one (2) in a box of
//   n x 2n cells (n a multiple of 8), periodic sideways, walls on the bottom
//   and top rows, the interface displaced by a cosine of one wavelength
//   across the box, up at x = 0 and down at x = n/2. The
//   fluids have equal densities; gravity acts on fluid 1 alone (g_1 =
//   (0, -g), g_2 = 0), which makes it the heavier by rho_1 g per unit volume,
//   as a Boussinesq buoyancy. The bubble of fluid 2 rises at x = 0, the
//   spike of fluid 1 falls at x = n/2. Writes DIR/fronts.csv
//   "step,spike,bubble" (the heights where the composition crosses 1/2,
//   searched from the top, on those two columns, in cells from the bottom
//   wall).
// layered-channel: fluid 2 along two walls, fluid 1 in the core (half the
//   channel), both driven along x by the same acceleration; the steady
//   profile against the piecewise parabola of two viscosities (continuous
//   velocity and shear stress at the interfaces, the layers' viscosities at
//   their coexistence compositions). Writes DIR/profile.csv "y,u,exact,phi";
//   exits with status 3 if the largest error, relative to the peak
//   velocity, exceeds --max-error.
// Both: progress lines with each component's mass drift (status 3 beyond
// 1e-10: the model conserves each to round-off), and DIR/composition.png,
// the composition phi = rho_1 / (rho_1 + rho_2) with streamlines.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "solvers/lbm/io/field_export.hpp"
#include "solvers/lbm/io/png_output.hpp"
#include "solvers/lbm/multiphase/mixture_simulation.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;
using Mixture = MixtureSimulation<D2Q9>;

struct Options {
  std::string flow_case = "rayleigh-taylor";
  int n = 64;
  int half_width = 16;
  long steps = 0;  // 0: the case's default
  long report_every = 1000;
  double coupling = 0;  // 0: the case's default, 2.5 (Rayleigh-Taylor) or 3 (layered channel)
  double tau_heavy = 1.0;
  double tau_light = 1.0;
  double gravity = 0;  // 0: the case's default, 4e-4 (Rayleigh-Taylor) or 2e-5 (layered channel)
  double min_growth = 0;  // Rayleigh-Taylor: > 0 fails (exit 3) if the fronts grow apart less
  double viscosity_ratio = 3.0;
  double max_error = 0;  // layered channel: > 0 fails (exit 3) beyond it
  std::string out = "two_fluids_out";
};

// The coexisting densities of a flat interface between two symmetric
// phases of total density T: majority M and minority T - M with
// ln(M / m) = G (M - m) (each component's pressure balancing its cross
// force, to leading order; tests/test_lbm_shan_chen_mixture.cpp). Starting
// from them leaves little to settle.
double coexisting_majority(double total, double coupling) {
  double low = 0.5 * total, high = total;
  for (int k = 0; k < 200; ++k) {
    const double m = 0.5 * (low + high);
    (std::log(m / (total - m)) - coupling * (2 * m - total) < 0 ? low : high) = m;
  }
  return 0.5 * (low + high);
}

// The height where phi crosses 1/2 on column x, searched from the top
// (fluid 1 above) down, interpolated linearly, in cells from the bottom
// wall (half-way between the solid row 0 and the first fluid row, which
// then has its centre at 1/2); the fluid rows are 1..ny-2.
double front_height(const std::vector<double>& phi, int nx, int ny, int x) {
  const auto at = [&](int y) { return phi[static_cast<std::size_t>(y) * nx + x]; };
  for (int y = ny - 2; y > 1; --y)
    if (at(y) >= 0.5 && at(y - 1) < 0.5) return y - 1 + (0.5 - at(y - 1)) / (at(y) - at(y - 1)) - 0.5;
  return std::nan("");
}

struct Run {
  Mixture& mix;
  Lattice<double> phi;
  Mixture::VectorField u;
  double mass[2];
  explicit Run(Mixture& m) : mix(m), phi(m.geometry()), u(m.geometry()), mass{m.mass<0>(), m.mass<1>()} {}
  double drift(int c) const { return (c == 0 ? mix.mass<0>() : mix.mass<1>()) / mass[c] - 1; }
};

void write_picture(const std::string& path, Run& run, const Mixture::Boundary& walls) {
  const Geometry& g = run.mix.geometry();
  const int nx = g.dims()[0], ny = g.dims()[1];
  run.phi = run.mix.composition();
  run.u = run.mix.velocity();
  run.u = where(element<0>(walls), RealVector<double, 2>{}, run.u);
  const int scale = std::max(1, 512 / ny);
  write_png(path, gather_component(run.phi), nx, ny,
            FieldPicture("composition rho1/(rho1+rho2)")
                .scaled(scale)
                .with_streamlines(gather_component(run.u, 0), gather_component(run.u, 1))
                .with_solid(gather_component(walls, 0)));
}

// Walls: row 0 and every row from `top` up (the lattice's extents must
// suit the SIMD layout, so a channel may have solid padding above its top
// wall).
Mixture::Boundary channel_walls(const Geometry& g, int top) {
  Mixture::Boundary walls(g);
  walls = zero;
  mark_solid(walls, [&](const Coordinate& x) { return x[1] == 0 || x[1] >= top; });
  return walls;
}

// The surface tension holds short waves: the interface is unstable only for
// g (rho_1 - rho_2) > gamma k^2, and with the defaults (G = 2.5, k = 2 pi / 64)
// g = 1e-4 is still held flat while g = 4e-4 lets the spike fall to the
// bottom wall in about 4000 steps.
int rayleigh_taylor(Options opt) {
  if (opt.coupling == 0) opt.coupling = 2.5;
  if (opt.gravity == 0) opt.gravity = 4e-4;
  if (opt.n % 8) throw std::invalid_argument("--n must be a multiple of 8 (the SIMD layout splits the lattice)");
  const int nx = opt.n, ny = 2 * opt.n;
  const Geometry g({nx, ny});
  MixtureParameters p;
  p.tau[0] = opt.tau_heavy;
  p.tau[1] = opt.tau_light;
  p.coupling = opt.coupling;
  p.gravity[0][1] = -opt.gravity;  // on fluid 1 only: the heavier by rho_1 g
  Mixture mix(g, p);
  const Mixture::Boundary walls = channel_walls(g, ny - 1);
  mix.set_boundary(walls);
  const double total = 1.0, major = coexisting_majority(total, opt.coupling), minor = total - major;
  const double amplitude = 0.05 * nx, middle = 0.5 * ny;
  const auto heavy = [&](const Coordinate& x) {
    return x[1] > middle + amplitude * std::cos(2 * std::numbers::pi * (x[0] + 0.5) / nx);
  };
  // The walls hold both fluids in equal parts: neither wets them.
  const auto solid = [&](const Coordinate& x) { return x[1] == 0 || x[1] == ny - 1; };
  Lattice<double> rho1(g), rho2(g);
  fill(rho1, [&](const Coordinate& x) { return solid(x) ? 0.5 * total : heavy(x) ? major : minor; });
  fill(rho2, [&](const Coordinate& x) { return solid(x) ? 0.5 * total : heavy(x) ? minor : major; });
  mix.initialise(rho1, rho2);
  const long steps = opt.steps > 0 ? opt.steps : 4000;
  std::printf("Rayleigh-Taylor: %s, %dx%d cells (walls on the bottom and top rows), G = %g, tau = %g (heavy), "
              "%g (light), g = %g on the heavy fluid, coexisting densities %.4f / %.4f\n",
              D2Q9::name, nx, ny, opt.coupling, opt.tau_heavy, opt.tau_light, opt.gravity, major, minor);
  std::filesystem::create_directories(opt.out);
  Run run(mix);
  ReportFile csv(opt.out + "/fronts.csv");
  csv << "step,spike,bubble\n";
  csv.precision(8);
  std::printf("%8s %10s %10s %12s %12s %12s\n", "step", "spike", "bubble", "max|u|", "drift m1", "drift m2");
  double updates = 0, seconds = 0, spike = middle, bubble = middle;
  int status = 0;
  while (mix.time() < steps) {
    const long chunk = std::min(opt.report_every, steps - mix.time());
    const auto t0 = std::chrono::steady_clock::now();
    mix.run(chunk);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    updates += static_cast<double>(chunk) * static_cast<double>(g.volume());
    run.phi = mix.composition();
    run.u = mix.velocity();
    const double max_u = std::sqrt(maxval(where(element<0>(walls), 0.0, localNorm2(run.u))));
    const std::vector<double> phi = gather_component(run.phi);
    bubble = front_height(phi, nx, ny, 0);
    spike = front_height(phi, nx, ny, nx / 2);
    const double d1 = run.drift(0), d2 = run.drift(1);
    std::printf("%8ld %10.3f %10.3f %12.4e %12.3e %12.3e\n", mix.time(), spike, bubble, max_u, d1, d2);
    std::fflush(stdout);
    csv << mix.time() << ',' << spike << ',' << bubble << '\n';
    if (!std::isfinite(max_u)) {
      std::printf("diverged after %ld steps\n", mix.time());
      return 4;
    }
    if (std::abs(d1) > 1e-10 || std::abs(d2) > 1e-10) status = 3;
  }
  write_picture(opt.out + "/composition.png", run, walls);
  std::printf("wrote %s/fronts.csv, composition.png\n", opt.out.c_str());
  // The half-distance between the fronts against the initial displacement.
  const double growth = 0.5 * (bubble - spike) / amplitude;
  std::printf("the fronts grew apart %.2f times the initial displacement\n", growth);
  std::printf("performance %.2f million site updates per second\n", updates / seconds * 1e-6);
  if (status) std::printf("error: a component's mass drifted by more than 1e-10\n");
  if (opt.min_growth > 0 && !(growth >= opt.min_growth)) {
    std::printf("error: the growth is below --min-growth %g\n", opt.min_growth);
    status = 3;
  }
  return status;
}

int layered_channel(Options opt) {
  if (opt.coupling == 0) opt.coupling = 3.0;
  if (opt.gravity == 0) opt.gravity = 2e-5;
  const int h = opt.half_width, H = 2 * h;
  const int nx = 8, ny = (H + 2 + 7) / 8 * 8;
  const Geometry g({nx, ny});
  MixtureParameters p;
  const double nu2 = std::sqrt(3.0 / 16.0) / 3.0;  // BGK's half-way wall lies half-way at this tau
  const double nu1 = opt.viscosity_ratio * nu2;
  p.tau[0] = tau_from_viscosity(nu1);
  p.tau[1] = tau_from_viscosity(nu2);
  p.coupling = opt.coupling;
  const double accel = opt.gravity * 64.0 / (h * h);  // the same peak speed for every width
  p.gravity[0][0] = p.gravity[1][0] = accel;
  Mixture mix(g, p);
  const Mixture::Boundary walls = channel_walls(g, H + 1);
  mix.set_boundary(walls);
  const double total = 1.08, major = coexisting_majority(total, opt.coupling), minor = total - major;
  const double b = 0.5 * h, centre = 0.5 * (H + 1);
  const auto core = [&](const Coordinate& x) { return std::abs(x[1] - centre) < b; };
  // The walls hold fluid 2's densities: it wets them.
  Lattice<double> rho1(g), rho2(g);
  fill(rho1, [&](const Coordinate& x) { return core(x) ? major : minor; });
  fill(rho2, [&](const Coordinate& x) { return core(x) ? minor : major; });
  mix.initialise(rho1, rho2);
  const double phi_core = major / total;
  const double nu_core = phi_core * nu1 + (1 - phi_core) * nu2, nu_wall = (1 - phi_core) * nu1 + phi_core * nu2;
  const auto exact = [&](double s) {
    s = std::abs(s);
    if (s >= b) return accel * (h * h - s * s) / (2 * nu_wall);
    return accel * (h * h - b * b) / (2 * nu_wall) + accel * (b * b - s * s) / (2 * nu_core);
  };
  const long steps = opt.steps > 0 ? opt.steps : static_cast<long>(4.0 * h * h / std::min(nu1, nu2));
  std::printf("layered channel: %s, %d fluid rows between walls, core of fluid 1 %g rows wide, G = %g, "
              "nu1 = %.5f, nu2 = %.5f (layers at coexistence: nu %.5f core, %.5f wall), g = %.3e, %ld steps\n",
              D2Q9::name, H, 2 * b, opt.coupling, nu1, nu2, nu_core, nu_wall, accel, steps);
  std::filesystem::create_directories(opt.out);
  Run run(mix);
  const double peak = exact(0);
  std::printf("%8s %12s %12s %12s %12s\n", "step", "u centre", "max error", "drift m1", "drift m2");
  double updates = 0, seconds = 0, error = 0;
  std::vector<double> ux, phi;
  int status = 0;
  while (mix.time() < steps) {
    const long chunk = std::min(opt.report_every, steps - mix.time());
    const auto t0 = std::chrono::steady_clock::now();
    mix.run(chunk);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    updates += static_cast<double>(chunk) * static_cast<double>(g.volume());
    run.u = mix.velocity();
    run.phi = mix.composition();
    ux = gather_component(run.u, 0);
    phi = gather_component(run.phi);
    error = 0;
    for (int y = 1; y <= H; ++y)
      error = std::max(error, std::abs(ux[static_cast<std::size_t>(y) * nx] - exact(y - centre)) / peak);
    const double d1 = run.drift(0), d2 = run.drift(1);
    std::printf("%8ld %12.5e %12.4e %12.3e %12.3e\n", mix.time(), ux[static_cast<std::size_t>(h) * nx], error, d1, d2);
    std::fflush(stdout);
    if (!std::isfinite(error)) {
      std::printf("diverged after %ld steps\n", mix.time());
      return 4;
    }
    if (std::abs(d1) > 1e-10 || std::abs(d2) > 1e-10) status = 3;
  }
  {
    ReportFile csv(opt.out + "/profile.csv");
    csv << "y,u,exact,phi\n";
    csv.precision(10);
    for (int y = 1; y <= H; ++y) {
      const std::size_t k = static_cast<std::size_t>(y) * nx;
      csv << y - 0.5 << ',' << ux[k] << ',' << exact(y - centre) << ',' << phi[k] << '\n';  // y from the wall
    }
  }
  write_picture(opt.out + "/composition.png", run, walls);
  std::printf("wrote %s/profile.csv, composition.png\n", opt.out.c_str());
  std::printf("largest deviation from the two-viscosity profile: %.3f %% of the peak velocity\n", 100 * error);
  std::printf("performance %.2f million site updates per second\n", updates / seconds * 1e-6);
  if (status) std::printf("error: a component's mass drifted by more than 1e-10\n");
  if (opt.max_error > 0 && error > opt.max_error) {
    std::printf("error: the deviation exceeds --max-error %g\n", opt.max_error);
    status = 3;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{"Two immiscible fluids, two-component Shan-Chen lattice Boltzmann (D2Q9)"};
  cli.option("--case", opt.flow_case, "rayleigh-taylor or layered-channel")
      .one_of({"rayleigh-taylor", "layered-channel"})
      .show_default();
  cli.option("--n", opt.n, "Rayleigh-Taylor: cells across (the box is n x 2n)").range(8, 4096).show_default();
  cli.option("--half-width", opt.half_width, "layered channel: half the number of fluid rows").range(4, 1024)
      .show_default();
  cli.option("--steps", opt.steps, "steps to run (0: 4000 for Rayleigh-Taylor, four viscous times for the channel)")
      .show_default();
  cli.option("--report-every", opt.report_every, "steps between progress lines").positive().show_default();
  cli.option("--coupling", opt.coupling, "G of the cross force (G rho > 2 separates; 0: 2.5 or 3 by case)")
      .range(0.0, 4.0)
      .show_default();
  cli.option("--tau-heavy", opt.tau_heavy, "Rayleigh-Taylor: tau of fluid 1").range(0.51, 3.0).show_default();
  cli.option("--tau-light", opt.tau_light, "Rayleigh-Taylor: tau of fluid 2").range(0.51, 3.0).show_default();
  cli.option("--gravity", opt.gravity,
             "Rayleigh-Taylor: g on fluid 1 (0: 4e-4); layered channel: the acceleration at half-width 8, scaled by "
             "64 / h^2 (0: 2e-5)")
      .range(0.0, 1e-2)
      .show_default();
  cli.option("--viscosity-ratio", opt.viscosity_ratio, "layered channel: nu1 / nu2").range(0.2, 10.0).show_default();
  cli.option("--max-error", opt.max_error,
             "layered channel: exit with status 3 if the profile misses the analytic one by more (relative)");
  cli.option("--min-growth", opt.min_growth,
             "Rayleigh-Taylor: exit with status 3 if the fronts' half-distance grows by a smaller factor");
  cli.option("--out", opt.out, "output directory").show_default();
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    return opt.flow_case == "rayleigh-taylor" ? rayleigh_taylor(opt) : layered_channel(opt);
  } catch (const std::exception& e) {
    std::cerr << "lbm_two_fluids: " << e.what() << '\n';
    return 1;
  }
}
