#pragma once
// One-state fits of a two-point function C(t), t = 0 .. T - 1 (source at
// t = 0), in a window t_min <= t <= t_max:
//
//   exp:   C(t) = A exp(-m t)                            (a baryon's forward half)
//   cosh:  C(t) = A [exp(-m t) + exp(-m (T - t))]       (a meson, periodic in time)
//   sinh:  C(t) = A [exp(-m t) - exp(-m (T - t))]       (a time-odd meson correlator)
//
// by least squares, chi^2 = (C - f)^T W (C - f), with W the inverse of the
// covariance of the means (a correlated fit) or of its diagonal (an
// uncorrelated one), both from the jackknife (solvers/statistics/jackknife.hpp).
// The amplitude enters linearly, so for each m it is solved exactly,
//   A(m) = b^T W C / b^T W b,  chi^2(m) = (C - A b)^T W (C - A b),
// with b(t) the model at A = 1 (variable projection: the fit is a search in
// m alone, which has no starting value to guess and no second parameter to
// diverge). m is located on a grid of 400 values spaced evenly in log m
// between 1e-4 and 20, then refined between the grid neighbours of the
// best one to the last bits, as the zero of d chi^2 / dm.
//
// Errors: the same fit, with the same W, on every jackknife replica; the
// spread of the replicas' m and A is their jackknife error. chi^2 / dof
// (dof = points - 2) is that of the fit to the mean.
//
// A correlated fit needs a covariance matrix that can be inverted: more
// bins than points in the window, and no point without fluctuation; it is
// refused otherwise, naming the window and the bins (choose fewer points,
// more configurations, or an uncorrelated fit).

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/statistics/jackknife.hpp"

namespace latte::statistics {

enum class CorrelatorModel { exp, cosh, sinh };

inline const char* model_name(CorrelatorModel model) {
  switch (model) {
    case CorrelatorModel::exp: return "exp";
    case CorrelatorModel::cosh: return "cosh";
    case CorrelatorModel::sinh: return "sinh";
  }
  return "?";
}

inline CorrelatorModel parse_correlator_model(const std::string& name) {
  if (name == "exp") return CorrelatorModel::exp;
  if (name == "cosh") return CorrelatorModel::cosh;
  if (name == "sinh") return CorrelatorModel::sinh;
  throw std::invalid_argument("Latte: a correlator model is exp, cosh or sinh, not '" + name + "'");
}

struct FitWindow {
  int t_min = 0, t_max = 0;  // both included
};

struct CorrelatorFit {
  CorrelatorModel model = CorrelatorModel::cosh;
  FitWindow window;
  bool correlated = false;
  double mass = 0, amplitude = 0;
  double mass_error = 0, amplitude_error = 0;
  double chi2_per_dof = 0;
  int dof = 0;
  // The mass fitted on each jackknife replica: the error of anything
  // computed from masses of fits to the same bins (a difference, a ratio)
  // comes from these, correlations included.
  std::vector<double> replica_masses;
};

namespace detail {

// The model at A = 1.
inline double basis(CorrelatorModel model, double m, int t, int T) {
  const double forward = std::exp(-m * t);
  if (model == CorrelatorModel::exp) return forward;
  const double backward = std::exp(-m * (T - t));
  return model == CorrelatorModel::cosh ? forward + backward : forward - backward;
}

// A dense matrix of the window's points (tens at most).
using Matrix = std::vector<std::vector<double>>;

// The inverse of a symmetric positive-definite matrix by Cholesky; an
// empty result where it is not positive definite.
inline Matrix inverse_spd(const Matrix& a) {
  const std::size_t n = a.size();
  Matrix l(n, std::vector<double>(n, 0.0));
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j][j];
    for (std::size_t k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 1e-300 * std::max(1.0, std::abs(a[j][j])))) return {};
    l[j][j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = a[i][j];
      for (std::size_t k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
      l[i][j] = s / l[j][j];
    }
  }
  // L^-1 by forward substitution, then A^-1 = L^-T L^-1.
  Matrix li(n, std::vector<double>(n, 0.0));
  for (std::size_t c = 0; c < n; ++c) {
    li[c][c] = 1 / l[c][c];
    for (std::size_t i = c + 1; i < n; ++i) {
      double s = 0;
      for (std::size_t k = c; k < i; ++k) s -= l[i][k] * li[k][c];
      li[i][c] = s / l[i][i];
    }
  }
  Matrix inverse(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = std::max(i, j); k < n; ++k) inverse[i][j] += li[k][i] * li[k][j];
  return inverse;
}

struct Projection {
  double chi2, amplitude;
};

// chi^2 is summed from the residuals r = C - A b, not as C^T W C - A b^T W C,
// which loses its digits to cancellation where the model fits well.
inline Projection project(CorrelatorModel model, double m, const std::vector<double>& y, const Matrix& w,
                          const FitWindow& window, int T) {
  const std::size_t n = y.size();
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = basis(model, m, window.t_min + static_cast<int>(i), T);
  double bwb = 0, bwy = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      bwb += b[i] * w[i][j] * b[j];
      bwy += b[i] * w[i][j] * y[j];
    }
  const double amplitude = bwy / bwb;
  double chi2 = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) chi2 += (y[i] - amplitude * b[i]) * w[i][j] * (y[j] - amplitude * b[j]);
  return {chi2, amplitude};
}

