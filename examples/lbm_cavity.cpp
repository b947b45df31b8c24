// 2-D lid-driven cavity with D2Q9 lattice Boltzmann, run to steady state.
//
//   lbm_cavity --re 100 --n 128 --out DIR
//   lbm_cavity --re 1000 --n 256 --model mrt --out DIR
//
// The cavity has n x n fluid cells; half-way bounce-back walls lie on the
// cell faces, so cell centres sit at (i + 1/2)/n in units of the side. The
// lid (top wall) moves at --lid-speed in lattice units; the viscosity follows
// from Re = U n / nu. Writes
//   DIR/centerline_u.csv  "y,u": u/U on the vertical centre line, y from the
//                         bottom wall (0) to the lid (1), walls included
//   DIR/centerline_v.csv  "x,v": v/U on the horizontal centre line
//   DIR/cavity.vti        density, velocity, vorticity, solid mask (ParaView)
//   DIR/speed.png, DIR/vorticity.png  colour maps with a colour bar and streamlines
// and, at --re 100 and --re 1000, the largest deviation from Ghia, Ghia &
// Shin (1982). --model picks the collision: BGK, TRT or MRT (the last with
// --bulk-rate, --odd-rate and --even-rate for the moments that do not set the
// viscosity, solvers/lbm/collision/collision.hpp). If the flow diverges the program
// says at which step and exits with status 4.
// A checkpoint (DIR/cavity.chk) is written every --checkpoint-every steps;
// --restart resumes from it. --in-place streams in place (one population
// field, solvers/lbm/streaming/in_place_streaming.hpp) instead of with two lattices.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/lbm_ghia1982.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/io/png_output.hpp"
#include "solvers/lbm/io/vtk_output.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;

struct Options {
  double re = 100;
  int n = 128;
  std::string out = "cavity_out";
  double lid_speed = 0.1;
  std::string model = "trt";
  double bulk_rate = Mrt::bulk_rate;
  double even_rate = Mrt::even_ghost_rate;
  double odd_rate = Mrt::odd_ghost_rate;
  double tolerance = 1e-7;
  long check_every = 1000;
  long max_steps = 2000000;
  long checkpoint_every = 0;
  bool restart = false;
  bool in_place = false;
  double max_deviation = 0;  // > 0: fail (exit 3) if Ghia's data are missed by more
};

// A profile sampled at positions p (ascending), linearly interpolated.
double interpolate(const std::vector<double>& p, const std::vector<double>& v, double at) {
  const auto it = std::upper_bound(p.begin(), p.end(), at);
  if (it == p.begin()) return v.front();
  if (it == p.end()) return v.back();
  const std::size_t k = static_cast<std::size_t>(it - p.begin());
  const double s = (at - p[k - 1]) / (p[k] - p[k - 1]);
  return v[k - 1] + s * (v[k] - v[k - 1]);
}

