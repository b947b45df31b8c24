#pragma once
// What gauge fixing is asked for, what it reports, and how it fails, in the
// style of the Krylov solvers (solvers/krylov/solver_control.hpp).
//
// The stopping rule: every check_every sweeps (and before the first) F and
// theta are measured (gauge_condition.hpp). Landau stops when theta <=
// tolerance. Coulomb judges each timeslice on its own theta_t: a timeslice
// whose theta_t <= tolerance stops changing (its transformation is exactly
// 1 from then on), and the fixing stops when every timeslice has. A fixing
// that has not stopped after max_sweeps sweeps throws GaugeFixingError,
// naming the condition and every timeslice still above the tolerance with
// its theta_t, the gauge field left at the last iterate.

#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/krylov/solver_control.hpp"
#include "solvers/qcd/gauge_fixing/gauge_condition.hpp"

namespace latte {

enum class GaugeFixingMethod {
  overrelaxation,  // SU(2)-subgroup overrelaxation on the checkerboards
};

struct GaugeFixingControl {
  double tolerance = 1e-12;  // on theta (each timeslice's theta_t for Coulomb)
  int max_sweeps = 10000;
  int check_every = 10;      // sweeps between measurements (stopping, history, progress)
  GaugeFixingMethod method = GaugeFixingMethod::overrelaxation;
  double omega = 0;          // overrelaxation, in [1, 2); 0: chosen from the lattice (gauge_fixing.hpp)
  std::ostream* progress = nullptr;  // a line per measurement, written by rank 0
};

// One measurement.
struct GaugeFixingRecord {
  int sweep = 0;
  double functional = 0;
  double theta = 0;                  // Coulomb: the largest theta_t
  std::vector<double> slice_theta;   // Coulomb: every timeslice's; empty for Landau
};

struct GaugeFixingReport {
  GaugeCondition condition = GaugeCondition::landau;
  GaugeFixingMethod method = GaugeFixingMethod::overrelaxation;
  double omega = 0;                  // the overrelaxation parameter used
  bool converged = false;
  int sweeps = 0;                    // sweeps made (of the timeslice that took the most)
  GaugeFixingQuality quality;        // at exit
  std::vector<int> slice_sweeps;     // Coulomb: sweeps until each timeslice stopped (or all made)
  std::vector<GaugeFixingRecord> history;
  double seconds = 0;
};

inline std::string to_string(GaugeFixingMethod) { return "overrelaxation"; }

// A fixing that did not reach its tolerance (or met NaN). A SolverError, so
// that code catching solver failures catches it; its SolverReport has the
// sweeps as iterations and the largest theta as residual.
class GaugeFixingError : public SolverError {
 public:
  GaugeFixingError(const std::string& what, GaugeFixingReport report)
      : SolverError(what, summary(report)), fixing_(std::move(report)) {}
  const GaugeFixingReport& fixing_report() const { return fixing_; }

 private:
  static SolverReport summary(const GaugeFixingReport& r) {
    SolverReport s;
    s.iterations = r.sweeps;
    s.residual = s.true_residual = r.quality.theta;
    s.seconds = r.seconds;
    for (const GaugeFixingRecord& record : r.history) s.residual_history.push_back(record.theta);
    return s;
  }
  GaugeFixingReport fixing_;
};

namespace gauge_fixing {

inline std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", x);
  return text;
}

inline void check_control(const GaugeFixingControl& c) {
  auto refuse = [](const std::string& what) { throw std::invalid_argument("Latte: gauge fixing needs " + what); };
  if (!(c.tolerance > 0) || !std::isfinite(c.tolerance)) refuse("a finite tolerance > 0, got " + scientific(c.tolerance));
  if (c.max_sweeps < 0) refuse("max_sweeps >= 0, got " + std::to_string(c.max_sweeps));
  if (c.check_every < 1) refuse("check_every >= 1, got " + std::to_string(c.check_every));
  if (c.method == GaugeFixingMethod::overrelaxation && !(c.omega == 0 || (c.omega >= 1 && c.omega < 2)))
    refuse("an overrelaxation parameter omega in [1, 2) (or 0 to choose it from the lattice), got " +
           std::to_string(c.omega));
}

// One progress line: the sweep, F, theta and, for Coulomb, the timeslices still moving.
inline std::string progress_line(const GaugeFixingReport& r, const GaugeFixingRecord& record, int moving) {
  std::ostringstream line;
  line << "gauge fixing (" << to_string(r.condition) << "): sweep " << record.sweep << "  F = "
       << std::to_string(record.functional) << "  theta = " << scientific(record.theta);
  if (r.condition == GaugeCondition::coulomb)
    line << " (largest timeslice)  timeslices moving: " << moving << " of " << record.slice_theta.size();
  line << '\n';
  return line.str();
}

// The message of a fixing that ran out of sweeps: every timeslice above the
// tolerance, with its theta_t (or theta for Landau).
inline std::string no_convergence(const GaugeFixingReport& r, const GaugeFixingControl& c, const std::string& why) {
  std::ostringstream m;
  m << "Latte gauge fixing (" << to_string(r.condition) << ", " << to_string(r.method) << "): " << why << " after "
    << r.sweeps << " sweeps (tolerance " << scientific(c.tolerance) << " on theta";
  if (r.condition == GaugeCondition::landau) {
    m << "): theta = " << scientific(r.quality.theta);
  } else {
    m << " of each timeslice): ";
    const char* separator = "";
    for (std::size_t t = 0; t < r.quality.slice_theta.size(); ++t)
      if (!(r.quality.slice_theta[t] <= c.tolerance)) {
        m << separator << "timeslice " << t << " theta = " << scientific(r.quality.slice_theta[t]);
        separator = ", ";
      }
  }
  m << "; the gauge field holds the last iterate";
  return m.str();
}

}  // namespace gauge_fixing
}  // namespace latte
