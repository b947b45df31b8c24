// Solve the Wilson-Dirac equation M x = b on a random ("hot") SU(3) gauge
// field, or one read from a gauge file, with conjugate gradient on the
// normal equations, all in Latte's DSL.
//
//   wilson_cg --lattice 8 8 8 16 --mass 0.1 --tolerance 1e-10 --seed 7 --precision double
//   wilson_cg --load-gauge config.nersc --mass 0.1      # a configuration from a gauge file
//   wilson_cg --save-gauge config.ildg --save-format ildg --save-precision 32
//   wilson_cg --boundary antiperiodic --even-odd           # antiperiodic in time
//   wilson_cg --boundary twisted:0.5,0,0,1                 # theta_mu in units of pi
//
// --load-gauge reads NERSC, ILDG/SciDAC, openQCD and MILC files, telling
// them apart by content (solvers/qcd/io/gauge_file.hpp, docs/gauge_files.md);
// --save-gauge writes NERSC (default), ILDG or openQCD.
//
// --precision mixed solves in double with single-precision corrections
// (defect correction, solvers/qcd/solves/wilson_solve_mixed.hpp); --even-odd solves
// the even-odd preconditioned system (solvers/qcd/fermions/wilson_even_odd.hpp); the
// two combine (defect correction on the even-odd system). --boundary sets
// the fermion boundary phases (solvers/qcd/fermions/fermion_boundary.hpp; periodic
// unless told).

#include <cstdio>
#include <string>

#include "examples/command_line.hpp"
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"

using namespace latte;

struct Options {
  Coordinate lattice{8, 8, 8, 8};
  double mass = 0.1;
  double tolerance = 1e-10;
  std::uint64_t seed = 7;
  int max_iterations = 10000;
  std::string precision = "double";
  std::string boundary = "periodic";  // parse_fermion_boundary
  bool even_odd = false;
  bool history = true;
  std::string load_gauge, save_gauge;  // gauge files (any format Latte reads; written in save_format)
  std::string save_format = "nersc";
  int save_precision = 64;
  bool lattice_given = false;
};

template <class R>
int run(const Options& options) {
  const FermionBoundary boundary = parse_fermion_boundary(options.boundary);  // bad text: before any work
  // A loaded configuration brings its lattice, unless --lattice insists.
  const bool load = !options.load_gauge.empty();
  Geometry geometry(load && !options.lattice_given ? read_gauge_file_info(options.load_gauge).extents : options.lattice);
  GaugeField<R> U(geometry);
  ParallelRng rng(options.seed);
  if (load)
    read_gauge(U, options.load_gauge);
  else
    U.set_random(rng);
  if (!options.save_gauge.empty())
    write_gauge(U, options.save_gauge, parse_gauge_file_format(options.save_format), options.save_precision);
  WilsonDirac<R> M(U, options.mass, boundary);
  Lattice<Spinor<R>> b(geometry), x(geometry);
  rng.gaussian(b);
  x = zero;

  std::printf("Wilson CG: lattice %s, m = %g, %s precision%s, tolerance %g, seed %llu\n",
              to_string(geometry.dims()).c_str(), options.mass, options.precision.c_str(),
              options.even_odd ? ", even-odd preconditioned" : "", options.tolerance,
              static_cast<unsigned long long>(options.seed));
  std::printf("backend %s, %d SIMD lanes, %d threads\n", backend::Default::name, Lattice<R>::nsimd, host_threads());
  std::printf("gauge field       %s%s\n", load ? "read from " : "random SU(3)", load ? options.load_gauge.c_str() : "");
  if (!options.save_gauge.empty())
    std::printf("saved to          %s (%s, %d-bit)\n", options.save_gauge.c_str(), options.save_format.c_str(),
                options.save_precision);
  std::printf("average plaquette %.12f\n", average_plaquette(U));
  std::printf("fermion boundary: %s\n", boundary.describe().c_str());
  try {
    const SolverControl control{options.tolerance, options.max_iterations};
    SolverReport report;
    if (options.precision != "mixed") {
      report = options.even_odd ? solve_wilson_even_odd(M, x, b, control) : solve_wilson(M, x, b, control);
    } else if constexpr (std::is_same_v<R, double> && mixed_precision_available<DefaultWidth>) {
      report = options.even_odd ? solve_wilson_even_odd_mixed(M, x, b, control) : solve_wilson_mixed(M, x, b, control);
    }
    if (options.history) {
      std::printf("%10s %24s\n", "iteration", options.precision == "mixed" ? "|r| / |r0| (each cycle)" : "|r| / |b| (normal eq.)");
      for (std::size_t k = 0; k < report.residual_history.size(); ++k)
        std::printf("%10zu %24.6e\n", k + 1, report.residual_history[k]);
    }
    std::printf("iterations        %d\n", report.iterations);
    std::printf("true residual     %.6e   |b - M x| / |b|\n", report.true_residual);
    std::printf("time              %.3f s\n", report.seconds);
    if (options.even_odd)
      std::printf("performance       %.2f GFLOPS (model: 2 x %g flops per even site per iteration)\n",
                  report.flops / report.seconds / 1e9, WilsonEvenOdd<R>::flops_per_site);
    else
      std::printf("performance       %.2f GFLOPS (model: 2 x %g flops per site per iteration)\n",
                  report.flops / report.seconds / 1e9, WilsonDirac<R>::flops_per_site);
  } catch (const SolverError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  return 0;
}

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  programs::CommandLine cli{"Wilson-Dirac solve with conjugate gradient, written in Latte"};
  Options options;
  cli.option("--lattice", options.lattice, "extents x y z t").expected(4);
  cli.option("--mass", options.mass, "bare quark mass m in M = 4 + m - Dslash/2");
  cli.option("--tolerance", options.tolerance, "relative true residual |b - M x| / |b|").positive();
  cli.option("--seed", options.seed, "random seed of gauge field and source");
  cli.option("--max-iterations", options.max_iterations, "CG iteration limit").positive();
  cli.option("--precision", options.precision, "double, single or mixed (double solution, single-precision inner solves)")
      .one_of({"double", "single", "mixed"});
  cli.option("--boundary", options.boundary,
             "fermion boundary: periodic, antiperiodic (in time) or twisted:a,b,c,d (phases e^{i pi a} ... in x y z t)")
      .show_default();
  cli.flag("--even-odd", options.even_odd, "solve the even-odd (Schur complement) preconditioned system");
  cli.flag("!--no-history", options.history, "do not print the residual history");
  cli.option("--load-gauge", options.load_gauge,
             "read the gauge field from this NERSC, ILDG/SciDAC, openQCD or MILC file (its lattice, unless --lattice is given)");
  cli.option("--save-gauge", options.save_gauge, "write the gauge field to this file (in --save-format)");
  cli.option("--save-format", options.save_format, "format of --save-gauge").one_of({"nersc", "ildg", "openqcd"}).show_default();
  cli.option("--save-precision", options.save_precision, "bits of the reals --save-gauge stores (openqcd: 64 only)")
      .one_of({64, 32})
      .show_default();
  if (auto status = cli.parse(argc, argv)) return *status;
  options.lattice_given = cli.count("--lattice") > 0;
  try {
    if (options.precision == "mixed" && !mixed_precision_available<DefaultWidth>)
      throw std::invalid_argument("--precision mixed needs a float vector of half this build's SIMD width (not SSE2)");
    return options.precision == "single" ? run<float>(options) : run<double>(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
