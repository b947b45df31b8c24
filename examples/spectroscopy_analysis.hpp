#pragma once
// The analysis of the spectroscopy example (examples/spectroscopy.cpp): for
// every source-sink pair measured, the pion, rho, proton and Delta at zero
// momentum — effective masses with jackknife errors over the
// configurations and a one-state fit in a window (solvers/statistics/).
//
//   hadron  correlator (real part, source at t = 0)          m_eff   fit
//   pion    <source>_<sink>/pion/p_0_0_0                     cosh    cosh
//   rho     mean of rho_x, rho_y, rho_z                      cosh    cosh
//   proton  <source>_<sink>/proton/p_0_0_0                   log     exp
//   delta   mean of delta_x, delta_y, delta_z                log     exp
//
// The mesons' correlators are symmetric about T/2 (cosh); the positive-
// parity baryons propagate forward, their backward half being the
// negative-parity partner, so they take the log mass and an exponential in
// the forward half. Default windows on T timeslices: mesons
// [T/4, T/2], baryons [T/8 + 1, T/4 + 2]; --fit hadron:t_min:t_max
// chooses another. A fit that cannot be made (a window out of range, a
// covariance that cannot be inverted) is reported, not fatal: the other
// hadrons are still analysed.
//
// Host code on numbers that are the same on every rank; the files are
// written by the caller on rank 0.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "examples/correlator_file.hpp"
#include "examples/number_text.hpp"
#include "examples/plot_png.hpp"
#include "solvers/qcd/measure/effective_mass.hpp"
#include "solvers/statistics/correlator_fit.hpp"

namespace latte::spectroscopy {

inline const std::vector<std::string>& hadrons() {
  static const std::vector<std::string> names{"pion", "rho", "proton", "delta"};
  return names;
}
inline bool is_baryon(const std::string& hadron) { return hadron == "proton" || hadron == "delta"; }

struct AnalysisOptions {
  bool correlated = false;
  int bin_size = 1;
  std::map<std::string, statistics::FitWindow> windows;  // chosen; others take the defaults
};

// "pion:4:7" into the options.
inline void add_fit_window(AnalysisOptions& options, const std::string& text) {
  const std::size_t first = text.find(':'), second = text.find(':', first == std::string::npos ? 0 : first + 1);
  const std::string hadron = text.substr(0, first);
  const auto known = hadrons();
  if (first == std::string::npos || second == std::string::npos ||
      std::find(known.begin(), known.end(), hadron) == known.end())
    throw std::invalid_argument("--fit '" + text + "': write hadron:t_min:t_max with hadron pion, rho, proton or delta");
  try {
    options.windows[hadron] = {std::stoi(text.substr(first + 1, second - first - 1)), std::stoi(text.substr(second + 1))};
  } catch (const std::logic_error&) {
    throw std::invalid_argument("--fit '" + text + "': t_min and t_max are whole numbers");
  }
}

inline statistics::FitWindow window_of(const AnalysisOptions& options, const std::string& hadron, int T) {
  const auto chosen = options.windows.find(hadron);
  if (chosen != options.windows.end()) return chosen->second;
  return is_baryon(hadron) ? statistics::FitWindow{T / 8 + 1, T / 4 + 2} : statistics::FitWindow{T / 4, T / 2};
}

inline std::string describe(const AnalysisOptions& options) {
  std::string text = std::string(options.correlated ? "correlated" : "uncorrelated") +
                     " one-state fits (mesons cosh, baryons exp), jackknife bins of " +
                     std::to_string(options.bin_size) + " configurations";
  for (const auto& [hadron, w] : options.windows)
    text += ", " + hadron + " in [" + std::to_string(w.t_min) + ", " + std::to_string(w.t_max) + "]";
  return text;
}

struct HadronAnalysis {
  std::string hadron, pair;  // pair: <source>_<sink>
  statistics::Estimate effective_mass;
  std::optional<statistics::CorrelatorFit> fit;
  std::string fit_failure;  // why there is no fit
};

struct Analysis {
  int T = 0;
  std::size_t configurations = 0, bins = 0;
  AnalysisOptions options;
  std::vector<HadronAnalysis> results;
};

namespace detail {

// The real parts of the configurations' correlators at `paths`, averaged
// over the paths (the polarisations), [configuration][t].
inline std::vector<std::vector<double>> real_samples(const files::CorrelatorFile& file,
                                                     const std::vector<std::string>& paths) {
  std::vector<std::vector<double>> samples;
  for (const std::string& path : paths) {
    const auto record = std::find_if(file.correlators.begin(), file.correlators.end(),
                                     [&](const files::CorrelatorRecord& r) { return r.path == path; });
    if (record == file.correlators.end()) return {};
    if (samples.empty())
      samples.assign(record->values.size(), std::vector<double>(record->values.empty() ? 0 : record->values[0].size(), 0.0));
    for (std::size_t c = 0; c < samples.size(); ++c)
      for (std::size_t t = 0; t < samples[c].size(); ++t) samples[c][t] += record->values[c][t].real() / paths.size();
  }
  return samples;
}

inline std::vector<std::string> paths_of(const std::string& pair, const std::string& hadron) {
  const std::string at = "/p_0_0_0";
  if (hadron == "rho") return {pair + "/rho_x" + at, pair + "/rho_y" + at, pair + "/rho_z" + at};
  if (hadron == "delta") return {pair + "/delta_x" + at, pair + "/delta_y" + at, pair + "/delta_z" + at};
  return {pair + "/" + hadron + at};
}

}  // namespace detail

inline Analysis analyse(const files::CorrelatorFile& file, int T, const AnalysisOptions& options) {
  Analysis analysis{T, file.configurations.size(), 0, options, {}};
  std::set<std::string> pairs;  // <source>_<sink>, in name order
  for (const files::CorrelatorRecord& r : file.correlators) pairs.insert(r.path.substr(0, r.path.find('/')));
  for (const std::string& hadron : hadrons())
    for (const std::string& pair : pairs) {
      const std::vector<std::vector<double>> samples = detail::real_samples(file, detail::paths_of(pair, hadron));
      if (samples.empty()) continue;
      const statistics::Jackknife jk(samples, options.bin_size);
      analysis.bins = jk.bins();
      HadronAnalysis h{hadron, pair, {}, std::nullopt, {}};
      h.effective_mass = is_baryon(hadron)
                             ? jk.estimate([](const std::vector<double>& C) { return log_effective_mass(C); })
                             : jk.estimate([](const std::vector<double>& C) { return effective_mass(C); });
      try {
        h.fit = statistics::fit_correlator(jk, is_baryon(hadron) ? statistics::CorrelatorModel::exp
                                                                 : statistics::CorrelatorModel::cosh,
                                           window_of(options, hadron, T), options.correlated);
      } catch (const std::invalid_argument& error) {
        h.fit_failure = error.what();
      }
      analysis.results.push_back(std::move(h));
    }
  return analysis;
}

// m(err) with the error's two leading digits in parentheses: 0.6123(45).
inline std::string with_error(double value, double error) {
  char text[64];
  if (!std::isfinite(value)) return "nan";
  if (!(error > 0) || !std::isfinite(error)) {
    std::snprintf(text, sizeof text, "%.6f(?)", value);
    return text;
  }
  const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(error))));
  std::snprintf(text, sizeof text, "%.*f(%.0f)", decimals, value, error * std::pow(10.0, decimals));
  return text;
}

