// Generates an ensemble of SU(3) gauge configurations with hybrid Monte
// Carlo for the Wilson or a rectangle-improved gauge action, or with the
// quenched heatbath (one Cabibbo-Marinari heatbath and --overrelaxation
// sweeps per update, Wilson action only), and measures its average plaquette.
//
//   gauge_ensemble --beta 6.0 --lattice 8 8 8 8 --trajectories 100 --thermalise 20 --save-every 10
//   gauge_ensemble --beta 2.6 --action iwasaki --integrator omelyan --steps 12 --out iwasaki
//   gauge_ensemble --beta 6.0 --algorithm heatbath --overrelaxation 4 --trajectories 200
//   gauge_ensemble ... --resume            (continues from <out>_checkpoint.*, the same bits)
//   gauge_ensemble --beta 5.6 --fermions clover --kappa 0.1345 --csw 1.0 --steps 6 --gauge-steps 4
//                                          (two flavours of dynamical quarks, antiperiodic in time)
//
// With --fermions wilson or clover the action adds two flavours of Wilson or
// Wilson-clover quarks of mass m (or hopping parameter kappa, m = 1/(2 kappa) - 4),
// as an even-odd preconditioned pseudofermion (solvers/qcd/update/pseudofermion_monomial.hpp)
// with (for clover) the log det of the odd sites' clover term on the outer
// time scale (--steps), and the gauge action on the inner one (--gauge-steps
// per outer step).
// The quark boundary is antiperiodic in time unless --boundary says otherwise.
//
// Per trajectory it prints the plaquette, dH, exp(-dH), the decision, the
// running acceptance and the time, and writes <out>_history.csv (trajectory,
// plaquette, dH, accepted, exp_minus_dH: the same bytes on any number of
// ranks, so no timings) and <out>_history.png;
// every --save-every trajectories a NERSC file <out>_<trajectory>.nersc, and
// every --checkpoint-every a checkpoint. At the end: the average plaquette
// after thermalisation, its error from blocked data, the acceptance and
// <exp(-dH)>.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/plot_png.hpp"
#include "lattice/fields/report_file.hpp"
#include "lattice/fields/root_output.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "solvers/qcd/update/quenched_update.hpp"

using namespace latte;

struct Options {
  Coordinate lattice{8, 8, 8, 8};
  double beta = 6.0;
  std::string action = "wilson";
  std::string algorithm = "hmc";
  std::string integrator = "omelyan";
  int steps = 10;
  double trajectory_length = 1.0;
  int trajectories = 50;
  int thermalise = 10;
  std::string start = "hot";
  int no_metropolis_until = 0;
  int overrelaxation = 4;
  std::uint64_t seed = 1;
  int save_every = 0;
  int checkpoint_every = 10;
  bool resume = false;
  std::string out = "gauge_ensemble";
  // Dynamical quarks.
  std::string fermions = "none";
  double mass = std::nan("");
  double kappa = std::nan("");
  double c_sw = 1.0;
  std::string boundary = "antiperiodic";
  int gauge_steps = 4;
  double action_tolerance = 1e-10;
  double force_tolerance = 1e-8;
};

// The quarks' mass from --mass or --kappa (exactly one of them).
double quark_mass(const Options& options) {
  const bool has_mass = !std::isnan(options.mass), has_kappa = !std::isnan(options.kappa);
  if (has_mass == has_kappa)
    throw std::invalid_argument("--fermions " + options.fermions + " needs exactly one of --mass and --kappa");
  if (has_mass) return options.mass;
  if (!(options.kappa > 0))
    throw std::invalid_argument("--kappa must be positive, not " + std::to_string(options.kappa));
  return 1.0 / (2.0 * options.kappa) - 4.0;
}

// The two-flavour monomials of --fermions, owned here; none without quarks.
struct DynamicalQuarks {
  std::unique_ptr<Monomial<double>> pseudofermion;
  std::unique_ptr<Monomial<double>> clover_det;  // clover only
  const SolveTally* solves = nullptr;             // the pseudofermion's
  std::string description;
  SolveTally tally() const { return solves ? *solves : SolveTally{}; }
};

