// A hadron spectroscopy study on an ensemble of gauge configurations: for
// every configuration (NERSC, ILDG/SciDAC, openQCD or MILC, told apart by
// content) quark propagators from the chosen sources, the meson channels
// and the proton and Delta at the chosen momenta, with point sinks (and
// wall or smeared sinks where they belong); then effective masses with
// jackknife errors over the configurations and one-state fits.
//
//   spectroscopy b57_*.nersc --kappa 0.160 --out b57
//   spectroscopy cfg/*.lime --mass -0.35 --csw 1.0 --sources point,wall,gaussian --source-times 0,8
//   spectroscopy cfg/*.nersc --kappa 0.160 --fit pion:4:7 --fit proton:3:6 --correlated
//   spectroscopy --analyse b57.h5 --fit proton:5:7 --out b57_refit   (no solves)
//
// Sources (each on every --source-times timeslice, at --source-site in space):
//   point      a unit source at one site
//   wall       every site of the timeslice (on the Coulomb-gauge-fixed field)
//   gaussian   exp(-r^2 / r0^2) around the source site (Coulomb gauge too)
//   wuppertal  a Wuppertal-smeared point source (gauge covariant)
// Wall and gaussian sources fix each configuration to Coulomb gauge first
// (SU(2)-subgroup overrelaxation, every timeslice to --gauge-fix-tolerance
// in theta), and every propagator of that configuration is then solved on
// the fixed links (the point-source correlators are gauge invariant, so
// they are the same either way). The correlators are named
// <source>_<sink>: every source has a point sink (momentum projected); a
// wall source also a wall sink (zero momentum); a Wuppertal source also a
// Wuppertal sink with --smear-sink.
//
// Correlators of several source times are each rotated to put their
// source at t = 0 (a baryon changes sign where it crosses an antiperiodic
// time boundary) and averaged per configuration; equivalent momenta (the
// cubic group) are averaged unless --no-momentum-average.
//
// Output: <out>.h5 (every correlator per configuration, the parameters as
// attributes, the analysis: examples/correlator_file.hpp says the layout),
// <out>.csv (the correlators), <out>_analysis.csv (effective masses and
// fits) and <out>.png (the effective masses of pion, rho and proton with
// their fits). Under mpirun: the same files, the same bytes.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/correlator_file.hpp"
#include "examples/spectroscopy_analysis.hpp"
#include "lattice/fields/root_output.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/gauge_fixing/gauge_fixing.hpp"
#include "solvers/qcd/io/gauge_file.hpp"
#include "solvers/qcd/measure/baryon_contractions.hpp"
#include "solvers/qcd/measure/correlators.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"
#include "solvers/qcd/measure/quark_sources.hpp"
#include "solvers/qcd/measure/source_smearing.hpp"
#include "solvers/qcd/measure/wall_sink.hpp"

using namespace latte;

struct Options {
  std::vector<std::string> configurations;
  double mass = 0.0, kappa = 0.0;  // one of them
  double c_sw = 0;
  std::string boundary = "antiperiodic";
  std::vector<std::string> sources{"point", "wall"};
  std::vector<int> source_times{0};
  std::vector<int> source_site{0, 0, 0};
  double gaussian_r0 = 2.0;
  WuppertalSmearing wuppertal{0.25, 20};
  bool smear_sink = false;
  std::vector<std::string> mesons{"all"};
  std::vector<std::string> baryons{"proton", "delta"};
  int max_momentum_squared = 1;
  bool average_momenta = true;
  double tolerance = 1e-10;
  int max_iterations = 20000;
  GaugeFixingControl gauge_fixing{1e-12, 20000, 10};
  spectroscopy::AnalysisOptions analysis;
  std::vector<std::string> fits;
  std::string analyse;  // an earlier run's <out>.h5: analyse it again, solve nothing
  std::string out = "spectroscopy";
};

