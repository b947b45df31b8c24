// Gauge-field algorithms (double precision): the gauge force of the Wilson
// and the Iwasaki action fused into the momentum update, one Omelyan
// molecular-dynamics step, one whole HMC trajectory, one Wilson-flow step,
// one heatbath and one overrelaxation sweep, and one Landau and one
// Coulomb gauge-fixing sweep (overrelaxation) beside the heatbath sweep, on
// 16^4 and 24^4 by default; and one trajectory with two flavours of
// dynamical Wilson-clover quarks on 8^4 and 16^4 by default, and one
// 2+1-flavour trajectory on the same lattices, split by monomial.
// How figures are taken (best of N, STREAM interleaved) is described in bench/session.hpp.
//
// The dynamical trajectory: beta = 5.6 Wilson gauge action, two flavours of
// clover quarks (kappa = 0.13, c_sw = 1, antiperiodic in time) even-odd
// preconditioned, on a configuration thermalised by quenched heatbath
// sweeps and two untimed dynamical trajectories; Omelyan, 5 pseudofermion
// (and clover log det) steps of 4 gauge steps each; CG tolerances 1e-10
// (action) and 1e-8 (force). Its line gives the seconds of the best
// trajectory and, over all timed trajectories, the share of time in the CG
// ("cg_share") and the CG iterations per trajectory. Its model counts every
// statement of a trajectory, solves included.
//
// The 2+1-flavour trajectory: the same gauge action, light pair and
// integrator, and a strange quark (kappa = 0.128, c_sw = 1) by one rational
// pseudofermion (x^-1/2 and x^1/4 to 1e-10 on the spectrum of its even-odd
// normal operator, measured by Lanczos on the thermalised configuration and
// widened to [lambda_min / 2, 1.5 lambda_max]; cached in --rational-cache)
// with its one-flavour clover log det, both on the pseudofermions' level.
// Its line gives the seconds of the best trajectory and, over all timed
// trajectories, each monomial's seconds per trajectory (force, action and
// heatbath together; "seconds_<monomial>"), its share of the trajectory
// ("share_<monomial>") and the CG iterations per trajectory of each fermion
// monomial ("cg_iterations_<monomial>"; the strange quark's are the
// multi-shift solves' shared iterations), and the poles.
//
// Models per site, derived by the library from the statements' expressions
// (bench/derived_model.hpp; each distinct field read once per site, the
// destination written once, each functor's arithmetic counted):
//   Wilson force, P_mu -= eps (beta/6) Ta(U_mu Sigma_mu^+), per direction:
//     reads the 4 link fields and P_mu, writes P_mu: 6 x 144 = 864 bytes;
//     the 12 matrix products of the six staples, one more, Ta and the
//     update: 2,742 flops (10,968 for the four directions), about 3 flops
//     a byte, so the fused force is compute bound on a CPU and its
//     fraction_of_stream stays well below 1: read gflops beside it.
//   U_mu <- exp(eps P_mu) U_mu: reads 2, writes 1 matrix (432 bytes), 680
//     flops (Cayley-Hamilton with its selects, and the product).

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/derived_model.hpp"
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "dsl/latte.hpp"
#include "examples/command_line.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/flow/gradient_flow.hpp"
#include "solvers/qcd/gauge_fixing/gauge_fixing.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "solvers/qcd/update/quenched_update.hpp"
#include "solvers/qcd/update/rational_monomial.hpp"
#include "solvers/qcd/update/timed_monomial.hpp"

