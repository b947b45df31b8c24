// Force-driven Poiseuille flow between half-way bounce-back walls, run to a
// steady state and compared with the analytic profile.
//
//   lbm_poiseuille --n 32                 2-D channel (D2Q9)
//   lbm_poiseuille --dim 3 --n 32         3-D, between two plates (D3Q19)
//   lbm_poiseuille --dim 3 --duct --n 32  3-D, square duct (D3Q19)
//
// The flow runs along x (periodic, a few cells long: the solution does not
// depend on x). n fluid cells lie across the channel; with half-way
// bounce-back the walls sit on cell faces, so cell k is at distance k + 1/2
// from the wall and the channel width is n. The analytic solutions are in
// solvers/lbm/flow/analytic.hpp. With TRT and the magic parameter 3/16 the
// parabola is reproduced exactly (round-off and the steady-state tolerance);
// BGK puts the wall at a tau-dependent position (second-order error); the
// duct has a small discretisation error that falls with n.
//
// Writes DIR/profile.csv (distance from the wall, u, analytic u; for the duct
// the whole cross-section y,z,u,u_exact) and DIR/poiseuille.vti. Exit status:
// 0 steady and within --max-error (if given), 2 not steady, 3 error too large.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "solvers/lbm/flow/analytic.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/field_export.hpp"
#include "solvers/lbm/io/vtk_output.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;

struct Options {
  int dim = 2;
  bool duct = false;
  int n = 32;
  int length = 2;  // cells along the flow
  double tau = 1.0;
  double force = 1e-5;
  std::string model = "trt";
  double tolerance = 1e-10;
  long check_every = 500;
  long max_steps = 1000000;
  std::string out = "poiseuille_out";
  double max_error = 0;  // > 0: exit 3 above this relative L2 error
};

// Extent across the channel: the n fluid cells plus at least one solid row
// (on the periodic lattice one solid row is the wall on both sides), rounded
// up so that the SIMD layout divides it.
int padded_extent(int n) { return (n + 1 + 7) / 8 * 8; }