namespace {

std::string join(const std::vector<std::string>& words, const char* separator = " ") {
  std::string text;
  for (const std::string& w : words) {
    if (!text.empty()) text.append(separator);
    text.append(w);
  }
  return text;
}

std::string join(const std::vector<int>& numbers, const char* separator = ",") {
  std::vector<std::string> words;
  for (int n : numbers) words.push_back(std::to_string(n));
  return join(words, separator);
}

std::string number(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

std::vector<MesonChannel> chosen_mesons(const std::vector<std::string>& names) {
  if (names.size() == 1 && names[0] == "all") return diagonal_meson_channels();
  std::vector<MesonChannel> channels;
  for (const std::string& name : names) {
    if (name == "none") continue;
    int found = -1;
    for (int n = 0; n < dirac_matrix_count; ++n)
      if (name == meson_table[n].name) found = n;
    if (name == "rho") {  // the three polarisations
      for (int n : {gamma_index::rho_x, gamma_index::rho_y, gamma_index::rho_z}) channels.push_back({n, n});
      continue;
    }
    if (found < 0) {
      std::string known = "all, none, rho";
      for (int n = 0; n < dirac_matrix_count; ++n) known += std::string(", ") + meson_table[n].name;
      throw std::invalid_argument("--mesons: no channel '" + name + "' (known: " + known + ")");
    }
    channels.push_back({found, found});
  }
  return channels;
}

// Every n with |n|^2 <= max, one per class of equivalent momenta when they
// are averaged.
std::vector<Momentum> chosen_momenta(int max_squared, const Coordinate& dims) {
  std::vector<Momentum> momenta;
  const int reach = static_cast<int>(std::floor(std::sqrt(static_cast<double>(max_squared))));
  for (int nx = -reach; nx <= reach; ++nx)
    for (int ny = -reach; ny <= reach; ++ny)
      for (int nz = -reach; nz <= reach; ++nz)
        if (nx * nx + ny * ny + nz * nz <= max_squared) momenta.push_back({nx, ny, nz});
  // |n|^2 first, then the components, so (0,0,0) leads.
  std::sort(momenta.begin(), momenta.end(), [](const Momentum& a, const Momentum& b) {
    const int na = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], nb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    if (na != nb) return na < nb;
    return std::make_tuple(-a[0], -a[1], -a[2]) < std::make_tuple(-b[0], -b[1], -b[2]);
  });
  (void)dims;
  return momenta;
}

std::string momentum_name(const Momentum& n) {
  return "p_" + std::to_string(n[0]) + "_" + std::to_string(n[1]) + "_" + std::to_string(n[2]);
}

// The analysis (printed, and stored in the file beside the correlators),
// then the four output files, written by rank 0.
void analyse_and_write(files::CorrelatorFile& file, int T, const Options& options) {
  spectroscopy::Analysis analysis = spectroscopy::analyse(file, T, options.analysis);
  spectroscopy::print(analysis);
  file.analysis = spectroscopy::records(analysis);
  file.parameters.push_back({"analysis", spectroscopy::describe(options.analysis)});
  write_on_root([&] {
    files::write_correlator_hdf5(options.out + ".h5", file);
    files::write_correlator_csv(options.out + ".csv", file);
    spectroscopy::write_analysis_csv(options.out + "_analysis.csv", analysis);
    spectroscopy::write_png(options.out + ".png", analysis);
  });
  std::printf("wrote %s.h5, %s.csv, %s_analysis.csv, %s.png\n", options.out.c_str(), options.out.c_str(),
              options.out.c_str(), options.out.c_str());
}

// The correlators of one configuration, by their file path.
using Measured = std::map<std::string, files::CorrelatorRecord>;

void add(Measured& measured, const std::string& path, const Correlator& values, const files::TextAttributes& attributes,
         const Momentum& n) {
  auto& record = measured[path];
  record.path = path;
  record.attributes = attributes;
  record.momentum = {n[0], n[1], n[2]};
  record.values.push_back(values);
}

// Mesons and baryons of one source time, rotated to the source.
struct OneSourceTime {
  MesonCorrelators mesons;
  std::optional<MesonCorrelators> wall_mesons;
  std::optional<BaryonCorrelators> baryons, wall_baryons;
};

}  // namespace