inline void print(const Analysis& analysis) {
  std::printf("\nEffective masses (jackknife over %zu configurations in %zu bins; mesons cosh, baryons log):\n",
              analysis.configurations, analysis.bins);
  for (const std::string& hadron : hadrons()) {
    std::vector<const HadronAnalysis*> rows;
    for (const HadronAnalysis& h : analysis.results)
      if (h.hadron == hadron) rows.push_back(&h);
    if (rows.empty()) continue;
    std::printf("%-7s %3s", hadron.c_str(), "t");
    for (const HadronAnalysis* h : rows) std::printf(" %20s", h->pair.c_str());
    std::printf("\n");
    const int last = is_baryon(hadron) ? analysis.T / 2 : analysis.T / 2 - 1;
    for (int t = 0; t < last; ++t) {
      std::printf("%-7s %3d", "", t);
      for (const HadronAnalysis* h : rows)
        std::printf(" %20s", with_error(h->effective_mass.value[t], h->effective_mass.error[t]).c_str());
      std::printf("\n");
    }
  }
  std::printf("\nFits (%s):\n", analysis.options.correlated ? "correlated" : "uncorrelated");
  std::printf("%-7s %-22s %-5s %-8s %-16s %-10s\n", "hadron", "source_sink", "model", "window", "mass", "chi2/dof");
  for (const HadronAnalysis& h : analysis.results) {
    if (!h.fit) {
      std::printf("%-7s %-22s no fit: %s\n", h.hadron.c_str(), h.pair.c_str(), h.fit_failure.c_str());
      continue;
    }
    const statistics::CorrelatorFit& f = *h.fit;
    std::printf("%-7s %-22s %-5s [%d, %d]   %-16s %.2f\n", h.hadron.c_str(), h.pair.c_str(), statistics::model_name(f.model),
                f.window.t_min, f.window.t_max, with_error(f.mass, f.mass_error).c_str(), f.chi2_per_dof);
  }
  // The pion from a point and from a wall source: the same state, so the
  // same mass within errors.
  const auto fit_of = [&](const std::string& pair) -> const statistics::CorrelatorFit* {
    for (const HadronAnalysis& h : analysis.results)
      if (h.hadron == "pion" && h.pair == pair && h.fit) return &*h.fit;
    return nullptr;
  };
  const statistics::CorrelatorFit *point = fit_of("point_point"), *wall = fit_of("wall_point");
  if (point && wall && point->replica_masses.size() == wall->replica_masses.size()) {
    // Both fits are to the same configurations in the same bins: the
    // difference's error is the jackknife spread of the replicas'
    // differences, which keeps the correlation of the two sources.
    std::vector<std::vector<double>> differences;
    for (std::size_t k = 0; k < point->replica_masses.size(); ++k)
      differences.push_back({wall->replica_masses[k] - point->replica_masses[k]});
    const double difference = wall->mass - point->mass;
    const double error = statistics::Jackknife::spread(differences)[0];
    std::printf("\npion mass, wall_point - point_point: %s, %.2f sigma (jackknife of the difference; "
                "%.2f sigma with the errors added in quadrature)\n",
                with_error(difference, error).c_str(), difference / error,
                difference / std::hypot(point->mass_error, wall->mass_error));
  }
}

