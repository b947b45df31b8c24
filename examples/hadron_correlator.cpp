// The pion correlator and its effective mass from a point-source Wilson or
// Wilson-clover quark propagator, on the free field, a random ("hot") SU(3)
// gauge field or a configuration read from a gauge file (NERSC, ILDG/SciDAC,
// openQCD or MILC, told apart by content: solvers/qcd/io/gauge_file.hpp).
//
//   hadron_correlator --lattice 8 8 8 16 --mass 0.2 --gauge unit --out pion
//   hadron_correlator --gauge config.nersc --source 0 0 0 4 --tolerance 1e-12
//   hadron_correlator --gauge config.nersc --smear-steps 30 --smear-kappa 0.25 --smear-sink
//   hadron_correlator --boundary periodic      # or twisted:a,b,c,d (theta_mu in units of pi)
//   hadron_correlator --gauge config.nersc --csw 1.0 --mass -0.2
//
// It solves M S = eta for the 12 spin-colour columns of a point source
// (solvers/qcd/measure/propagator.hpp), all 12 together through the even-odd Schur
// complement; with --csw M is the Wilson-clover operator
// (solvers/qcd/fermions/clover_action.hpp: its clover term from the gauge field, the
// boundary phases on its hopping term), else Wilson's. It sums tr[S S^+]
// over each timeslice (solvers/qcd/measure/hadron_correlators.hpp) and prints C(t)
// with the cosh and log effective masses (solvers/qcd/measure/effective_mass.hpp).
// With --smear-steps the source is Wuppertal-smeared
// (solvers/qcd/measure/source_smearing.hpp), and with --smear-sink the sink too: a
// smeared source overlaps less with excited states, so the effective mass
// reaches its plateau earlier. t counts timeslices from the source's. It
// writes <out>.csv (t, C(t), cosh effective mass; nan where there is none)
// and <out>.png: C(t) on a log scale, and the cosh effective mass with the
// log one (for t < T/2) against t. The quarks are antiperiodic in time
// unless --boundary says otherwise (solvers/qcd/fermions/fermion_boundary.hpp).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/number_text.hpp"
#include "examples/plot_png.hpp"
#include "lattice/fields/report_file.hpp"
#include "lattice/fields/root_output.hpp"
#include "solvers/qcd/solves/clover_solve.hpp"
#include "solvers/qcd/flow/smearing.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file.hpp"
#include "solvers/qcd/measure/effective_mass.hpp"
#include "solvers/qcd/measure/hadron_correlators.hpp"
#include "solvers/qcd/measure/propagator.hpp"
#include "solvers/qcd/measure/source_smearing.hpp"

using namespace latte;

struct Options {
  Coordinate lattice{8, 8, 8, 16};
  double mass = 0.2;
  double c_sw = 0;  // 0: the Wilson action
  std::string gauge = "unit";  // unit, random or a gauge file
  std::string boundary = "antiperiodic";  // the quarks' (parse_fermion_boundary)
  Coordinate source{0, 0, 0, 0};
  double tolerance = 1e-10;
  int max_iterations = 10000;
  std::uint64_t seed = 7;
  std::string out = "hadron_correlator";
  WuppertalSmearing smearing{0.25, 0};
  bool smear_sink = false;
  StoutParameters link_smearing{0.1, 0, SmearingDirections::spatial};
  bool lattice_given = false;
};

using latte::programs::number_text;

// The clover propagator as point_propagator and smeared_point_propagator
// make Wilson's (solvers/qcd/measure/propagator.hpp, source_smearing.hpp): the 12
// columns as one batch through the even-odd clover solve.
PointPropagator<double> clover_point_propagator(const CloverDirac<double>& M, const GaugeField<double>& smearing_links,
                                                const Coordinate& source, const WuppertalSmearing& source_smearing,
                                                const WuppertalSmearing& sink_smearing,
                                                const SolverControl& control) {
  const CloverEvenOdd<double> schur(M);
  Lattice<PropagatorSite<double>> sources(M.geometry());
  point_source(sources, source);
  if (source_smearing.steps > 0) wuppertal_smear(sources, smearing_links, source_smearing);
  PointPropagator<double> propagator{Lattice<PropagatorSite<double>>(M.geometry()), {}};
  propagator.field = zero;
  propagator.report = solve_clover_even_odd(schur, M, propagator.field, sources, control);
  if (sink_smearing.steps > 0) wuppertal_smear(propagator.field, smearing_links, sink_smearing);
  return propagator;
}

