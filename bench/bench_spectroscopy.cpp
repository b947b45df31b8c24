// A spectroscopy measurement's cost: the 12-column point-source propagator
// (even-odd CG, all columns together) on a random SU(3) field (or one
// heated by quenched heatbath sweeps from it, --sweeps), and the
// contractions that follow it, each timed on its own and as a fraction of
// the solve's time (the goal: contractions within 5 % of the solve):
//   mesons:   the 16 diagonal channels at each momentum (meson_contractions.hpp):
//             one contraction statement (about 19 000 flops per site), then
//             per nonzero momentum a phase multiplication, and per momentum
//             the 32 reproducible timeslice sums;
//   baryons:  proton and three Deltas (baryon_contractions.hpp): one
//             statement (about 47 000 flops per site), projections as above
//             with 8 reals per site.
// The statements' flops are those derived from their functors
// (dsl/expr/flop_count.hpp); the timeslice sums run on the host and are
// not counted. The solve's flops are the solver's own count.
//
//   bench_spectroscopy --lattice 8 8 8 16 --mass 0.1 --tolerance 1e-8 --momenta 4
//   bench_spectroscopy --sweeps 20 --beta 5.7 --mass -0.7   # a heated field, lighter quarks

#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/derived_model.hpp"
#include "bench/halo_traffic.hpp"
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "examples/command_line.hpp"
#include "solvers/qcd/measure/baryon_contractions.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"
#include "solvers/qcd/measure/quark_sources.hpp"
#include "solvers/qcd/update/quenched_update.hpp"

