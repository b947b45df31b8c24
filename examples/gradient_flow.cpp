// The gradient flow of a gauge field and the scales it sets: E(t) from the
// plaquette and the clover, t^2 E(t), W(t) = t d/dt t^2 E(t), the
// topological charge Q along the flow, t0 and w0 (solvers/qcd/flow/gradient_flow.hpp,
// flow_observables.hpp, flow_scales.hpp).
//
//   gradient_flow --gauge config.nersc --epsilon 0.01 --t-max 4 --out flow
//   gradient_flow --lattice 8 8 8 8 --hot-seed 3 --t-max 2
//
// Without --gauge the field is generated: Haar-random links (--hot-seed)
// smoothed by a few stout steps (--smooth-steps, --smooth-rho), a rough
// field with a charge that the flow brings near an integer. It writes
// <out>_flow.csv (t, E_plaq, E_clover, t2E_plaq, t2E_clover, W_clover, Q at
// every measurement) and <out>_flow.png (t^2 E(t) of both definitions and
// W(t), each with the line at 0.3), and prints t0/a^2, w0/a and Q.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/number_text.hpp"
#include "examples/plot_png.hpp"
#include "lattice/fields/report_file.hpp"
#include "lattice/fields/root_output.hpp"
#include "solvers/qcd/flow/flow_observables.hpp"
#include "solvers/qcd/flow/flow_scales.hpp"
#include "solvers/qcd/flow/gradient_flow.hpp"
#include "solvers/qcd/flow/smearing.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file.hpp"

using namespace latte;

struct Options {
  std::string gauge;  // empty: a generated field
  Coordinate lattice{8, 8, 8, 8};
  unsigned long hot_seed = 1;
  int smooth_steps = 4;
  double smooth_rho = 0.1;
  std::string action = "wilson";
  double epsilon = 0.01;
  double t_max = 3.0;
  int measure_every = 5;
  std::string out = "gradient_flow";
};

using latte::programs::number_text;