namespace {

using namespace latte;

struct Options {
  std::vector<int> sizes{16, 24};
  std::vector<int> dynamical_sizes{8, 16};
  std::vector<int> two_plus_one_sizes{8, 16};
  std::string rational_cache = "latte_rational_cache";
  int trajectory_steps = 10;
  bench::SessionOptions session;
};

void fill_rough(GaugeField<double>& U) {
  AlgebraField<double> x(U.geometry());
  refresh_momenta(x, 5);
  for (int mu = 0; mu < 4; ++mu) U[mu] = su3_exp(0.4 * x[mu]);
}

// With a reference timing of the same run, the line gives its seconds and
// the ratio to them as well ("reference_seconds", "per_reference").
template <class Kernel>
bench::Timing measure(bench::Session& session, const std::string& name, const Geometry& geometry, Kernel&& kernel,
                      int repetitions = 0, const bench::Timing* reference = nullptr) {
  bench::Result result;
  result.bench = name;
  result.precision = "double";
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, kernel), static_cast<double>(geometry.volume()));
  result.extra["ranks"] = geometry.decomposition().ranks();
  const bench::Timing timing = session.time(kernel, repetitions);
  if (reference) {
    result.extra["reference_seconds"] = reference->seconds;
    result.extra["per_reference"] = timing.seconds / reference->seconds;
  }
  session.record(result, timing);
  return timing;
}

void run(const Options& opt, int L, bench::Session& session) {
  const Geometry geometry({L, L, L, L});
  GaugeField<double> U(geometry);
  AlgebraField<double> P(geometry);
  fill_rough(U);
  refresh_momenta(P, 6);
  const GaugeAction wilson = GaugeAction::wilson(6.0), iwasaki = GaugeAction::iwasaki(2.6);
  measure(session, "gauge_force_wilson", geometry, [&] { subtract_gauge_force(wilson, U, P, 1e-9); });
  measure(session, "gauge_force_iwasaki", geometry, [&] { subtract_gauge_force(iwasaki, U, P, 1e-9); });
  measure(session, "link_update_exp", geometry, [&] { move_links(U, P, 1e-9); });

  GaugeMonomial<double> monomial(wilson);
  // One Omelyan step over a tiny time: 3 force kicks and 2 link moves.
  MolecularDynamics<double> one_step({{IntegratorScheme::omelyan, 1, {&monomial}}});
  measure(session, "md_step_omelyan_wilson", geometry, [&] { one_step.integrate(U, P, 1e-9); });

  // A whole trajectory (refresh, H twice, the integration, Metropolis) of
  // trajectory_steps Omelyan steps, timed a few times without warm-up.
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, opt.trajectory_steps, {&monomial}}});
  HybridMonteCarlo<double> hmc(U, md, {&monomial}, {1.0, 11, true});
  measure(session, "hmc_trajectory_wilson_omelyan" + std::to_string(opt.trajectory_steps), geometry,
          [&] { hmc.trajectory(); }, 3);

  // One step of the Wilson flow (Luescher's RK3: three forces, three link updates).
  GradientFlow<double> flow(geometry);
  measure(session, "wilson_flow_step", geometry, [&] { flow_step(U, 1e-9, flow); });
  // One Cabibbo-Marinari heatbath sweep and one overrelaxation sweep.
  std::uint64_t sweep = 0;
  const bench::Timing heatbath =
      measure(session, "heatbath_sweep_wilson", geometry, [&] { heatbath_sweep(U, 6.0, 3, sweep++); });
  measure(session, "overrelaxation_sweep_wilson", geometry, [&] { overrelaxation_sweep(U); });
  // One gauge-fixing sweep by overrelaxation, Landau and Coulomb, each
  // beside the heatbath sweep timed just before in this run (per_reference:
  // its time over the heatbath sweep's; the machine's load changes less
  // between neighbouring measurements than between runs).
  GaugeFixing<double> landau(geometry, GaugeCondition::landau), coulomb(geometry, GaugeCondition::coulomb);
  measure(session, "gauge_fixing_sweep_landau", geometry, [&] { landau.sweep(U); }, 0, &heatbath);
  measure(session, "gauge_fixing_sweep_coulomb", geometry, [&] { coulomb.sweep(U); }, 0, &heatbath);
}

// A configuration near the quenched equilibrium at beta = 5.6: 30 heatbath
// sweeps from the unit field, each followed by an overrelaxation sweep.
void thermalised_quenched(GaugeField<double>& U) {
  U.set_unit();
  for (std::uint64_t sweep = 0; sweep < 30; ++sweep) {
    heatbath_sweep(U, 5.6, 3, sweep);
    overrelaxation_sweep(U);
  }
}