inline std::vector<files::AnalysisRecord> records(const Analysis& analysis) {
  std::vector<files::AnalysisRecord> out;
  for (const HadronAnalysis& h : analysis.results) {
    files::AnalysisRecord r{h.pair + "/" + h.hadron + "/effective_mass", h.effective_mass.value, h.effective_mass.error,
                            {}};
    if (h.fit)
      r.numbers = {{"fit_mass", h.fit->mass},
                   {"fit_mass_error", h.fit->mass_error},
                   {"fit_amplitude", h.fit->amplitude},
                   {"fit_amplitude_error", h.fit->amplitude_error},
                   {"fit_chi2_per_dof", h.fit->chi2_per_dof},
                   {"fit_t_min", static_cast<double>(h.fit->window.t_min)},
                   {"fit_t_max", static_cast<double>(h.fit->window.t_max)},
                   {"fit_correlated", h.fit->correlated ? 1.0 : 0.0}};
    out.push_back(std::move(r));
  }
  return out;
}

// hadron,source_sink,t,m_eff,error then the fits as
// hadron,source_sink,fit,<model>,t_min,t_max,mass,error,chi2_per_dof.
inline void write_analysis_csv(const std::string& path, const Analysis& analysis) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) throw std::runtime_error("Latte: cannot write " + path);
  using programs::number_text;
  std::fprintf(out, "hadron,source_sink,t,m_eff,error\n");
  for (const HadronAnalysis& h : analysis.results)
    for (std::size_t t = 0; t < h.effective_mass.value.size(); ++t)
      std::fprintf(out, "%s,%s,%zu,%s,%s\n", h.hadron.c_str(), h.pair.c_str(), t,
                   number_text(h.effective_mass.value[t], 15).c_str(), number_text(h.effective_mass.error[t], 15).c_str());
  std::fprintf(out, "hadron,source_sink,fit,model,t_min,t_max,mass,error,chi2_per_dof\n");
  for (const HadronAnalysis& h : analysis.results)
    if (h.fit)
      std::fprintf(out, "%s,%s,fit,%s,%d,%d,%s,%s,%s\n", h.hadron.c_str(), h.pair.c_str(),
                   statistics::model_name(h.fit->model), h.fit->window.t_min, h.fit->window.t_max,
                   number_text(h.fit->mass, 15).c_str(), number_text(h.fit->mass_error, 15).c_str(),
                   number_text(h.fit->chi2_per_dof, 6).c_str());
  if (std::fclose(out) != 0) throw std::runtime_error("Latte: writing " + path + " failed");
}

// The effective masses of pion, rho and proton (one panel each), every
// source-sink pair a colour, each fit a line over its window at m and
// m +- its error.
inline void write_png(const std::string& path, const Analysis& analysis) {
  const plot::Colour colours[] = {plot::blue, plot::orange, plot::green, plot::red};
  std::vector<plot::Panel> panels;
  for (const std::string& hadron : {std::string("pion"), std::string("rho"), std::string("proton")}) {
    plot::Panel panel{hadron + " effective mass", "t", "m_eff", false, {}};
    double highest = 0;
    int k = 0;
    for (const HadronAnalysis& h : analysis.results) {
      if (h.hadron != hadron) continue;
      const plot::Colour colour = colours[k++ % 4];
      const int last = is_baryon(hadron) ? analysis.T / 2 : analysis.T / 2 - 1;
      std::vector<double> t, m, e;
      for (int i = 0; i < last && i < static_cast<int>(h.effective_mass.value.size()); ++i) {
        t.push_back(i + 0.5);  // m_eff(t) comes from C(t) and C(t + 1)
        m.push_back(h.effective_mass.value[i]);
        e.push_back(h.effective_mass.error[i]);
      }
      plot::Series points{h.pair, t, m, colour, e, false, true};
      panel.series.push_back(points);
      if (h.fit) {
        const statistics::CorrelatorFit& f = *h.fit;
        const std::vector<double> window{static_cast<double>(f.window.t_min), static_cast<double>(f.window.t_max)};
        panel.series.push_back({"", window, {f.mass, f.mass}, colour, {}, true, false});
        panel.series.push_back({"", window, {f.mass + f.mass_error, f.mass + f.mass_error}, colour, {}, true, false});
        panel.series.push_back({"", window, {f.mass - f.mass_error, f.mass - f.mass_error}, colour, {}, true, false});
        highest = std::max(highest, f.mass);
      }
    }
    if (panel.series.empty()) continue;
    if (highest > 0) {
      panel.y_low = 0;
      panel.y_high = 2 * highest;
    }
    panels.push_back(panel);
  }
  if (!panels.empty()) plot::write_png(path, panels);
}

}  // namespace latte::spectroscopy