template <class Model>
int run(const Options& opt) {
  const int n = opt.n;
  // Solid padding around the fluid: at least two rows (the lid and the bottom
  // wall must be different cells on the periodic lattice) and extents that
  // the SIMD layout divides.
  const int extent = (n + 2 + 7) / 8 * 8;
  const Geometry g({extent, extent});
  const double U = opt.lid_speed;
  const double nu = U * n / opt.re;
  using Sim = Simulation<D2Q9, double, Model>;
  typename Sim::Parameters p;  // the model's own parameters and the force
  p.tau = tau_from_viscosity(nu);
  if constexpr (std::is_same_v<Model, Mrt>) {
    p.bulk_rate = opt.bulk_rate;
    p.even_rate = opt.even_rate;
    p.odd_rate = opt.odd_rate;
  }
  // In place: one population field, streamed with the AA pattern; the rest
  // of the program is the same.
  Sim sim = opt.in_place ? Sim(g, p, in_place_streaming) : Sim(g, p);
  typename Sim::Boundary b(g);
  mark_solid(b, [&](const Coordinate& x) { return x[0] >= n || x[1] >= n; }, [&](const Coordinate& x) {
    return std::array<double, 2>{x[1] == n ? U : 0.0, 0.0};  // the row above the fluid is the lid
  });
  sim.set_boundary(b);
  std::filesystem::create_directories(opt.out);
  const std::string checkpoint = opt.out + "/cavity.chk";
  if (opt.restart) {
    read_checkpoint(sim, checkpoint);
    std::printf("restarted from %s at step %ld\n", checkpoint.c_str(), sim.time());
  }
  std::printf("lid-driven cavity: %s %s, n = %d (lattice %dx%d), Re = %g, U = %g, nu = %.5f, tau = %.5f\n",
              D2Q9::name, Model::name, n, extent, extent, opt.re, U, nu, p.tau);
  std::printf("streaming: %s, %g bytes of populations per cell\n", sim.in_place() ? "in place (AA pattern)" : "two lattices",
              sim.population_bytes_per_cell());

  typename Sim::VectorField u(g), previous(g);
  previous = sim.velocity();
  const double mass0 = sim.mass();
  bool steady = false;
  std::printf("%10s %10s %12s %14s %14s\n", "step", "MLUPS", "max|u|/U", "mass drift", "change");
  while (sim.time() < opt.max_steps) {
    const auto t0 = std::chrono::steady_clock::now();
    sim.run(opt.check_every);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    u = sim.velocity();
    const double change = std::sqrt(sum(where(element<0>(b), 0.0, localNorm2(u - previous))) /
                                    sum(where(element<0>(b), 0.0, localNorm2(u))));
    previous = u;
    const double mlups = static_cast<double>(opt.check_every) * static_cast<double>(g.volume()) / seconds * 1e-6;
    const double max_u = sim.max_speed();
    const double drift = (sim.mass() - mass0) / mass0;
    std::printf("%10ld %10.1f %12.6f %14.3e %14.3e\n", sim.time(), mlups, max_u / U, drift, change);
    std::fflush(stdout);
    if (!std::isfinite(max_u) || !std::isfinite(drift)) {
      std::printf("diverged: the velocity is not finite after %ld steps (%s, tau = %.5f)\n", sim.time(),
                  Model::name, p.tau);
      return 4;
    }
    if (opt.checkpoint_every > 0 && sim.time() % opt.checkpoint_every < opt.check_every)
      write_checkpoint(sim, checkpoint);
    if (change < opt.tolerance) {
      steady = true;
      break;
    }
  }
  if (!steady) std::printf("warning: not steady after %ld steps\n", sim.time());

  // Centre lines: cell centres (k + 1/2)/n plus the wall values; for even n
  // the centre line x = 1/2 lies between columns n/2 - 1 and n/2.
  const std::vector<double> ux = gather_component(u, 0), uy = gather_component(u, 1);
  auto at = [&](const std::vector<double>& f, int x, int y) { return f[static_cast<std::size_t>(y) * extent + x]; };
  std::vector<double> pos{0.0}, cu{0.0}, cv{0.0};
  for (int k = 0; k < n; ++k) {
    pos.push_back((k + 0.5) / n);
    const int a = (n - 1) / 2, c = n / 2;
    cu.push_back(0.5 * (at(ux, a, k) + at(ux, c, k)) / U);
    cv.push_back(0.5 * (at(uy, k, a) + at(uy, k, c)) / U);
  }
  pos.push_back(1.0);
  cu.push_back(1.0);  // the lid
  cv.push_back(0.0);
  {
    ReportFile fu(opt.out + "/centerline_u.csv"), fv(opt.out + "/centerline_v.csv");
    fu << "y,u\n";
    fv << "x,v\n";
    fu.precision(10);
    fv.precision(10);
    for (std::size_t k = 0; k < pos.size(); ++k) {
      fu << pos[k] << ',' << cu[k] << '\n';
      fv << pos[k] << ',' << cv[k] << '\n';
    }
  }

  Lattice<double> rho(g), vort(g), solid(g), speed(g);
  rho = sim.density();
  vort = lbm::vorticity(u);
  vort = where(element<0>(b), 0.0, vort);
  solid = element<0>(b);
  speed = sqrt(localNorm2(u));
  VtiWriter(g).scalar("density", rho).vector("velocity", u).scalar("vorticity", vort).scalar("solid", solid)
      .write(opt.out + "/cavity.vti");
  // The pictures show the cavity itself, n x n fluid cells: the solid
  // padding beyond them (up to 7 rows and columns at small n) is left out.
  const auto cavity = [&](const std::vector<double>& f) {
    std::vector<double> square(static_cast<std::size_t>(n) * n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) square[static_cast<std::size_t>(y) * n + x] = at(f, x, y);
    return square;
  };
  const int scale = std::max(1, 512 / n);
  speed = speed * (1.0 / U);
  vort = vort * (n / U);  // in units of U / side
  const std::vector<double> cavity_ux = cavity(ux), cavity_uy = cavity(uy);
  write_png(opt.out + "/speed.png", cavity(gather_component(speed)), n, n,
            FieldPicture("speed |u|/U").scaled(scale).with_streamlines(cavity_ux, cavity_uy));
  write_png(opt.out + "/vorticity.png", cavity(gather_component(vort)), n, n,
            FieldPicture("vorticity in U/side", true).scaled(scale).with_streamlines(cavity_ux, cavity_uy));
  std::printf("wrote %s/centerline_u.csv, centerline_v.csv, cavity.vti, speed.png, vorticity.png\n",
              opt.out.c_str());

  const bool tabulated = opt.re == 100 || opt.re == 1000;
  if (tabulated) {
    const auto& table_u = opt.re == 100 ? ghia1982::re100_u : ghia1982::re1000_u;
    const auto& table_v = opt.re == 100 ? ghia1982::re100_v : ghia1982::re1000_v;
    double worst_u = 0, worst_v = 0, at_u = 0, at_v = 0;
    for (const auto& r : table_u) {
      const double d = std::abs(interpolate(pos, cu, r.position) - r.velocity);
      if (d > worst_u) { worst_u = d; at_u = r.position; }
    }
    for (const auto& r : table_v) {
      const double d = std::abs(interpolate(pos, cv, r.position) - r.velocity);
      if (d > worst_v) { worst_v = d; at_v = r.position; }
    }
    std::printf("max deviation from Ghia et al. (1982), Re = %g, in units of the lid speed: "
                "u %.4f (at y = %.4f), v %.4f (at x = %.4f)\n", opt.re, worst_u, at_u, worst_v, at_v);
    if (opt.max_deviation > 0 && std::max(worst_u, worst_v) > opt.max_deviation) {
      std::printf("error: deviation exceeds --max-deviation %g\n", opt.max_deviation);
      return 3;
    }
  }
  return steady ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{"Lattice-Boltzmann lid-driven cavity (D2Q9), run to steady state"};
  cli.option("--re", opt.re, "Reynolds number U n / nu").show_default();
  cli.option("--n", opt.n, "fluid cells per side").range(4, 4096).show_default();
  cli.option("--out", opt.out, "output directory").show_default();
  cli.option("--lid-speed", opt.lid_speed, "lid speed in lattice units (Mach = U sqrt(3))")
      .range(1e-4, 0.3)
      .show_default();
  cli.option("--model", opt.model, "collision: bgk, trt or mrt").one_of({"bgk", "trt", "mrt"}).show_default();
  cli.option("--odd-rate", opt.odd_rate, "MRT: relaxation rate of the odd ghost moments").range(1e-3, 1.999).show_default();
  cli.option("--bulk-rate", opt.bulk_rate, "MRT: relaxation rate of the bulk moment").range(1e-3, 1.999).show_default();
  cli.option("--even-rate", opt.even_rate, "MRT: relaxation rate of the even ghost moments")
      .range(1e-3, 1.999)
      .show_default();
  cli.option("--tolerance", opt.tolerance,
             "steady when the velocity changes by less than this (relative L2) over --check-every steps")
      .show_default();
  cli.option("--check-every", opt.check_every, "steps between progress lines").positive().show_default();
  cli.option("--max-steps", opt.max_steps, "give up after this many steps").show_default();
  cli.option("--checkpoint-every", opt.checkpoint_every, "write DIR/cavity.chk every so many steps (0: never)")
      .show_default();
  cli.flag("--restart", opt.restart, "resume from DIR/cavity.chk");
  cli.flag("--in-place", opt.in_place, "stream in place: one population field instead of two");
  cli.option("--max-deviation", opt.max_deviation,
             "at Re = 100 or 1000: exit with status 3 if the centre lines miss Ghia et al. (1982) by more than this");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    if (opt.model == "mrt") return run<Mrt>(opt);
    return opt.model == "trt" ? run<Trt>(opt) : run<Bgk>(opt);
  } catch (const std::exception& e) {
    std::cerr << "lbm_cavity: " << e.what() << '\n';
    return 1;
  }
}