int run(const Options& options) {
  const FermionBoundary boundary = parse_fermion_boundary(options.boundary);  // bad text: before any work
  // c_sw = 1 is tree-level O(a) improvement, its nonperturbative values
  // are larger; a negative one is no improvement of anything.
  if (!(options.c_sw >= 0)) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", options.c_sw);
    throw std::invalid_argument(std::string("--csw ") + value +
                                ": the clover coefficient c_sw must be >= 0 (0: the Wilson action, 1: tree level)");
  }
  // A configuration file brings its lattice, unless --lattice insists.
  const bool from_file = options.gauge != "unit" && options.gauge != "random";
  Geometry geometry(from_file && !options.lattice_given ? read_gauge_file_info(options.gauge).extents : options.lattice);
  GaugeField<double> U(geometry);
  if (options.gauge == "unit") {
    U.set_unit();
  } else if (options.gauge == "random") {
    ParallelRng rng(options.seed);
    U.set_random(rng);
  } else {
    read_gauge(U, options.gauge);
  }
  // Wilson's operator is built for c_sw = 0 alone, the clover one otherwise
  // (its clover term is computed here: a c_sw too large for this field
  // stops the program before any solve).
  const bool clover = options.c_sw != 0;
  std::unique_ptr<const WilsonDirac<double>> wilson;
  std::unique_ptr<const CloverDirac<double>> clover_M;
  if (clover)
    clover_M = std::make_unique<const CloverDirac<double>>(U, options.mass, options.c_sw, boundary);
  else
    wilson = std::make_unique<const WilsonDirac<double>>(U, options.mass, boundary);

  std::printf("Pion correlator: lattice %s, m = %g, point source at %s, tolerance %g\n",
              to_string(geometry.dims()).c_str(), options.mass, to_string(options.source).c_str(), options.tolerance);
  std::printf("gauge field       %s%s\n", from_file ? "read from " : options.gauge == "unit" ? "unit (free field)" : "random SU(3)",
              from_file ? options.gauge.c_str() : "");
  std::printf("average plaquette %.12f\n", average_plaquette(U));
  if (clover) std::printf("fermion action: Wilson-clover, m = %g, c_sw = %g\n", options.mass, options.c_sw);
  std::printf("fermion boundary: %s\n", boundary.describe().c_str());

  const WuppertalSmearing none{0.0, 0}, &sink = options.smear_sink ? options.smearing : none;
  if (options.smearing.steps > 0)
    std::printf("smearing          Wuppertal, kappa = %g, %d steps, source%s\n", options.smearing.kappa,
                options.smearing.steps, options.smear_sink ? " and sink" : " only (point sink)");
  // The source is smeared with spatially stout-smeared links (the solve
  // uses the links themselves).
  GaugeField<double> smeared_links(geometry);
  for (int mu = 0; mu < spacetime_dimensions; ++mu) smeared_links[mu] = U[mu];
  if (options.smearing.steps > 0 && options.link_smearing.steps > 0) {
    stout_smear(smeared_links, options.link_smearing);
    std::printf("smearing links    spatial stout, rho = %g, %d steps (plaquette %.12f)\n", options.link_smearing.rho,
                options.link_smearing.steps, average_plaquette(smeared_links));
  }
  const SolverControl control{options.tolerance, options.max_iterations, false};
  const auto [S, report] =
      clover ? clover_point_propagator(*clover_M, smeared_links, options.source, options.smearing, sink, control)
      : options.smearing.steps > 0
          ? smeared_point_propagator(*wilson, smeared_links, options.source, options.smearing, sink, control)
          : point_propagator(*wilson, options.source, control);
  std::printf("iterations        %d   CG, all 12 columns\n", report.iterations);
  std::printf("true residual     %.6e   largest |eta - M S| / |eta| of a column\n", report.true_residual);
  std::printf("time              %.3f s\n", report.seconds);

  // Timeslices counted from the source's.
  const std::vector<double> absolute = pion_correlator(S);
  const int T = static_cast<int>(absolute.size());
  std::vector<double> C(T), t_values(T);
  for (int t = 0; t < T; ++t) {
    C[t] = absolute[(t + options.source[3]) % T];
    t_values[t] = t;
  }
  const std::vector<double> cosh_mass = effective_mass(C), log_mass = log_effective_mass(C);
  const auto at = [](const std::vector<double>& v, int t) {
    return t < static_cast<int>(v.size()) ? v[t] : std::nan("");
  };

  std::printf("%4s %22s %14s %14s\n", "t", "C(t)", "m_eff cosh", "m_eff log");
  ReportFile csv(options.out + ".csv");
  csv << "t,C,m_eff\n";
  for (int t = 0; t < T; ++t) {
    std::printf("%4d %22.12e %14.8f %14.8f\n", t, C[t], at(cosh_mass, t), at(log_mass, t));
    csv << t << ',' << number_text(C[t], 15) << ',' << number_text(at(cosh_mass, t), 15) << '\n';
  }

  plot::Panel correlator{"Pion correlator", "t", "C(t)", true, {}};
  correlator.series.push_back({"", t_values, C, plot::blue});
  plot::Panel masses{"Effective mass", "t", "m_eff(t)", false, {}};
  masses.series.push_back({"cosh", t_values, cosh_mass, plot::blue});
  // The log mass only where it means something: beyond T/2 it turns negative.
  std::vector<double> forward_log_mass(log_mass.begin(), log_mass.begin() + std::min<int>(T / 2, log_mass.size()));
  masses.series.push_back({"log", t_values, forward_log_mass, plot::orange});
  write_on_root([&] { plot::write_png(options.out + ".png", {correlator, masses}); });
  std::printf("wrote             %s.csv, %s.png\n", options.out.c_str(), options.out.c_str());
  return 0;
}

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  programs::CommandLine cli{
      "Pion correlator and effective mass from a Wilson or Wilson-clover point-source propagator, written in Latte"};
  Options options;
  cli.option("--lattice", options.lattice, "extents x y z t").expected(4);
  cli.option("--mass", options.mass, "bare quark mass m in M = 4 + m - Dslash/2");
  cli.option("--gauge", options.gauge, "unit (free field), random (hot SU(3)) or the path of a NERSC, ILDG/SciDAC, openQCD or MILC file");
  cli.option("--csw", options.c_sw,
             "clover coefficient c_sw >= 0 of the Wilson-clover action (0: the Wilson action; tree level 1)");
  cli.option("--boundary", options.boundary,
             "quark boundary: antiperiodic (in time), periodic or twisted:a,b,c,d (phases e^{i pi a} ... in x y z t)")
      .show_default();
  cli.option("--source", options.source, "source site x y z t").expected(4);
  cli.option("--tolerance", options.tolerance, "relative true residual |eta - M S| / |eta| of every column").positive();
  cli.option("--max-iterations", options.max_iterations, "CG iteration limit of each column").positive();
  cli.option("--seed", options.seed, "random seed of --gauge random");
  cli.option("--smear-steps", options.smearing.steps, "Wuppertal smearing steps of the source (0: a point source)");
  cli.option("--smear-kappa", options.smearing.kappa, "Wuppertal smearing kappa");
  cli.flag("--smear-sink", options.smear_sink, "smear the sink as the source (smeared-smeared correlator)");
  cli.option("--link-smearing-steps", options.link_smearing.steps,
             "spatial stout steps of the links the source smearing uses (0: the links themselves)");
  cli.option("--link-smearing-rho", options.link_smearing.rho, "spatial stout rho of those links");
  cli.option("--out", options.out, "output prefix: writes <out>.csv and <out>.png");
  if (auto status = cli.parse(argc, argv)) return *status;
  options.lattice_given = cli.count("--lattice") > 0;
  try {
    return run(options);
  } catch (const SolverError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