template <class Dirac>
int run(const Options& options, const Dirac* /*tag*/) {
  const FermionBoundary boundary = parse_fermion_boundary(options.boundary);
  const Coordinate extents = read_gauge_file_info(options.configurations.front()).extents;
  const Geometry geometry(extents);
  const int T = extents[3];
  const double mass = options.kappa != 0 ? 1 / (2 * options.kappa) - 4 : options.mass;
  const std::vector<MesonChannel> channels = chosen_mesons(options.mesons);
  const bool want_proton = std::count(options.baryons.begin(), options.baryons.end(), "proton") > 0;
  const bool want_delta = std::count(options.baryons.begin(), options.baryons.end(), "delta") > 0;
  for (const std::string& b : options.baryons)
    if (b != "proton" && b != "delta" && b != "none")
      throw std::invalid_argument("--baryons: '" + b + "' is not proton, delta or none");
  const bool baryons = want_proton || want_delta;
  bool gauge_fix = false;
  for (const std::string& s : options.sources) {
    if (s != "point" && s != "wall" && s != "gaussian" && s != "wuppertal")
      throw std::invalid_argument("--sources: '" + s + "' is not point, wall, gaussian or wuppertal");
    gauge_fix = gauge_fix || s == "wall" || s == "gaussian";
  }
  for (int t0 : options.source_times)
    if (t0 < 0 || t0 >= T)
      throw std::invalid_argument("--source-times: " + std::to_string(t0) + " is not a timeslice of 0 .. " +
                                  std::to_string(T - 1));
  std::vector<Momentum> momenta = chosen_momenta(options.max_momentum_squared, extents);
  const double baryon_sign = baryon_wrap_sign(boundary);

  std::printf("Spectroscopy: %zu configurations of %s, m = %.10g (kappa = %.10g)%s\n", options.configurations.size(),
              to_string(extents).c_str(), mass, 1 / (2 * (mass + 4)),
              options.c_sw != 0 ? (", c_sw = " + number(options.c_sw)).c_str() : ", Wilson");
  std::printf("sources %s at site (%d, %d, %d), timeslices %s; %zu meson channels%s, %zu momenta (|n|^2 <= %d%s)\n",
              join(options.sources).c_str(), options.source_site[0], options.source_site[1], options.source_site[2],
              join(options.source_times).c_str(),
              channels.size(), baryons ? (", baryons " + join(options.baryons)).c_str() : "", momenta.size(),
              options.max_momentum_squared, options.average_momenta ? ", equivalent ones averaged" : "");
  std::printf("fermion boundary: %s\n", boundary.describe().c_str());

  files::CorrelatorFile file;
  std::map<std::string, files::CorrelatorRecord> records;  // path -> every configuration's values
  const SolverControl control{options.tolerance, options.max_iterations, false};

  for (std::size_t c = 0; c < options.configurations.size(); ++c) {
    const std::string& path = options.configurations[c];
    GaugeField<double> U(geometry);
    const GaugeFileInfo info = read_gauge(U, path);
    double fixing_seconds = 0, solve_seconds = 0, contraction_seconds = 0;
    std::printf("\n[%zu/%zu] %s (%s), plaquette %.12f\n", c + 1, options.configurations.size(), path.c_str(),
                gauge_file_format_name(info.format), average_plaquette(U));
    if (gauge_fix) {
      const GaugeFixed<double, DefaultWidth> fixed = fix_gauge(U, GaugeCondition::coulomb, options.gauge_fixing);
      std::printf("  Coulomb gauge: %d sweeps, largest theta_t %.3e, functional %.12f\n", fixed.report.sweeps,
                  fixed.report.quality.theta, fixed.report.quality.functional);
      fixing_seconds = fixed.report.seconds;
    }
    const Dirac M = [&] {
      if constexpr (std::is_same_v<Dirac, CloverDirac<double>>) return Dirac(U, mass, options.c_sw, boundary);
      else return Dirac(U, mass, boundary);
    }();

    Measured measured;
    for (const std::string& kind : options.sources) {
      std::vector<OneSourceTime> per_time;
      for (int t0 : options.source_times) {
        const Coordinate site{options.source_site[0], options.source_site[1], options.source_site[2], t0};
        Lattice<PropagatorSite<double>> sources(geometry);
        if (kind == "point" || kind == "wuppertal") point_source(sources, site);
        if (kind == "wuppertal") wuppertal_smear(sources, U, options.wuppertal);
        if (kind == "wall") wall_source(sources, t0);
        if (kind == "gaussian") gaussian_source(sources, site, options.gaussian_r0);
        auto [S, report] = solve_propagator(M, sources, control);
        std::printf("  %-9s source t0 = %2d: %5d CG iterations (12 columns), true residual %.2e\n", kind.c_str(), t0,
                    report.iterations, report.true_residual);
        solve_seconds += report.seconds;
        const auto contractions_start = std::chrono::steady_clock::now();

        OneSourceTime one{rotated_to_source(meson_correlators(S, site, momenta, channels)), {}, {}, {}};
        if (baryons) one.baryons = rotated_to_source(baryon_correlators(S, site, momenta), baryon_sign);
        if (kind == "wall") {
          const std::vector<PropagatorSite<double>> summed = wall_sink(S);
          one.wall_mesons = rotated_to_source(wall_sink_meson_correlators(summed, summed, site, extents, channels));
          if (baryons)
            one.wall_baryons = rotated_to_source(wall_sink_baryon_correlators(summed, site, extents), baryon_sign);
        }
        if (kind == "wuppertal" && options.smear_sink) {
          wuppertal_smear(S, U, options.wuppertal);
          one.wall_mesons = rotated_to_source(meson_correlators(S, site, momenta, channels));
          if (baryons) one.wall_baryons = rotated_to_source(baryon_correlators(S, site, momenta), baryon_sign);
        }
        per_time.push_back(std::move(one));
        contraction_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - contractions_start).count();
      }

      // Averaged over source times (and equivalent momenta), then recorded.
      const auto record = [&](const std::string& sink, auto&& meson_of, auto&& baryon_of) {
        std::vector<MesonCorrelators> mesons;
        std::vector<BaryonCorrelators> baryon_list;
        for (const OneSourceTime& one : per_time) {
          mesons.push_back(meson_of(one));
          if (baryons) baryon_list.push_back(baryon_of(one));
        }
        MesonCorrelators m = average_source_times(mesons);
        if (options.average_momenta) m = average_equivalent_momenta(m);
        const std::string prefix = kind + "_" + sink + "/";
        for (std::size_t p = 0; p < m.momenta.size(); ++p)
          for (std::size_t k = 0; k < m.channels.size(); ++k) {
            const MesonChannel& ch = m.channels[k];
            add(measured, prefix + channel_name(ch) + "/" + momentum_name(m.momenta[p]), m(p, k),
                {{"source", kind},
                 {"sink", sink},
                 {"gamma_source", std::to_string(ch.source)},
                 {"gamma_sink", std::to_string(ch.sink)},
                 {"quantum_numbers", quantum_numbers_text(ch.sink)}},
                m.momenta[p]);
          }
        if (!baryons) return;
        BaryonCorrelators b = average_source_times(baryon_list);
        if (options.average_momenta) b = average_equivalent_momenta(b);
        for (std::size_t p = 0; p < b.momenta.size(); ++p) {
          const std::string at = "/" + momentum_name(b.momenta[p]);
          const files::TextAttributes attributes{{"source", kind}, {"sink", sink}, {"parity", "+"}};
          if (want_proton) add(measured, prefix + "proton" + at, b.proton[p], attributes, b.momenta[p]);
          if (want_delta) {
            static const char* axes[3] = {"delta_x", "delta_y", "delta_z"};
            for (int k = 0; k < 3; ++k) add(measured, prefix + axes[k] + at, b.delta[p][k], attributes, b.momenta[p]);
          }
        }
      };
      record(
          "point", [](const OneSourceTime& one) { return one.mesons; },
          [](const OneSourceTime& one) { return *one.baryons; });
      if (kind == "wall")
        record(
            "wall", [](const OneSourceTime& one) { return *one.wall_mesons; },
            [](const OneSourceTime& one) { return *one.wall_baryons; });
      if (kind == "wuppertal" && options.smear_sink)
        record(
            "wuppertal", [](const OneSourceTime& one) { return *one.wall_mesons; },
            [](const OneSourceTime& one) { return *one.wall_baryons; });
    }
    // (A line of its own, as every timing: an mpirun comparison leaves it out.)
    std::printf("time  gauge fixing %.2f s, solves %.2f s, sinks and contractions %.2f s (%.1f %% of the solves)\n", fixing_seconds,
                solve_seconds, contraction_seconds, 100 * contraction_seconds / solve_seconds);
    std::fflush(stdout);  // a long study shows its progress in a log file too
    for (auto& [name, one] : measured) {
      auto& all = records[name];
      if (all.path.empty()) all = one;
      else all.values.push_back(one.values.front());
    }
  }

  file.configurations = options.configurations;
  for (auto& [name, record] : records) file.correlators.push_back(std::move(record));
  file.parameters = {{"program", "latte spectroscopy"},
                     {"lattice", to_string(extents)},
                     {"mass", number(mass)},
                     {"kappa", number(1 / (2 * (mass + 4)))},
                     {"c_sw", number(options.c_sw)},
                     {"fermion_boundary", boundary.describe()},
                     {"sources", join(options.sources)},
                     {"source_times", join(options.source_times, " ")},
                     {"source_site", std::to_string(options.source_site[0]) + " " + std::to_string(options.source_site[1]) +
                                         " " + std::to_string(options.source_site[2])},
                     {"gaussian_r0", number(options.gaussian_r0)},
                     {"wuppertal", "kappa " + number(options.wuppertal.kappa) + ", " +
                                       std::to_string(options.wuppertal.steps) + " steps" +
                                       (options.smear_sink ? ", source and sink" : ", source")},
                     {"momenta", "|n|^2 <= " + std::to_string(options.max_momentum_squared) +
                                     (options.average_momenta ? ", equivalent momenta averaged" : "")},
                     {"solver", "even-odd CG, 12 columns together, tolerance " + number(options.tolerance)},
                     {"gauge_fixing", gauge_fix ? "Coulomb, overrelaxation omega " + number(options.gauge_fixing.omega) +
                                                      ", theta_t <= " + number(options.gauge_fixing.tolerance)
                                                : "none"},
                     {"time_convention", "the source at t = 0; source times averaged"},
                     {"conventions", "solvers/qcd/measure/README.md"}};

  analyse_and_write(file, T, options);
  return 0;
}