// A timed HMC trajectory: the kernel of the dynamical lines, summing the
// trajectories' own seconds.
struct TrajectoryKernel {
  HybridMonteCarlo<double>& hmc;
  double seconds = 0;
  int trajectories = 0;
  void operator()() {
    seconds += hmc.trajectory().seconds;
    ++trajectories;
  }
};

// One dynamical two-flavour clover trajectory on L^4 (see the top of the file).
void run_dynamical(int L, bench::Session& session) {
  const Geometry geometry({L, L, L, L});
  GaugeField<double> U(geometry);
  thermalised_quenched(U);
  const double mass = 1.0 / (2.0 * 0.13) - 4.0, c_sw = 1.0;
  GaugeMonomial<double> gauge(GaugeAction::wilson(5.6));
  const CloverParameters clover{mass, c_sw, FermionBoundary::antiperiodic_in_time()};
  TwoFlavourMonomial<CloverAction<double>> quarks(geometry, clover, true);
  CloverDeterminantMonomial<double> det(clover);
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 5, {&quarks, &det}}, {IntegratorScheme::omelyan, 4, {&gauge}}});
  HybridMonteCarlo<double> hmc(U, md, {&quarks, &det, &gauge}, {1.0, 13, true});
  for (int i = 0; i < 2; ++i) hmc.trajectory();
  const SolveTally before = quarks.tally();
  TrajectoryKernel kernel{hmc};
  double& seconds = kernel.seconds;
  int& trajectories = kernel.trajectories;
  bench::Result result;
  result.bench = "hmc_trajectory_clover_two_flavour";
  result.precision = "double";
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, kernel), static_cast<double>(geometry.volume()));
  const SolveTally model_end = quarks.tally();
  const double model_seconds = seconds;
  const int model_trajectories = trajectories;
  result.extra["ranks"] = geometry.decomposition().ranks();
  const bench::Timing timing = session.time(kernel, 2);
  const SolveTally after = quarks.tally();
  const double timed = seconds - model_seconds;
  const int timed_trajectories = trajectories - model_trajectories;
  result.extra["cg_share"] = timed > 0 ? (after.seconds - model_end.seconds) / timed : 0.0;
  result.extra["cg_iterations_per_trajectory"] =
      static_cast<double>(after.iterations - before.iterations) / std::max(trajectories, 1);
  result.extra["seconds_per_trajectory_mean"] = timed / std::max(timed_trajectories, 1);
  result.extra["kappa"] = 0.13;
  result.extra["c_sw"] = c_sw;
  result.extra["beta"] = 5.6;
  session.record(result, timing);
}