namespace {

using namespace latte;

struct Options {
  std::vector<int> lattice{8, 8, 8, 16};
  double mass = 0.1;
  double tolerance = 1e-8;
  int momenta = 4;  // the first of (0,0,0), (1,0,0), (1,1,0), (1,1,1), (2,0,0)
  int solves = 2;   // timed solves (the best is kept; the first also builds the even-odd scratch fields)
  int sweeps = 0;   // quenched sweeps (1 heatbath + 2 overrelaxation each) from the random field
  double beta = 5.7;
  bench::SessionOptions session;
};

void run(const Options& options, bench::Session& session) {
  const Geometry geometry = bench::scaled_geometry(options.lattice, options.session.scaling);
  const double sites = static_cast<double>(geometry.volume());
  GaugeField<double> U(geometry);
  ParallelRng rng(5);
  U.set_random(rng);
  const QuenchedUpdate update{options.beta, 2, 2024};
  for (int sweep = 0; sweep < options.sweeps; ++sweep) update.sweep(U, static_cast<std::uint64_t>(sweep));
  const WilsonDirac<double> M(U, options.mass, FermionBoundary::antiperiodic_in_time());
  const Coordinate source{0, 0, 0, 0};
  Lattice<PropagatorSite<double>> sources(geometry);
  point_source(sources, source);
  const SolverControl control{options.tolerance, 100000, false};

  PointPropagator<double> S{Lattice<PropagatorSite<double>>(geometry), {}};
  const bench::Timing solve = session.time([&] { S = solve_propagator(M, sources, control); }, options.solves);
  bench::Result solve_result;
  solve_result.bench = "spectroscopy_solve_12_columns";
  solve_result.precision = "double";
  solve_result.lattice = geometry.dims();
  solve_result.flops = S.report.flops;
  solve_result.extra["solver"] = "even-odd CG on Mhat^+ Mhat, 12 columns together";
  solve_result.extra["gauge_field"] = options.sweeps == 0 ? std::string("random SU(3)")
                                                          : "random SU(3) and " + std::to_string(options.sweeps) +
                                                                " quenched sweeps at beta " + std::to_string(options.beta);
  solve_result.extra["mass"] = options.mass;
  solve_result.extra["tolerance"] = options.tolerance;
  solve_result.extra["iterations"] = S.report.iterations;
  solve_result.extra["largest_true_residual"] = S.report.true_residual;
  solve_result.extra["repetitions"] = options.solves;
  session.record(solve_result, solve);

  const std::vector<Momentum> all = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 0, 0}};
  const std::vector<Momentum> momenta(all.begin(), all.begin() + std::min<int>(options.momenta, all.size()));
  const auto line = [&](const char* name, const bench::Timing& timing, auto&& kernel, const char* what) {
    bench::Result result;
    result.bench = name;
    result.precision = "double";
    result.lattice = geometry.dims();
    bench::apply_model(result, bench::derived_model(session, kernel), sites);
    result.extra["contractions"] = what;
    result.extra["momenta"] = momenta.size();
    result.extra["fraction_of_solve"] = timing.seconds / solve.seconds;
    session.record(result, timing);
  };

  MesonCorrelators mesons;
  const auto meson_kernel = [&] { mesons = meson_correlators(S.field, source, momenta); };
  const bench::Timing meson_timing = session.time(meson_kernel);
  line("spectroscopy_mesons", meson_timing, meson_kernel, "16 diagonal meson channels");

  BaryonCorrelators baryons;
  const auto baryon_kernel = [&] { baryons = baryon_correlators(S.field, source, momenta); };
  const bench::Timing baryon_timing = session.time(baryon_kernel);
  line("spectroscopy_baryons", baryon_timing, baryon_kernel, "proton and Delta_x, Delta_y, Delta_z");

  // The contraction statements alone, without projections and sums.
  Lattice<RealVector<double, 2 * meson_channels_per_pass>> meson_density(geometry);
  const auto meson_statement = [&] { meson_density = map(functors::MesonContraction(), S.field, S.field); };
  line("spectroscopy_meson_statement", session.time(meson_statement), meson_statement,
       "the 16-channel contraction statement alone");
  Lattice<RealVector<double, 8>> baryon_density(geometry);
  const auto baryon_statement = [&] { baryon_density = map(functors::BaryonContraction(), S.field); };
  line("spectroscopy_baryon_statement", session.time(baryon_statement), baryon_statement,
       "the baryon contraction statement alone");

  bench::Result total;
  total.bench = "spectroscopy_contractions_over_solve";
  total.precision = "double";
  total.lattice = geometry.dims();
  total.extra["contractions_seconds"] = meson_timing.seconds + baryon_timing.seconds;
  total.extra["solve_seconds"] = solve.seconds;
  total.extra["fraction_of_solve"] = (meson_timing.seconds + baryon_timing.seconds) / solve.seconds;
  total.extra["goal"] = 0.05;
  total.extra["momenta"] = momenta.size();
  bench::Timing sum = meson_timing;
  sum.seconds = meson_timing.seconds + baryon_timing.seconds;
  session.record(total, sum);
  // Keep the results alive (and checked): a positive pion and proton at t = 1.
  if (!(mesons(0, gamma_index::pion)[1].real() > 0) || !(baryons.proton[0][1].real() != 0))
    throw std::runtime_error("the pion or proton correlator is not what a propagator gives");
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  Options options;
  programs::CommandLine cli{
      "Latte benchmark: the 12-column propagator solve and the meson and baryon contractions after it"};
  cli.option("--lattice", options.lattice, "extents x y z t").expected(4);
  cli.option("--mass", options.mass, "bare quark mass m of the Wilson operator").show_default();
  cli.option("--tolerance", options.tolerance, "the solve's tolerance on every column").positive().show_default();
  cli.option("--momenta", options.momenta, "how many momenta, from (0,0,0), (1,0,0), (1,1,0), (1,1,1), (2,0,0)")
      .positive()
      .show_default();
  cli.option("--solves", options.solves, "timed solves (the best is kept)").positive().show_default();
  cli.option("--sweeps", options.sweeps, "quenched sweeps (heatbath + 2 overrelaxation) from the random field")
      .non_negative()
      .show_default();
  cli.option("--beta", options.beta, "the gauge coupling of those sweeps").positive().show_default();
  bench::add_session_options(cli, options.session);
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    bench::Session session(options.session);
    run(options, session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_spectroscopy: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