template <class Action>
void add_pseudofermion(DynamicalQuarks& quarks, const Geometry& geometry, const typename Action::Parameters& parameters,
                       const PseudofermionSolves& solves) {
  auto monomial = std::make_unique<TwoFlavourMonomial<Action>>(geometry, parameters, true, solves);
  quarks.solves = &monomial->tally();
  quarks.pseudofermion = std::move(monomial);
}

DynamicalQuarks make_quarks(const Options& options, const Geometry& geometry) {
  DynamicalQuarks quarks;
  if (options.fermions == "none") return quarks;
  if (options.fermions != "wilson" && options.fermions != "clover")
    throw std::invalid_argument("unknown --fermions '" + options.fermions + "' (none, wilson or clover)");
  const double mass = quark_mass(options);
  const FermionBoundary boundary = parse_fermion_boundary(options.boundary);
  const PseudofermionSolves solves{{options.action_tolerance, 100000, false}, {options.force_tolerance, 100000, false}};
  if (options.fermions == "wilson") {
    add_pseudofermion<WilsonAction<double>>(quarks, geometry, WilsonParameters{mass, boundary}, solves);
  } else {
    if (!(options.c_sw >= 0)) throw std::invalid_argument("--csw must be >= 0, not " + std::to_string(options.c_sw));
    const CloverParameters clover{mass, options.c_sw, boundary};
    add_pseudofermion<CloverAction<double>>(quarks, geometry, clover, solves);
    // The odd clover blocks' log det, left out by the even-odd pseudofermion.
    quarks.clover_det = std::make_unique<CloverDeterminantMonomial<double>>(clover);
  }
  quarks.description = quarks.pseudofermion->describe();
  return quarks;
}

// The mean of a series and its error from blocks: the largest standard
// error of block means over block lengths 1, 2, 4, ... that leave at least
// eight blocks (autocorrelated data: the error grows with the block length
// until blocks are independent).
struct Estimate {
  double mean = 0, error = 0;
  int block = 1;
};
Estimate blocked_mean(const std::vector<double>& x) {
  Estimate e;
  if (x.empty()) return e;
  for (double v : x) e.mean += v;
  e.mean /= static_cast<double>(x.size());
  for (std::size_t length = 1; x.size() / length >= 8; length *= 2) {
    const std::size_t blocks = x.size() / length;
    double square = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      double m = 0;
      for (std::size_t i = 0; i < length; ++i) m += x[b * length + i];
      m /= static_cast<double>(length);
      square += (m - e.mean) * (m - e.mean);
    }
    const double error = std::sqrt(square / static_cast<double>(blocks * (blocks - 1)));
    if (error > e.error) {
      e.error = error;
      e.block = static_cast<int>(length);
    }
  }
  return e;
}

// The quenched chain: one heatbath and `overrelaxation` overrelaxation
// sweeps per update ("trajectory" in the output and files). Its state is the
// links and the update number, as for HMC; dH and the decision are those of
// a heatbath: 0 and always accepted.
struct HeatbathChain {
  GaugeField<double>& U;
  QuenchedUpdate update;
  std::uint64_t next = 0;
  TrajectoryRecord step() {
    const auto begin = std::chrono::steady_clock::now();
    TrajectoryRecord r;
    r.trajectory = next;
    update.sweep(U, next++);
    r.accepted = true;
    r.plaquette = average_plaquette(U);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return r;
  }
};