int run(const Options& options) {
  const bool from_file = !options.gauge.empty();
  Geometry geometry(from_file ? read_gauge_file_info(options.gauge).extents : options.lattice);
  GaugeField<double> U(geometry);
  std::printf("Gradient flow: lattice %s, %s flow, epsilon %g, t_max %g, measured every %d steps\n",
              to_string(geometry.dims()).c_str(), options.action.c_str(), options.epsilon, options.t_max,
              options.measure_every);
  if (from_file) {
    read_gauge(U, options.gauge);
    std::printf("gauge field       read from %s\n", options.gauge.c_str());
  } else {
    ParallelRng rng(options.hot_seed);
    U.set_random(rng);
    stout_smear(U, StoutParameters{options.smooth_rho, options.smooth_steps});
    std::printf("gauge field       Haar-random (seed %lu), then %d stout steps of rho %g\n", options.hot_seed,
                options.smooth_steps, options.smooth_rho);
  }
  std::printf("average plaquette %.12f\n", average_plaquette(U));

  GradientFlow<double> flow(geometry, GaugeAction::named(options.action, 6.0));
  CloverField<double> clover(geometry);
  std::vector<FlowMeasurement> series;
  const auto measure = [&](double t) {
    series.push_back(measure_flow_observables(U, clover, t));
    const FlowMeasurement& m = series.back();
    std::printf("%8.4f %14.8f %14.8f %12.6f %12.6f %12.6f\n", m.t, m.e_plaq, m.e_clover, m.t * m.t * m.e_plaq,
                m.t * m.t * m.e_clover, m.charge);
  };
  std::printf("%8s %14s %14s %12s %12s %12s\n", "t", "E_plaq", "E_clover", "t2E_plaq", "t2E_clover", "Q");
  measure(0.0);
  const int steps = static_cast<int>(std::ceil(options.t_max / options.epsilon - 1e-9));
  double t = 0, seconds = 0;
  for (int step = 1; step <= steps; ++step) {
    const double eps = std::min(options.epsilon, options.t_max - t);
    const auto start = std::chrono::steady_clock::now();
    flow.step(U, eps);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t = step == steps ? options.t_max : t + eps;
    if (step % options.measure_every == 0 || step == steps) measure(t);
  }

  std::vector<double> ts, e_plaq, e_clover, charge;
  for (const FlowMeasurement& m : series) {
    ts.push_back(m.t);
    e_plaq.push_back(m.e_plaq);
    e_clover.push_back(m.e_clover);
    charge.push_back(m.charge);
  }
  const std::vector<double> t2e_plaq = times_t_squared(ts, e_plaq), t2e_clover = times_t_squared(ts, e_clover);
  const std::vector<double> w_clover = flow_w(ts, t2e_clover), w_plaq = flow_w(ts, t2e_plaq);
  ReportFile csv(options.out + "_flow.csv");
  csv << "t,E_plaq,E_clover,t2E_plaq,t2E_clover,W_clover,Q\n";
  for (std::size_t i = 0; i < ts.size(); ++i)
    csv << number_text(ts[i], 10) << ',' << number_text(e_plaq[i], 15) << ',' << number_text(e_clover[i], 15)
        << ',' << number_text(t2e_plaq[i], 15) << ',' << number_text(t2e_clover[i], 15) << ','
        << number_text(w_clover[i], 15) << ',' << number_text(charge[i], 15) << '\n';

  const std::vector<double> reference_t{ts.front(), ts.back()}, reference{flow_reference_value, flow_reference_value};
  plot::Panel energy{"t^2 E(t)", "t / a^2", "t^2 E", false, {}};
  energy.series.push_back({"plaquette", ts, t2e_plaq, plot::blue});
  energy.series.push_back({"clover", ts, t2e_clover, plot::orange});
  energy.series.push_back({"0.3", reference_t, reference, plot::red});
  plot::Panel w{"W(t) = t d/dt t^2 E", "t / a^2", "W", false, {}};
  w.series.push_back({"plaquette", ts, w_plaq, plot::blue});
  w.series.push_back({"clover", ts, w_clover, plot::orange});
  w.series.push_back({"0.3", reference_t, reference, plot::red});
  write_on_root([&] { plot::write_png(options.out + "_flow.png", {energy, w}); });

  std::printf("flow              %d steps, %.3f s (%.2f ms per step)\n", steps, seconds,
              steps > 0 ? 1e3 * seconds / steps : 0.0);
  const FlowScales clover_scales = flow_scales(ts, e_clover), plaquette_scales = flow_scales(ts, e_plaq);
  const auto report = [&](const char* name, const std::optional<double>& clover_value,
                          const std::optional<double>& plaquette_value, const char* what) {
    char plaquette_text[32] = "not reached";
    if (plaquette_value) std::snprintf(plaquette_text, sizeof plaquette_text, "%.6f", *plaquette_value);
    if (clover_value)
      std::printf("%-17s %.6f (clover), %s (plaquette)\n", name, *clover_value, plaquette_text);
    else
      std::printf("%-17s not reached: %s stays below 0.3 up to t_max = %g\n", name, what, options.t_max);
  };
  report("t0/a^2", clover_scales.t0, plaquette_scales.t0, "t^2 E");
  report("w0/a", clover_scales.w0, plaquette_scales.w0, "W");
  std::printf("Q                 %.6f at t = %g (clover)\n", series.back().charge, series.back().t);
  std::printf("wrote             %s_flow.csv, %s_flow.png\n", options.out.c_str(), options.out.c_str());
  return 0;
}

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  programs::CommandLine cli{"Gradient flow of a gauge field: E(t), t^2 E, W, Q, t0 and w0, written in Latte"};
  Options options;
  cli.option("--gauge", options.gauge, "a NERSC, ILDG/SciDAC, openQCD or MILC file; none: a generated field");
  cli.option("--lattice", options.lattice, "extents x y z t of a generated field").expected(4);
  cli.option("--hot-seed", options.hot_seed, "random seed of a generated field");
  cli.option("--smooth-steps", options.smooth_steps, "stout steps applied to a generated field").non_negative();
  cli.option("--smooth-rho", options.smooth_rho, "stout rho of those steps").non_negative();
  cli.option("--action", options.action, "the flow: wilson (Luescher's) or symanzik").one_of({"wilson", "symanzik"});
  cli.option("--epsilon", options.epsilon, "flow step in units of a^2").positive();
  cli.option("--t-max", options.t_max, "flow time to stop at, in units of a^2").positive();
  cli.option("--measure-every", options.measure_every, "measure every n steps").positive();
  cli.option("--out", options.out, "output prefix: writes <out>_flow.csv and <out>_flow.png");
  if (auto status = cli.parse(argc, argv)) return *status;
  if (!options.gauge.empty() && cli.count("--lattice") > 0) {
    std::fprintf(stderr, "error: --lattice is for a generated field; a gauge file brings its own\n");
    return 1;
  }
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
