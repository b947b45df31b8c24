#pragma once
// Helpers shared by the hybrid Monte Carlo tests (quenched and dynamical):
// a rough gauge field, the largest difference of two link fields, and the
// slope of a log-log fit (the integrators' dH ~ h^2).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "solvers/qcd/update/molecular_dynamics.hpp"

namespace latte::testing {

// U_mu = exp(scale X_mu), X gaussian in su(3) (the momenta of `seed`): the
// same bits on every rank count.
inline void rough_gauge_field(GaugeField<double>& U, std::uint64_t seed, double scale) {
  AlgebraField<double> x(U.geometry());
  refresh_momenta(x, seed);
  for (int mu = 0; mu < 4; ++mu) U[mu] = su3_exp(scale * x[mu]);
}

inline double largest_link_difference(const GaugeField<double>& a, const GaugeField<double>& b) {
  double worst = 0;
  for (int mu = 0; mu < 4; ++mu) worst = std::max(worst, maxval(sqrt(localNorm2(a[mu] - b[mu]))));
  return worst;
}

// The slope of log|dH| against log h by least squares.
inline double log_log_slope(const std::vector<double>& h, const std::vector<double>& dh) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(std::abs(dh[i]));
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace latte::testing
