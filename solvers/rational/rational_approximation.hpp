#pragma once
// Rational approximations r(x) ~ x^(p/q) on an interval [lower, upper] of the
// positive axis, in the partial-fraction form the rational hybrid Monte
// Carlo applies to an operator:
//
//   r(x) = constant + sum_k residues[k] / (x + poles[k]),
//
// so that r(A) b = constant b + sum_k residues[k] (A + poles[k])^-1 b is one
// multi-shift solve with shifts poles[k] (solvers/krylov/multi_shift_conjugate_gradient.hpp).
// The approximation minimises the largest relative error
//   error = max over [lower, upper] of |r(x) / x^(p/q) - 1|
// over the rational functions of degree (degree, degree): the minimax
// approximation, whose relative error equioscillates at 2 degree + 2 points.
// For 0 < |p/q| < 1 (the powers RHMC uses: -1/2, -1/4, 1/4, 1/2 ...) every
// pole is real and positive (x + pole vanishes on the negative axis only),
// which is what a shifted solve of a positive operator needs; the
// constructors refuse anything else.
//
// Made by the Remez exchange algorithm in extended precision
// (solvers/rational/remez.hpp), or for x^-1/2 by Zolotarev's closed form
// (solvers/rational/zolotarev.hpp), and kept in a small file keyed by its
// parameters (solvers/rational/rational_cache.hpp). Plain C++, compiled once
// into latte::rational on every backend.

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace latte {

struct RationalApproximation {
  int numerator = 1;         // approximates x^(numerator / denominator)
  int denominator = 1;
  double lower = 0;          // on [lower, upper], 0 < lower < upper
  double upper = 0;
  int degree = 0;            // of the numerator and of the denominator: the number of poles
  double error = 0;          // the largest relative error over the interval, as measured by its maker
  double constant = 0;
  std::vector<double> residues;
  std::vector<double> poles;  // the shifts: r(x) has a pole at x = -poles[k]

  double power() const { return static_cast<double>(numerator) / denominator; }
  double operator()(double x) const {
    long double sum = constant;
    for (std::size_t k = 0; k < poles.size(); ++k) sum += static_cast<long double>(residues[k]) / (x + poles[k]);
    return static_cast<double>(sum);
  }
  // r(x) / x^(p/q) - 1, in long double: the relative error at x.
  double relative_error(double x) const {
    const long double exact = std::pow(static_cast<long double>(x), static_cast<long double>(numerator) / denominator);
    long double sum = constant;
    for (std::size_t k = 0; k < poles.size(); ++k)
      sum += static_cast<long double>(residues[k]) / (static_cast<long double>(x) + poles[k]);
    return static_cast<double>(sum / exact - 1);
  }
  // What it approximates, for messages and file names: "x^(-1/2) on [1e-05, 10], degree 12".
  std::string description() const;
};

// The relative error at `points` abscissae spaced evenly in log x over the
// interval, ends included: (x, r(x) / x^(p/q) - 1). What examples print and
// tests check for equioscillation.
std::vector<std::pair<double, double>> relative_error_curve(const RationalApproximation& r, int points);

// The alternating extrema of the relative error (found on a dense
// logarithmic grid and refined): a minimax approximation of degree n has
// 2n + 2 of them, of equal size and alternating sign.
std::vector<std::pair<double, double>> error_extrema(const RationalApproximation& r);

}  // namespace latte