// One 2+1-flavour clover trajectory on L^4 (see the top of the file).
void run_two_plus_one(int L, const Options& opt, bench::Session& session) {
  const Geometry geometry({L, L, L, L});
  GaugeField<double> U(geometry);
  thermalised_quenched(U);
  const double light_kappa = 0.13, strange_kappa = 0.128, c_sw = 1.0;
  const auto boundary = FermionBoundary::antiperiodic_in_time();
  const CloverParameters light{1.0 / (2.0 * light_kappa) - 4.0, c_sw, boundary};
  const CloverParameters strange{1.0 / (2.0 * strange_kappa) - 4.0, c_sw, boundary};
  // The strange operator's spectrum on this configuration sets the interval.
  using Schur = EvenOddOperator<CloverEvenOddAction<double>>;
  const CloverAction<double> strange_action(U, strange);
  const Schur strange_schur{CloverEvenOddAction<double>(strange_action)};
  const SpectralBounds spectrum = spectral_bounds<Lattice<Spinor<double>>>(NormalOperator<Schur>(strange_schur),
                                                                          strange_schur.geometry());
  const double lower = 0.5 * (spectrum.smallest - spectrum.smallest_error);
  const double upper = 1.5 * (spectrum.largest + spectrum.largest_error);
  GaugeMonomial<double> gauge(GaugeAction::wilson(5.6));
  TwoFlavourMonomial<CloverAction<double>> light_pair(geometry, light, true);
  CloverDeterminantMonomial<double> light_det(light, 2.0);
  RationalMonomial<CloverAction<double>> strange_quark(
      geometry, strange, true, rational_pseudofermion_approximations(1, 1, lower, upper, 1e-10, opt.rational_cache));
  CloverDeterminantMonomial<double> strange_det(strange, 1.0);
  struct Named {
    const char* name;
    TimedMonomial<double> timed;
    const SolveTally* solves;
  };
  std::vector<Named> terms{{"light", TimedMonomial<double>(light_pair), &light_pair.tally()},
                           {"light_det", TimedMonomial<double>(light_det), nullptr},
                           {"strange", TimedMonomial<double>(strange_quark), &strange_quark.tally()},
                           {"strange_det", TimedMonomial<double>(strange_det), nullptr},
                           {"gauge", TimedMonomial<double>(gauge), nullptr}};
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 5, {&terms[0].timed, &terms[1].timed, &terms[2].timed, &terms[3].timed}},
                                {IntegratorScheme::omelyan, 4, {&terms[4].timed}}});
  HybridMonteCarlo<double> hmc(U, md, {&terms[0].timed, &terms[1].timed, &terms[2].timed, &terms[3].timed, &terms[4].timed},
                               {1.0, 17, true});
  for (int i = 0; i < 2; ++i) hmc.trajectory();
  TrajectoryKernel kernel{hmc};
  double& seconds = kernel.seconds;
  int& trajectories = kernel.trajectories;
  bench::Result result;
  result.bench = "hmc_trajectory_clover_two_plus_one";
  result.precision = "double";
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, kernel), static_cast<double>(geometry.volume()));
  // Only the timed trajectories below enter the split.
  const double model_seconds = seconds;
  const int model_trajectories = trajectories;
  std::vector<double> start_seconds;
  std::vector<long> start_iterations;
  for (const Named& t : terms) {
    start_seconds.push_back(t.timed.times().total());
    start_iterations.push_back(t.solves ? t.solves->iterations : 0);
  }
  result.extra["ranks"] = geometry.decomposition().ranks();
  const bench::Timing timing = session.time(kernel, 2);
  const double timed = seconds - model_seconds;
  const int timed_trajectories = std::max(trajectories - model_trajectories, 1);
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const double s = terms[k].timed.times().total() - start_seconds[k];
    result.extra[std::string("seconds_") + terms[k].name] = s / timed_trajectories;
    result.extra[std::string("share_") + terms[k].name] = timed > 0 ? s / timed : 0.0;
    if (terms[k].solves)
      result.extra[std::string("cg_iterations_") + terms[k].name] =
          static_cast<double>(terms[k].solves->iterations - start_iterations[k]) / timed_trajectories;
  }
  result.extra["seconds_per_trajectory_mean"] = timed / timed_trajectories;
  result.extra["poles"] = static_cast<double>(strange_quark.approximations().action.degree);
  result.extra["rational_lower"] = lower;
  result.extra["rational_upper"] = upper;
  result.extra["kappa"] = light_kappa;
  result.extra["strange_kappa"] = strange_kappa;
  result.extra["c_sw"] = c_sw;
  result.extra["beta"] = 5.6;
  session.record(result, timing);
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  Options opt;
  programs::CommandLine cli{"Latte benchmark: gauge force, molecular dynamics, HMC trajectory and Wilson flow"};
  cli.option("--sizes", opt.sizes, "extents L of the L^4 lattices").show_default();
  cli.option("--trajectory-steps", opt.trajectory_steps, "Omelyan steps of the timed trajectory").positive();
  cli.option("--dynamical-sizes", opt.dynamical_sizes,
             "extents L of the L^4 lattices of the dynamical clover trajectory")
      .show_default();
  cli.option("--two-plus-one-sizes", opt.two_plus_one_sizes,
             "extents L of the L^4 lattices of the 2+1-flavour clover trajectory")
      .show_default();
  cli.option("--rational-cache", opt.rational_cache, "directory of cached rational approximations (\"\": none)");
  bench::add_session_options(cli, opt.session);
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    bench::Session session(opt.session);
    for (int L : opt.sizes) run(opt, L, session);
    for (int L : opt.dynamical_sizes) run_dynamical(L, session);
    for (int L : opt.two_plus_one_sizes) run_two_plus_one(L, opt, session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_gauge: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
