// Uses the installed headers as an application would: a random gauge field
// written to a NERSC file and read back, a Wilson solve on it, and a short
// lattice-Boltzmann flow. Exit status 0 says every result was right.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace {

bool check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  return ok;
}

// Gauge file round trip, then CG on M^+ M: the true residual |b - M x| / |b|
// must meet the tolerance.
bool wilson_solve_on_a_file(const std::string& path) {
  using namespace latte;
  const Geometry geometry({4, 4, 4, 8});
  ParallelRng rng(7);
  GaugeField<double> written(geometry), U(geometry);
  written.set_random(rng);
  write_nersc(written, path);
  read_nersc(U, path);  // checks the checksum, link trace and plaquette itself
  bool ok = check(average_plaquette(U) == average_plaquette(written), "NERSC file read back with the same plaquette");
  WilsonDirac<double> M(U, 0.1);
  Lattice<Spinor<double>> x(geometry), b(geometry);
  rng.gaussian(b);
  x = zero;
  const SolverReport report = solve_wilson(M, x, b, SolverControl{1e-10, 1000});
  const double residual = relative_residual(M, x, b);
  std::printf("Wilson CG: %d iterations, |b - M x| / |b| = %.3g\n", report.iterations, residual);
  return check(residual < 1e-9, "Wilson solve meets its tolerance") && ok;
}

// A periodic D2Q9 flow from a random density conserves its mass to round-off.
bool lattice_boltzmann_conserves_mass() {
  using namespace latte;
  const Geometry geometry({16, 16});
  lbm::Simulation<lbm::D2Q9, double, lbm::Trt> flow(geometry, lbm::Parameters{0.8});
  Lattice<double> rho(geometry);
  Lattice<RealVector<double, 2>> u(geometry);
  ParallelRng rng(3);
  rng.uniform(rho, 0.9, 1.1);
  u = zero;
  flow.initialise(rho, u);
  const double before = flow.mass();
  flow.run(50);
  const double drift = std::abs(flow.mass() - before) / before;
  std::printf("D2Q9: mass %.15g -> %.15g after 50 steps\n", before, flow.mass());
  return check(drift < 1e-12, "lattice-Boltzmann flow conserves mass");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "consumer_gauge.nersc";
  const bool ok = wilson_solve_on_a_file(path) && lattice_boltzmann_conserves_mass();
  std::remove(path.c_str());
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
