#pragma once
// Helpers shared by the hybrid Monte Carlo tests (quenched and dynamical):
// a rough gauge field, the largest difference of two link fields, the
// slope of a log-log fit (the integrators' dH ~ h^2), a chain's averages of
// exp(-dH), and the check of a monomial's force against the numerical
// derivative of its action.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/hmc_monomial.hpp"
#include "solvers/qcd/update/molecular_dynamics.hpp"

namespace latte::testing {

// U_mu = exp(scale X_mu), X gaussian in su(3) (the momenta of `seed`): the
// same bits on every rank count.
inline void rough_gauge_field(GaugeField<double>& U, std::uint64_t seed, double scale) {
  AlgebraField<double> x(U.geometry());
  refresh_momenta(x, seed);
  for (int mu = 0; mu < 4; ++mu) U[mu] = su3_exp(scale * x[mu]);
}

// A configuration near equilibrium of the quenched action: 8 trajectories
// of `gauge` from the unit field (the first 3 without the Metropolis test).
inline void thermalise_quenched(GaugeField<double>& U, GaugeMonomial<double>& gauge) {
  U.set_unit();
  MolecularDynamics<double> md({{IntegratorScheme::omelyan, 4, {&gauge}}});
  HybridMonteCarlo<double> hmc(U, md, {&gauge}, {1.0, 7, true, 3});
  for (int i = 0; i < 8; ++i) hmc.trajectory();
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

// n trajectories of a chain (a HybridMonteCarlo): <exp(-dH)> with its
// standard error, <dH> and the number accepted. In equilibrium
// <exp(-dH)> = 1 (Creutz) and <dH> >= 0 (Jensen).
struct ChainAverages {
  double exp_minus_delta_h = 0, error = 0, delta_h = 0;
  int accepted = 0;
};
template <class Chain> ChainAverages run_and_average(Chain& hmc, int n) {
  double mean = 0, square = 0, delta_h = 0;
  ChainAverages a;
  for (int i = 0; i < n; ++i) {
    const auto r = hmc.trajectory();
    mean += r.exp_minus_delta_h;
    square += r.exp_minus_delta_h * r.exp_minus_delta_h;
    delta_h += r.delta_h;
    a.accepted += r.accepted;
  }
  mean /= n;
  a.exp_minus_delta_h = mean;
  a.error = std::sqrt((square / n - mean * mean) / (n - 1));
  a.delta_h = delta_h / n;
  return a;
}

// The derivative of S along a random su(3) direction x that the monomial's
// force predicts, <x, F> = -2 sum tr(x F), against central differences at
// two steps: their remainder must fall as eps^2 and their extrapolation to
// eps = 0 meet the prediction. The monomial is refreshed first (key 1234),
// and every S compared comes from its action (a solve for a pseudofermion).
// smallest_derivative: the predicted derivative must exceed it (a force that
// vanished would pass the comparison trivially).
inline void expect_force_is_derivative_of_action(Monomial<double>& monomial, const GaugeField<double>& U,
                                                 const char* name, double smallest_derivative = 1.0) {
  const Geometry& geometry = U.geometry();
  ParallelRng rng(91);
  AlgebraField<double> x(geometry), P(geometry);
  for (int mu = 0; mu < 4; ++mu)
    rng.fill(x[mu], [](SiteRandomStream& random) { return su3::gaussian_algebra_element(random); });
  monomial.refresh(U, 1234);
  monomial.action(U);  // the heatbath's eta^+ eta: every S below comes from a solve
  // kick with eps = 1 from P = 0 leaves P = -F.
  monomial.kick(U, P, 1.0);
  double predicted = 0;
  for (int mu = 0; mu < 4; ++mu) predicted += 2.0 * sum(real(trace(x[mu] * P[mu])));
  auto along = [&](double eps) {
    GaugeField<double> moved(geometry);
    for (int mu = 0; mu < 4; ++mu) moved[mu] = su3_exp(eps * x[mu]) * U[mu];
    return monomial.action(moved);
  };
  const double steps[2] = {4e-3, 2e-3};
  double central[2];
  for (int k = 0; k < 2; ++k) central[k] = (along(steps[k]) - along(-steps[k])) / (2 * steps[k]);
  // The central difference's remainder is of order eps^2: halving eps
  // quarters it, and Richardson's (4 c(eps/2) - c(eps)) / 3 removes it.
  const double ratio = (central[0] - predicted) / (central[1] - predicted);
  EXPECT_NEAR(ratio, 4.0, 0.4) << name << ": central differences " << central[0] << ", " << central[1]
                               << " against " << predicted;
  const double extrapolated = (4 * central[1] - central[0]) / 3;
  EXPECT_NEAR(extrapolated, predicted, 1e-6 * std::abs(predicted)) << name << ": S = " << monomial.action(U);
  EXPECT_GT(std::abs(predicted), smallest_derivative) << name << ": the force should not vanish";
}

}  // namespace latte::testing