// d chi^2 / dm: with b' = db/dm,
//   -2 (b^T W C)(b'^T W C) / b^T W b + 2 (b^T W C)^2 (b'^T W b) / (b^T W b)^2.
inline double slope(CorrelatorModel model, double m, const std::vector<double>& y, const Matrix& w,
                    const FitWindow& window, int T) {
  const std::size_t n = y.size();
  std::vector<double> b(n), db(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int t = window.t_min + static_cast<int>(i);
    const double forward = std::exp(-m * t), backward = model == CorrelatorModel::exp ? 0.0 : std::exp(-m * (T - t));
    const double sign = model == CorrelatorModel::sinh ? -1.0 : 1.0;
    b[i] = forward + sign * backward;
    db[i] = -t * forward - sign * (T - t) * backward;
  }
  double bwb = 0, bwy = 0, dwy = 0, dwb = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      bwb += b[i] * w[i][j] * b[j];
      bwy += b[i] * w[i][j] * y[j];
      dwy += db[i] * w[i][j] * y[j];
      dwb += db[i] * w[i][j] * b[j];
    }
  return -2 * bwy * dwy / bwb + 2 * bwy * bwy * dwb / (bwb * bwb);
}

// The m of least chi^2 for data y (the window's points) and weights w: the
// best point of the grid, then the zero of d chi^2 / dm between its
// neighbours by bisection, to the last bits (golden-section search on
// chi^2 itself would stop at a relative 1e-8: chi^2 is flat to rounding
// that near its minimum). Where the slope does not change sign between the
// neighbours (the least chi^2 at an end of the grid) the grid point stays.
inline double best_mass(CorrelatorModel model, const std::vector<double>& y, const Matrix& w, const FitWindow& window,
                        int T) {
  constexpr int grid = 400;
  const double low = std::log(1e-4), high = std::log(20.0);
  const auto mass_at = [&](int k) { return std::exp(low + (high - low) * k / (grid - 1)); };
  int best = 0;
  double best_chi2 = std::numeric_limits<double>::infinity();
  for (int k = 0; k < grid; ++k) {
    const double chi2 = project(model, mass_at(k), y, w, window, T).chi2;
    if (chi2 < best_chi2) best_chi2 = chi2, best = k;
  }
  double a = mass_at(std::max(best - 1, 0)), b = mass_at(std::min(best + 1, grid - 1));
  if (!(slope(model, a, y, w, window, T) <= 0 && slope(model, b, y, w, window, T) >= 0)) return mass_at(best);
  for (int step = 0; step < 200; ++step) {
    const double middle = 0.5 * (a + b);
    if (middle <= a || middle >= b) break;  // adjacent doubles
    (slope(model, middle, y, w, window, T) < 0 ? a : b) = middle;
  }
  return 0.5 * (a + b);
}

}  // namespace detail

// The fit of the correlator whose per-configuration samples the jackknife
// holds (observable t = C(t), t = 0 .. T - 1).
inline CorrelatorFit fit_correlator(const Jackknife& jk, CorrelatorModel model, FitWindow window, bool correlated) {
  const int T = static_cast<int>(jk.mean().size());
  if (window.t_min < 0 || window.t_max >= T || window.t_max - window.t_min < 2)
    throw std::invalid_argument("Latte: a fit window [" + std::to_string(window.t_min) + ", " +
                                std::to_string(window.t_max) + "] of a correlator of " + std::to_string(T) +
                                " timeslices: it must lie in [0, " + std::to_string(T - 1) +
                                "] and hold at least three points for one state of two parameters");
  const std::size_t n = static_cast<std::size_t>(window.t_max - window.t_min + 1);
  const auto window_of = [&](const std::vector<double>& c) {
    return std::vector<double>(c.begin() + window.t_min, c.begin() + window.t_max + 1);
  };

  const std::vector<std::vector<double>> full = jk.covariance();
  detail::Matrix cov(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (correlated || i == j) cov[i][j] = full[window.t_min + i][window.t_min + j];
  if (correlated && jk.bins() <= n)
    throw std::invalid_argument("Latte: a correlated fit of " + std::to_string(n) + " points in [" +
                                std::to_string(window.t_min) + ", " + std::to_string(window.t_max) + "] needs more than " +
                                std::to_string(n) + " jackknife bins, and there are " + std::to_string(jk.bins()) +
                                ": fit fewer points, add configurations or fit uncorrelated");
  const detail::Matrix w = detail::inverse_spd(cov);
  if (w.empty())
    throw std::invalid_argument(std::string("Latte: the ") + (correlated ? "covariance" : "variance") + " of C(t) in [" +
                                std::to_string(window.t_min) + ", " + std::to_string(window.t_max) +
                                "] over " + std::to_string(jk.bins()) +
                                " jackknife bins cannot be inverted (a point without fluctuation, or too few bins)");

  CorrelatorFit fit;
  fit.model = model;
  fit.window = window;
  fit.correlated = correlated;
  fit.dof = static_cast<int>(n) - 2;
  const std::vector<double> y = window_of(jk.mean());
  fit.mass = detail::best_mass(model, y, w, window, T);
  const detail::Projection at_mean = detail::project(model, fit.mass, y, w, window, T);
  fit.amplitude = at_mean.amplitude;
  fit.chi2_per_dof = at_mean.chi2 / fit.dof;

  std::vector<std::vector<double>> replica_parameters;
  for (const auto& replica : jk.replicas()) {
    const std::vector<double> yk = window_of(replica);
    const double mk = detail::best_mass(model, yk, w, window, T);
    replica_parameters.push_back({mk, detail::project(model, mk, yk, w, window, T).amplitude});
    fit.replica_masses.push_back(mk);
  }
  const std::vector<double> errors = Jackknife::spread(replica_parameters);
  fit.mass_error = errors[0];
  fit.amplitude_error = errors[1];
  return fit;
}

}  // namespace latte::statistics
