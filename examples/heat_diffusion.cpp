// Heat diffusion on a periodic 3-D lattice, written as Latte statements.
//
// Explicit Euler step of dT/dt = D laplacian(T), lattice spacing 1:
//   T <- T + kappa * sum_mu [T(x+mu) + T(x-mu) - 2 T(x)],  kappa = D dt <= 1/6
// From a point source the heat spreads as a lattice random walk, so two
// things are exact and printed as checks: total heat is conserved, and the
// variance of the distribution grows by exactly 2 kappa per step in each
// dimension (until the heat wraps around the periodic box).
//
// Under mpirun the lattice is spread over the ranks and rank 0 prints; the
// numbers are the same bits as on one rank.

#include <chrono>
#include <cstdio>

#include "dsl/latte.hpp"
#include "examples/command_line.hpp"

using namespace latte;

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  programs::CommandLine cli{"Heat diffusion from a point source with Latte"};
  int n = 64;
  int steps = 200;
  double kappa = 0.1;
  cli.option("--n", n, "lattice extent in each of the three dimensions").positive();
  cli.option("--steps", steps, "time steps").non_negative();
  cli.option("--kappa", kappa, "D dt; stable for kappa <= 1/6").range(0.0, 1.0 / 6.0);
  if (auto status = cli.parse(argc, argv)) return *status;

  try {
    Geometry geometry({n, n, n});
    Lattice<double> T(geometry), next(geometry), distance2(geometry), x(geometry);
    const Coordinate source{n / 2, n / 2, n / 2};
    poke(T, source, 1.0);

    // |x - source|^2 as a field, for the spread.
    distance2 = zero;
    for (int mu = 0; mu < 3; ++mu) {
      fill_coordinate(x, mu);
      distance2 += (x - source[mu]) * (x - source[mu]);
    }

    const bool report = environment.is_root();
    if (report) {
      std::printf("Latte heat diffusion: %d^3 lattice, kappa = %g, backend %s, %d SIMD lanes (double), %d rank%s "
                  "(process grid %s)\n",
                  n, kappa, backend::Default::name, Lattice<double>::nsimd, environment.ranks(),
                  environment.ranks() > 1 ? "s" : "", to_string(geometry.process_grid()).c_str());
      std::printf("%8s %22s %16s %16s\n", "step", "total heat", "variance/dim", "exact 2*kappa*t");
    }
    const auto start = std::chrono::steady_clock::now();
    for (int step = 1; step <= steps; ++step) {
      // One fused pass: reads T (and its six neighbours) once, writes next.
      next = T + kappa * (shift(T, 0, +1) + shift(T, 0, -1) + shift(T, 1, +1) + shift(T, 1, -1) + shift(T, 2, +1) +
                          shift(T, 2, -1) - 6.0 * T);
      T.swap(next);
      if (step % (steps / 5 > 0 ? steps / 5 : 1) == 0 || step == steps) {
        const double heat = sum(T);
        const double variance = sum(distance2 * T) / heat / 3.0;
        if (report) std::printf("%8d %22.15f %16.10f %16.10f\n", step, heat, variance, 2.0 * kappa * step);
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double updates = static_cast<double>(geometry.volume()) * steps;
    if (report) std::printf("%.3f s, %.1f million site updates per second\n", seconds, updates / seconds / 1e6);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
  return 0;
}
