// Gauge-field algorithms (double precision): the gauge force of the Wilson
// and the Iwasaki action fused into the momentum update, one Omelyan
// molecular-dynamics step, one whole HMC trajectory, one Wilson-flow step,
// and one heatbath and one overrelaxation sweep, on 16^4 and 24^4 by default. How figures are taken (best of N,
// STREAM interleaved) is described in bench/session.hpp.
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
#include "solvers/qcd/gradient_flow.hpp"
#include "solvers/qcd/hmc.hpp"
#include "solvers/qcd/quenched_update.hpp"

namespace {

using namespace latte;

struct Options {
  std::vector<int> sizes{16, 24};
  int trajectory_steps = 10;
  bench::SessionOptions session;
};

void fill_rough(GaugeField<double>& U) {
  AlgebraField<double> x(U.geometry());
  refresh_momenta(x, 5);
  for (int mu = 0; mu < 4; ++mu) U[mu] = su3_exp(0.4 * x[mu]);
}

template <class Kernel>
void measure(bench::Session& session, const std::string& name, const Geometry& geometry, Kernel&& kernel,
             int repetitions = 0) {
  bench::Result result;
  result.bench = name;
  result.precision = "double";
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, kernel), static_cast<double>(geometry.volume()));
  result.extra["ranks"] = geometry.decomposition().ranks();
  session.record(result, session.time(kernel, repetitions));
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
  measure(session, "heatbath_sweep_wilson", geometry, [&] { heatbath_sweep(U, 6.0, 3, sweep++); });
  measure(session, "overrelaxation_sweep_wilson", geometry, [&] { overrelaxation_sweep(U); });
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  Options opt;
  programs::CommandLine cli{"Latte benchmark: gauge force, molecular dynamics, HMC trajectory and Wilson flow"};
  cli.option("--sizes", opt.sizes, "extents L of the L^4 lattices").show_default();
  cli.option("--trajectory-steps", opt.trajectory_steps, "Omelyan steps of the timed trajectory").positive();
  bench::add_session_options(cli, opt.session);
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    bench::Session session(opt.session);
    for (int L : opt.sizes) run(opt, L, session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_gauge: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