template <class VS, class Model>
int run(const Options& opt) {
  constexpr int D = VS::d;
  const int n = opt.n, extent = padded_extent(n);
  // Flow along x; walls across the last dimension (2-D, plates) or across
  // both y and z (duct).
  Coordinate dims(D, opt.length);
  dims[D - 1] = extent;
  if (opt.duct) dims[1] = extent;
  const Geometry g(dims);
  const double nu = viscosity_from_tau(opt.tau);
  Parameters p;
  p.tau = opt.tau;
  p.force[0] = opt.force;
  using Sim = Simulation<VS, double, Model>;
  Sim sim(g, p);
  typename Sim::Boundary b(g);
  mark_solid(b, [&](const Coordinate& x) { return x[D - 1] >= n || (opt.duct && x[1] >= n); });
  sim.set_boundary(b);
  const char* shape = D == 2 ? "2-D channel" : opt.duct ? "square duct" : "plates";
  std::printf("Poiseuille flow, %s: %s %s, n = %d, lattice %s, tau = %g (nu = %.6f), force = %g\n", shape, VS::name,
              Model::name, n, to_string(dims).c_str(), opt.tau, nu, opt.force);

  // Steady when the fluid velocity changes by less than the tolerance
  // (relative L2) over check_every steps.
  typename Sim::VectorField u(g), previous(g);
  previous = sim.velocity();
  bool steady = false;
  while (sim.time() < opt.max_steps) {
    sim.run(opt.check_every);
    u = sim.velocity();
    const double change = std::sqrt(sum(where(element<0>(b), 0.0, localNorm2(u - previous))) /
                                    sum(where(element<0>(b), 0.0, localNorm2(u))));
    previous = u;
    if (!std::isfinite(change)) throw std::runtime_error("the simulation diverged (NaN)");
    if (change < opt.tolerance) {
      steady = true;
      break;
    }
  }
  std::printf("%s after %ld steps; max |u| = %.6e\n", steady ? "steady" : "NOT steady", sim.time(),
              sim.max_speed());

  // The profile at x = 0 (and y = 0 for plates), or the duct's cross-section.
  std::filesystem::create_directories(opt.out);
  const std::vector<double> ux = gather_component(u, 0);
  auto index = [&](int y, int z) {  // global lexicographic index of (0, y, z) or (0, y)
    return D == 2 ? static_cast<std::size_t>(z) * dims[0]
                  : (static_cast<std::size_t>(z) * dims[1] + static_cast<std::size_t>(y)) * dims[0];
  };
  ReportFile csv(opt.out + "/profile.csv");
  csv.precision(12);
  double error2 = 0, norm2_exact = 0;
  auto record = [&](double measured, double exact) {
    error2 += (measured - exact) * (measured - exact);
    norm2_exact += exact * exact;
  };
  if (opt.duct) {
    csv << "y,z,u,u_exact\n";
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y) {
        const double exact = analytic::duct_poiseuille(y + 0.5, z + 0.5, n, n, opt.force, nu);
        record(ux[index(y, z)], exact);
        csv << y + 0.5 << ',' << z + 0.5 << ',' << ux[index(y, z)] << ',' << exact << '\n';
      }
  } else {
    csv << "y,u,u_exact\n";
    for (int z = 0; z < n; ++z) {
      const double exact = analytic::plane_poiseuille(z + 0.5, n, opt.force, nu);
      record(ux[index(0, z)], exact);
      csv << z + 0.5 << ',' << ux[index(0, z)] << ',' << exact << '\n';
    }
  }
  const double error = std::sqrt(error2 / norm2_exact);
  std::printf("relative L2 error against the analytic %s profile: %.6e\n", opt.duct ? "duct (series)" : "parabolic",
              error);

  Lattice<double> rho(g), solid(g);
  rho = sim.density();
  solid = element<0>(b);
  VtiWriter(g).scalar("density", rho).vector("velocity", u).scalar("solid", solid)
      .write(opt.out + "/poiseuille.vti");
  std::printf("wrote %s/profile.csv, %s/poiseuille.vti\n", opt.out.c_str(), opt.out.c_str());
  if (opt.max_error > 0 && !(error <= opt.max_error)) {
    std::printf("error: L2 error exceeds --max-error %g\n", opt.max_error);
    return 3;
  }
  return steady ? 0 : 2;
}

template <class VS>
int run_model(const Options& opt) {
  return opt.model == "trt" ? run<VS, Trt>(opt) : run<VS, Bgk>(opt);
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{
      "Lattice-Boltzmann Poiseuille flow (D2Q9 channel, D3Q19 plates or square duct) against theory"};
  cli.option("--dim", opt.dim, "2 (D2Q9) or 3 (D3Q19)").one_of({2, 3}).show_default();
  cli.flag("--duct", opt.duct, "3-D only: a square duct instead of two plates");
  cli.option("--n", opt.n, "fluid cells across the channel").range(2, 4096).show_default();
  cli.option("--length", opt.length, "cells along the (periodic) flow direction").range(1, 4096).show_default();
  cli.option("--tau", opt.tau, "relaxation time (nu = (tau - 1/2)/3)").range(0.5001, 100.0).show_default();
  cli.option("--force", opt.force, "body force density along x").show_default();
  cli.option("--model", opt.model, "collision: bgk or trt").one_of({"bgk", "trt"}).show_default();
  cli.option("--tolerance", opt.tolerance,
             "steady when the velocity changes by less than this (relative L2) over --check-every steps")
      .show_default();
  cli.option("--check-every", opt.check_every, "steps between convergence checks").positive().show_default();
  cli.option("--steps", opt.max_steps, "give up after this many steps").show_default();
  cli.option("--out", opt.out, "output directory").show_default();
  cli.option("--max-error", opt.max_error, "exit with status 3 if the relative L2 error exceeds this");
  if (auto status = cli.parse(argc, argv)) return *status;
  if (opt.duct && opt.dim != 3) {
    std::cerr << "lbm_poiseuille: --duct needs --dim 3\n";
    return 1;
  }
  try {
    return opt.dim == 2 ? run_model<D2Q9>(opt) : run_model<D3Q19>(opt);
  } catch (const std::exception& e) {
    std::cerr << "lbm_poiseuille: " << e.what() << '\n';
    return 1;
  }
}