int run(const Options& options) {
  if (options.no_metropolis_until > options.thermalise)
    throw std::invalid_argument("--no-metropolis-until " + std::to_string(options.no_metropolis_until) +
                                " exceeds --thermalise " + std::to_string(options.thermalise) +
                                ": measured trajectories must pass the Metropolis test");
  const bool heatbath = options.algorithm == "heatbath";
  if (!heatbath && options.algorithm != "hmc")
    throw std::invalid_argument("unknown --algorithm '" + options.algorithm + "' (hmc or heatbath)");
  if (heatbath && options.action != "wilson")
    throw std::invalid_argument("--algorithm heatbath updates the Wilson action only (its checkerboards), not '" +
                                options.action + "'");
  if (heatbath && options.fermions != "none")
    throw std::invalid_argument("--algorithm heatbath is quenched; dynamical quarks (--fermions) need hmc");
  if (heatbath && options.resume)
    throw std::invalid_argument("--resume continues HMC chains; a heatbath chain restarts from a saved NERSC file");
  Geometry geometry(options.lattice);
  GaugeField<double> U(geometry);
  const GaugeAction action = GaugeAction::named(options.action, options.beta);
  GaugeMonomial<double> gauge(action);
  const DynamicalQuarks quarks = make_quarks(options, geometry);
  const IntegratorScheme scheme = parse_integrator_scheme(options.integrator);
  std::vector<IntegratorLevel<double>> levels;
  std::vector<Monomial<double>*> monomials{&gauge};
  if (quarks.pseudofermion) {
    if (options.gauge_steps < 1) throw std::invalid_argument("--gauge-steps must be at least 1");
    // The clover log det on the outer level with the pseudofermion: its
    // force (the clover term, its inverse and twelve insertion statements)
    // costs several gauge forces, and it is as smooth as the pseudofermion's.
    IntegratorLevel<double> outer{scheme, options.steps, {quarks.pseudofermion.get()}};
    if (quarks.clover_det) outer.monomials.push_back(quarks.clover_det.get());
    levels = {outer, {scheme, options.gauge_steps, {&gauge}}};
    monomials = {quarks.pseudofermion.get(), &gauge};
    if (quarks.clover_det) monomials.push_back(quarks.clover_det.get());
  } else {
    levels = {{scheme, options.steps, {&gauge}}};
  }
  MolecularDynamics<double> md(levels);
  HybridMonteCarlo<double> hmc(U, md, monomials, {options.trajectory_length, options.seed, true, static_cast<std::uint64_t>(options.no_metropolis_until)});
  HeatbathChain quenched{U, QuenchedUpdate{options.beta, options.overrelaxation, options.seed}};
  const std::string checkpoint = options.out + "_checkpoint";
  if (options.resume) {
    hmc.restore_checkpoint(checkpoint);
  } else if (options.start == "cold") {
    U.set_unit();
  } else if (options.start == "hot") {
    ParallelRng rng(options.seed);
    U.set_random(rng);
  } else {
    throw std::invalid_argument("unknown --start '" + options.start + "' (cold or hot)");
  }

  if (heatbath)
    std::printf("Gauge ensemble: lattice %s, wilson action (beta = %g), heatbath with %d overrelaxation sweeps per update\n",
                to_string(geometry.dims()).c_str(), action.beta, options.overrelaxation);
  else
    std::printf("Gauge ensemble: lattice %s, %s action (beta = %g, c1 = %g), HMC %s with %d steps of %g\n",
                to_string(geometry.dims()).c_str(), options.action.c_str(), action.beta, action.c1,
                options.integrator.c_str(), options.steps, options.trajectory_length / options.steps);
  if (quarks.pseudofermion) {
    std::printf("dynamical quarks: %s (kappa = %.6f)\n", quarks.description.c_str(),
                1.0 / (2.0 * (quark_mass(options) + 4.0)));
    std::printf("time scales: the pseudofermion%s on %d steps; the gauge action on %d steps within each\n",
                quarks.clover_det ? " and the clover log det" : "", options.steps, options.gauge_steps);
    std::printf("CG tolerances: %g (action), %g (force)\n", options.action_tolerance, options.force_tolerance);
  }
  std::printf("%s at trajectory %llu, plaquette %.12f; %d trajectories, the first %d for thermalisation, seed %llu\n",
              options.resume ? "resumed" : options.start == "cold" ? "cold start" : "hot start",
              static_cast<unsigned long long>(hmc.next_trajectory()), average_plaquette(U), options.trajectories,
              options.thermalise, static_cast<unsigned long long>(options.seed));
  if (options.no_metropolis_until > 0)
    std::printf("trajectories below %d are accepted without the Metropolis test\n", options.no_metropolis_until);
  const bool dynamical = quarks.pseudofermion != nullptr;
  if (dynamical)
    std::printf("%6s %16s %14s %12s %4s %8s %8s %8s %8s\n", "traj", "plaquette", "dH", "exp(-dH)", "acc", "rate",
                "seconds", "CG its", "CG s");
  else
    std::printf("%6s %16s %14s %12s %4s %8s %8s\n", "traj", "plaquette", "dH", "exp(-dH)", "acc", "rate", "seconds");

  // The history file grows as the chain runs (and on --resume continues).
  const std::string history = options.out + "_history.csv";
  const bool append = options.resume && std::filesystem::exists(history);
  ReportFile csv(history, append);
  if (!append) csv << (dynamical ? "trajectory,plaquette,dH,accepted,exp_minus_dH,cg_iterations\n"
                                  : "trajectory,plaquette,dH,accepted,exp_minus_dH\n");
  std::vector<double> t_values, plaquettes, measured_t, measured_delta_h, measured_plaquette, measured_exp;
  int accepted = 0, done = 0;
  double seconds = 0, cg_seconds = 0;
  long cg_iterations = 0;
  const std::uint64_t first = hmc.next_trajectory();
  for (int i = 0; i < options.trajectories; ++i) {
    const SolveTally before = quarks.tally();
    const TrajectoryRecord r = heatbath ? quenched.step() : hmc.trajectory();
    const SolveTally after = quarks.tally();
    const long iterations = after.iterations - before.iterations;
    cg_iterations += iterations;
    cg_seconds += after.seconds - before.seconds;
    accepted += r.accepted;
    ++done;
    seconds += r.seconds;
    if (dynamical)
      std::printf("%6llu %16.12f %14.6e %12.6f %4s %8.3f %8.2f %8ld %8.2f\n", static_cast<unsigned long long>(r.trajectory),
                  r.plaquette, r.delta_h, r.exp_minus_delta_h, r.accepted ? "yes" : "no",
                  static_cast<double>(accepted) / done, r.seconds, iterations, after.seconds - before.seconds);
    else
      std::printf("%6llu %16.12f %14.6e %12.6f %4s %8.3f %8.2f\n", static_cast<unsigned long long>(r.trajectory),
                  r.plaquette, r.delta_h, r.exp_minus_delta_h, r.accepted ? "yes" : "no",
                  static_cast<double>(accepted) / done, r.seconds);
    char line[192];
    if (dynamical)
      std::snprintf(line, sizeof line, "%llu,%.15e,%.15e,%d,%.15e,%ld\n", static_cast<unsigned long long>(r.trajectory),
                    r.plaquette, r.delta_h, r.accepted ? 1 : 0, r.exp_minus_delta_h, iterations);
    else
      std::snprintf(line, sizeof line, "%llu,%.15e,%.15e,%d,%.15e\n", static_cast<unsigned long long>(r.trajectory),
                    r.plaquette, r.delta_h, r.accepted ? 1 : 0, r.exp_minus_delta_h);
    csv << line;
    csv.flush();
    t_values.push_back(static_cast<double>(r.trajectory));
    plaquettes.push_back(r.plaquette);
    if (r.trajectory >= first + static_cast<std::uint64_t>(options.thermalise)) {
      measured_t.push_back(static_cast<double>(r.trajectory));
      measured_delta_h.push_back(r.delta_h);
      measured_plaquette.push_back(r.plaquette);
      measured_exp.push_back(r.exp_minus_delta_h);
    }
    const std::uint64_t number = r.trajectory + 1;
    if (options.save_every > 0 && number % options.save_every == 0) {
      NerscWriteOptions write;
      write.ensemble_label = options.out;
      write.sequence_number = static_cast<int>(number);
      const std::string path = options.out + "_" + std::to_string(number) + ".nersc";
      write_nersc(U, path, write);
      std::printf("saved %s\n", path.c_str());
    }
    if (!heatbath && options.checkpoint_every > 0 && number % options.checkpoint_every == 0)
      hmc.save_checkpoint(checkpoint);
  }
  if (!heatbath) hmc.save_checkpoint(checkpoint);

  const Estimate plaquette = blocked_mean(measured_plaquette), exp_dh = blocked_mean(measured_exp);
  std::printf("time              %.3f s per trajectory\n", seconds / std::max(done, 1));
  if (dynamical)
    std::printf("CG                %.1f iterations and %.3f s per trajectory (%.0f %% of the time)\n",
                static_cast<double>(cg_iterations) / std::max(done, 1), cg_seconds / std::max(done, 1),
                seconds > 0 ? 100.0 * cg_seconds / seconds : 0.0);
  std::printf("acceptance        %.3f (%d of %d)\n", static_cast<double>(accepted) / std::max(done, 1), accepted, done);
  if (measured_plaquette.empty()) {
    std::printf("average plaquette: none measured (all %d trajectories were thermalisation)\n", done);
  } else {
    std::printf("average plaquette %.6f +- %.6f over %zu trajectories after thermalisation (blocks of %d)\n",
                plaquette.mean, plaquette.error, measured_plaquette.size(), plaquette.block);
    if (!heatbath) std::printf("<exp(-dH)>        %.4f +- %.4f\n", exp_dh.mean, exp_dh.error);
  }

  plot::Panel p{"Average plaquette", "trajectory", "plaquette", false, {}};
  p.series.push_back({"", t_values, plaquettes, plot::blue});
  plot::Panel h{"Energy violation after thermalisation", "trajectory", "dH", false, {}};
  h.series.push_back({"", measured_t, measured_delta_h, plot::orange});
  write_on_root([&] { plot::write_png(options.out + "_history.png", {p, h}); });
  std::printf("wrote             %s, %s_history.png%s\n", history.c_str(), options.out.c_str(),
              heatbath ? "" : (", " + checkpoint + ".{nersc,hmc}").c_str());
  return 0;
}

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  programs::CommandLine cli{"SU(3) gauge ensembles by hybrid Monte Carlo, written in Latte"};
  Options options;
  cli.option("--lattice", options.lattice, "extents x y z t").expected(4);
  cli.option("--beta", options.beta, "gauge coupling beta = 6/g0^2").positive();
  cli.option("--action", options.action, "gauge action: wilson, symanzik (tree-level), iwasaki or dbw2");
  cli.option("--algorithm", options.algorithm, "hmc or heatbath (Cabibbo-Marinari heatbath with overrelaxation; Wilson action)");
  cli.option("--overrelaxation", options.overrelaxation, "overrelaxation sweeps per heatbath sweep");
  cli.option("--integrator", options.integrator, "leapfrog or omelyan (second-order minimum norm)");
  cli.option("--steps", options.steps, "integrator steps per trajectory").positive();
  cli.option("--trajectory-length", options.trajectory_length, "molecular-dynamics time of a trajectory").positive();
  cli.option("--trajectories", options.trajectories, "trajectories to run").positive();
  cli.option("--thermalise", options.thermalise, "trajectories left out of the averages");
  cli.option("--start", options.start, "hot (random links) or cold (unit links; with --no-metropolis-until)");
  cli.option("--no-metropolis-until", options.no_metropolis_until,
             "accept trajectories numbered below this without the Metropolis test (thermalisation from a cold start)");
  cli.option("--seed", options.seed, "random seed: momenta and decisions are a function of (seed, trajectory)");
  cli.option("--save-every", options.save_every, "write <out>_<trajectory>.nersc every k trajectories (0: never)");
  cli.option("--checkpoint-every", options.checkpoint_every, "write <out>_checkpoint.{nersc,hmc} every k trajectories");
  cli.flag("--resume", options.resume, "continue the chain from <out>_checkpoint.{nersc,hmc}");
  cli.option("--out", options.out, "output prefix");
  cli.option("--fermions", options.fermions, "dynamical quarks: none, wilson or clover (two flavours, even-odd)");
  cli.option("--mass", options.mass, "the quarks' bare mass m (or --kappa)");
  cli.option("--kappa", options.kappa, "the quarks' hopping parameter kappa = 1/(2 (m + 4)) (or --mass)");
  cli.option("--csw", options.c_sw, "clover coefficient c_sw (--fermions clover)");
  cli.option("--boundary", options.boundary,
             "quark boundary: antiperiodic (in time), periodic or twisted:a,b,c,d (theta_mu in units of pi)");
  cli.option("--gauge-steps", options.gauge_steps, "inner gauge steps per pseudofermion step (with --fermions)");
  cli.option("--action-tolerance", options.action_tolerance, "CG tolerance of the pseudofermion action").positive();
  cli.option("--force-tolerance", options.force_tolerance, "CG tolerance of the pseudofermion force").positive();
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    return run(options);
  } catch (const HmcError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
