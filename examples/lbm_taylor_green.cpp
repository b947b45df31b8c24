// Decay of the 2-D Taylor-Green vortex (D2Q9) against exp(-2 nu k^2 t),
// nu = (tau - 1/2)/3, k = 2 pi / n (solvers/lbm/flow/taylor_green.hpp).
//
//   lbm_taylor_green --n 64 --tau 0.8 --out DIR
//
// Prints the measured amplitude (projection of u on the initial mode) beside
// the analytic one during the run, then the decay rate fitted between
// step --skip (the first steps carry the start-up transient of an
// equilibrium initialisation) and the end, and its relative error. The
// lattice's error in the rate grows like (k tau)^2, so large tau needs large
// n. Writes DIR/vorticity_start.png and DIR/vorticity_end.png. Exit status 3
// if --max-rate-error is given and exceeded.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "examples/command_line.hpp"
#include "solvers/lbm/flow/analytic.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/flow/taylor_green.hpp"
#include "solvers/lbm/io/field_export.hpp"
#include "solvers/lbm/io/png_output.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;

struct Options {
  int n = 64;
  double tau = 0.8;
  double u0 = 0.02;
  long steps = 0;  // 0: until the analytic amplitude has fallen by e^1.5
  long skip = 20;
  int reports = 10;
  std::string model = "bgk";
  std::string out = "taylor_green_out";
  double max_rate_error = 0;
};

template <class Sim>
void write_vorticity(const Sim& sim, const std::string& path) {
  typename Sim::VectorField u(sim.geometry());
  typename Sim::ScalarField w(sim.geometry());
  u = sim.velocity();
  w = vorticity(u);
  const int n = sim.geometry().dims()[0];
  write_png(path, gather_component(w), n, n,
            FieldPicture("vorticity (lattice units)", true)
                .scaled(std::max(1, 512 / n))
                .with_streamlines(gather_component(u, 0), gather_component(u, 1)));
}

template <class Model>
int run(const Options& opt) {
  const Geometry g({opt.n, opt.n});
  Parameters p;
  p.tau = opt.tau;
  using Sim = Simulation<D2Q9, double, Model>;
  Sim sim(g, p);
  const TaylorGreen<Sim> vortex(g);
  vortex.initialise(sim, opt.u0);
  const double nu = viscosity_from_tau(opt.tau), k = vortex.wave_number();
  const double rate = analytic::taylor_green_rate(k, nu);
  const long steps = opt.steps > 0 ? opt.steps : static_cast<long>(1.5 / rate);
  if (steps <= opt.skip) throw std::invalid_argument("--steps must exceed --skip");
  std::printf("Taylor-Green vortex: D2Q9 %s, n = %d, tau = %g (nu = %.6f), u0 = %g, k = %.6f, %ld steps\n",
              Model::name, opt.n, opt.tau, nu, opt.u0, k, steps);
  std::filesystem::create_directories(opt.out);
  write_vorticity(sim, opt.out + "/vorticity_start.png");

  std::printf("%8s %14s %14s %10s\n", "step", "amplitude", "analytic", "ratio");
  auto report = [&](double a) {
    const double exact = opt.u0 * std::exp(-rate * static_cast<double>(sim.time()));
    std::printf("%8ld %14.6e %14.6e %10.6f\n", sim.time(), a, exact, a / exact);
  };
  report(vortex.amplitude(sim));
  sim.run(opt.skip);
  const double a_skip = vortex.amplitude(sim);
  report(a_skip);
  const long chunk = std::max(1L, (steps - opt.skip) / opt.reports);
  double a = a_skip;
  while (sim.time() < steps) {
    sim.run(std::min(chunk, steps - sim.time()));
    a = vortex.amplitude(sim);
    report(a);
    if (!std::isfinite(a)) throw std::runtime_error("the simulation diverged (NaN)");
  }
  const double measured = std::log(a_skip / a) / static_cast<double>(steps - opt.skip);
  const double error = measured / rate - 1.0;
  std::printf("decay rate: measured %.8e, analytic 2 nu k^2 = %.8e, relative error %+.4e\n", measured, rate, error);
  write_vorticity(sim, opt.out + "/vorticity_end.png");
  std::printf("wrote %s/vorticity_start.png, %s/vorticity_end.png\n", opt.out.c_str(), opt.out.c_str());
  if (opt.max_rate_error > 0 && !(std::abs(error) <= opt.max_rate_error)) {
    std::printf("error: rate error exceeds --max-rate-error %g\n", opt.max_rate_error);
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{"Lattice-Boltzmann Taylor-Green vortex (D2Q9): decay rate against exp(-2 nu k^2 t)"};
  cli.option("--n", opt.n, "lattice extent (n x n, periodic)").range(8, 8192).show_default();
  cli.option("--tau", opt.tau, "relaxation time (nu = (tau - 1/2)/3)").range(0.5001, 100.0).show_default();
  cli.option("--u0", opt.u0, "initial velocity amplitude").range(1e-6, 0.3).show_default();
  cli.option("--steps", opt.steps, "time steps (0: until the amplitude has fallen by e^1.5)").show_default();
  cli.option("--skip", opt.skip, "steps before the rate fit starts").show_default();
  cli.option("--reports", opt.reports, "progress lines").positive().show_default();
  cli.option("--model", opt.model, "collision: bgk or trt").one_of({"bgk", "trt"}).show_default();
  cli.option("--out", opt.out, "output directory").show_default();
  cli.option("--max-rate-error", opt.max_rate_error, "exit with status 3 if |measured/analytic rate - 1| exceeds this");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    return opt.model == "trt" ? run<Trt>(opt) : run<Bgk>(opt);
  } catch (const std::exception& e) {
    std::cerr << "lbm_taylor_green: " << e.what() << '\n';
    return 1;
  }
}