// --analyse: the correlators of an earlier run, read from its HDF5 file
// and analysed again (other fit windows, bins, correlated fits) without a
// solve; the file's parameters are kept, its analysis replaced.
int reanalyse(const Options& options) {
  files::CorrelatorFile file = files::read_correlator_hdf5(options.analyse);
  if (file.correlators.empty() || file.correlators.front().values.empty() ||
      file.correlators.front().values.front().empty())
    throw std::invalid_argument("--analyse " + options.analyse + ": the file holds no correlators");
  const int T = static_cast<int>(file.correlators.front().values.front().size());
  std::printf("Spectroscopy: the correlators of %zu configurations (T = %d) from %s\n", file.configurations.size(), T,
              options.analyse.c_str());
  std::erase_if(file.parameters, [](const auto& parameter) { return parameter.first == "analysis"; });
  analyse_and_write(file, T, options);
  return 0;
}

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  programs::CommandLine cli{"Hadron spectroscopy on an ensemble: mesons and baryons from point, wall, gaussian or "
                            "Wuppertal sources, effective masses and fits with jackknife errors, written in Latte"};
  Options options;
  cli.option("configurations", options.configurations, "gauge files (NERSC, ILDG/SciDAC, openQCD or MILC)");
  cli.option("--mass", options.mass, "bare quark mass m in M = 4 + m - Dslash/2 (or --kappa)");
  cli.option("--kappa", options.kappa, "hopping parameter kappa = 1/(2 (m + 4)) (or --mass)");
  cli.option("--csw", options.c_sw, "clover coefficient c_sw >= 0 (0: the Wilson action)");
  cli.option("--boundary", options.boundary, "quark boundary: antiperiodic (in time), periodic or twisted:a,b,c,d")
      .show_default();
  cli.option("--sources", options.sources, "point, wall, gaussian, wuppertal (a list)");
  cli.option("--source-times", options.source_times, "source timeslices (a list): averaged after rotation");
  cli.option("--source-site", options.source_site, "spatial site x y z of point, gaussian and Wuppertal sources")
      .expected(3);
  cli.option("--gaussian-r0", options.gaussian_r0, "radius r0 of the gaussian source exp(-r^2/r0^2)").positive();
  cli.option("--wuppertal-kappa", options.wuppertal.kappa, "Wuppertal smearing kappa").show_default();
  cli.option("--wuppertal-steps", options.wuppertal.steps, "Wuppertal smearing steps").show_default();
  cli.flag("--smear-sink", options.smear_sink, "with a Wuppertal source, a Wuppertal sink too");
  cli.option("--mesons", options.mesons, "meson channels: all (the 16 diagonal ones), none, rho, or names (pion, a0, ...)");
  cli.option("--baryons", options.baryons, "proton, delta or none");
  cli.option("--max-momentum2", options.max_momentum_squared, "momenta n with |n|^2 <= this (p = 2 pi n / L)")
      .non_negative();
  cli.flag("!--no-momentum-average", options.average_momenta, "keep equivalent momenta apart");
  cli.option("--tolerance", options.tolerance, "relative true residual of every propagator column").positive();
  cli.option("--max-iterations", options.max_iterations, "CG iteration limit").positive();
  cli.option("--gauge-fix-tolerance", options.gauge_fixing.tolerance, "Coulomb gauge: theta_t of every timeslice")
      .positive();
  cli.option("--gauge-fix-omega", options.gauge_fixing.omega, "overrelaxation parameter in [1, 2)").range(1.0, 1.999);
  cli.option("--gauge-fix-max-sweeps", options.gauge_fixing.max_sweeps, "gauge-fixing sweep limit").positive();
  cli.option("--fit", options.fits, "a fit window hadron:t_min:t_max (pion, rho, proton, delta; repeat)");
  cli.flag("--correlated", options.analysis.correlated, "correlated fits (the covariance over the jackknife bins)");
  cli.option("--bin-size", options.analysis.bin_size, "configurations per jackknife bin").positive();
  cli.option("--analyse", options.analyse,
             "an earlier run's <out>.h5: its correlators analysed again (--fit, --bin-size, --correlated), nothing solved");
  cli.option("--out", options.out, "output prefix: <out>.h5, <out>.csv, <out>_analysis.csv, <out>.png");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    for (const std::string& fit : options.fits) spectroscopy::add_fit_window(options.analysis, fit);
    if (!options.analyse.empty()) {
      if (!options.configurations.empty())
        throw std::invalid_argument("give gauge configurations or --analyse " + options.analyse + ", not both");
      if (options.analyse == options.out + ".h5")
        throw std::invalid_argument("--analyse " + options.analyse + ": choose another --out, or it is overwritten");
      return reanalyse(options);
    }
    if (options.configurations.empty())
      throw std::invalid_argument("no gauge configurations given (or --analyse an earlier run's file)");
    if (cli.count("--mass") && cli.count("--kappa")) throw std::invalid_argument("give --mass or --kappa, not both");
    if (!cli.count("--mass") && !cli.count("--kappa")) throw std::invalid_argument("give the quark's --mass or --kappa");
    if (cli.count("--kappa") && !(options.kappa > 0)) throw std::invalid_argument("--kappa must be positive");
    if (!(options.c_sw >= 0)) throw std::invalid_argument("--csw must be >= 0 (0: the Wilson action)");
    return options.c_sw != 0 ? run(options, static_cast<const CloverDirac<double>*>(nullptr))
                             : run(options, static_cast<const WilsonDirac<double>*>(nullptr));
  } catch (const SolverError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
