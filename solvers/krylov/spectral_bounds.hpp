#pragma once
// The smallest and largest eigenvalue of a hermitian positive operator A, by
// the Lanczos iteration: what the rational HMC checks its approximation's
// interval against (solvers/rational/README.md, "Choosing the interval"), and
// what any solver's setup may report.
//
// k Lanczos steps from a gaussian random start (the same on every rank:
// ParallelRng) build the tridiagonal T_k = V^+ A V. Its extreme eigenvalues
// (the Ritz values, found by bisection with Sturm counts) approach A's from
// inside: smallest >= lambda_min(A), largest <= lambda_max(A). For a Ritz
// value theta with unit eigenvector y of T_k, the residual of its Ritz
// vector is |beta_k y_k|, and A has an eigenvalue within that distance of
// theta; the iteration stops when both distances are below
// control.relative_accuracy times the value. So
//   [smallest - smallest_error, largest + largest_error]
// holds an eigenvalue at each end, and for the extreme eigenvalues a cover of
// the spectrum once the distances are small (a rational approximation's
// interval should then add a margin below: the smallest eigenvalue moves
// from configuration to configuration).
//
// No reorthogonalisation: lost orthogonality makes copies of converged Ritz
// values, which do not move the extreme ones. One application of A and
// three reductions per step; the same bits on any rank count and width.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/latte.hpp"

namespace latte {

struct SpectralBoundsControl {
  int max_steps = 200;
  double relative_accuracy = 1e-3;  // on the distance of each extreme Ritz value to an eigenvalue
  std::uint64_t seed = 1;           // of the random start
};

struct SpectralBounds {
  double smallest = 0, largest = 0;              // the extreme Ritz values
  double smallest_error = 0, largest_error = 0;  // each within this distance of an eigenvalue of A
  int steps = 0;
  bool converged = false;
};

namespace lanczos_detail {

// The number of eigenvalues of the symmetric tridiagonal (diagonal a,
// off-diagonal b) below x: Sturm sequence by the signs of the LDL^T pivots.
inline int count_below(const std::vector<double>& a, const std::vector<double>& b, double x) {
  int count = 0;
  double d = 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / d : 0.0);
    if (d == 0) d = -std::numeric_limits<double>::min();
    if (d < 0) ++count;
  }
  return count;
}

// The j-th smallest eigenvalue (j from 0) by bisection in the Gershgorin interval.
inline double eigenvalue(const std::vector<double>& a, const std::vector<double>& b, int j) {
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double radius = (i > 0 ? std::abs(b[i - 1]) : 0.0) + (i + 1 < a.size() ? std::abs(b[i]) : 0.0);
    lo = std::min(lo, a[i] - radius);
    hi = std::max(hi, a[i] + radius);
  }
  for (int iteration = 0; iteration < 200 && hi - lo > 1e-15 * std::max(std::abs(lo), std::abs(hi)); ++iteration) {
    const double middle = (lo + hi) / 2;
    if (count_below(a, b, middle) > j) hi = middle;
    else lo = middle;
  }
  return (lo + hi) / 2;
}

// |last component| of the unit eigenvector of the tridiagonal for its
// extreme eigenvalue theta (the smallest for side = -1, the largest for +1):
// inverse iteration with the shift just outside the spectrum, where
// T - shift is definite and the elimination without pivoting is stable.
inline double last_component(const std::vector<double>& a, const std::vector<double>& b, double theta, int side) {
  const std::size_t k = a.size();
  if (k == 1) return 1;
  const double shift = theta + side * 1e-10 * std::max(std::abs(theta), 1e-300);
  std::vector<double> y(k, 1.0), diagonal(k), rhs(k);
  for (int iteration = 0; iteration < 3; ++iteration) {
    // Solve (T - shift) z = y (Thomas algorithm), then y = z / |z|.
    diagonal[0] = a[0] - shift;
    rhs[0] = y[0];
    for (std::size_t i = 1; i < k; ++i) {
      const double factor = b[i - 1] / diagonal[i - 1];
      diagonal[i] = a[i] - shift - factor * b[i - 1];
      rhs[i] = y[i] - factor * rhs[i - 1];
    }
    y[k - 1] = rhs[k - 1] / diagonal[k - 1];
    for (std::size_t i = k - 1; i-- > 0;) y[i] = (rhs[i] - b[i] * y[i + 1]) / diagonal[i];
    double norm = 0;
    for (double v : y) norm += v * v;
    norm = std::sqrt(norm);
    for (double& v : y) v /= norm;
  }
  return std::abs(y[k - 1]);
}

}  // namespace lanczos_detail

template <class Field, class Operator>
SpectralBounds spectral_bounds(const Operator& A, const Geometry& geometry, const SpectralBoundsControl& control = {}) {
  const profile::Region region("Lanczos");
  Field v(geometry), w(geometry), previous(geometry);
  ParallelRng rng(control.seed);
  rng.gaussian(v);
  v = (1 / std::sqrt(norm2(v))) * v;
  previous = zero;
  std::vector<double> alpha, beta;
  SpectralBounds bounds;
  double beta_previous = 0;
  for (int step = 1; step <= control.max_steps; ++step) {
    A.apply(w, v);
    const double a = real(innerProduct(v, w));
    if (!std::isfinite(a)) throw std::runtime_error("Latte Lanczos: NaN or infinity in <v, A v> at step " + std::to_string(step));
    const double b2 = assign_and_sum(w, w - a * v - beta_previous * previous, localNorm2(w));
    const double b = std::sqrt(b2);
    alpha.push_back(a);
    bounds.steps = step;
    const std::vector<double> off(beta.begin(), beta.end());
    bounds.smallest = lanczos_detail::eigenvalue(alpha, off, 0);
    bounds.largest = lanczos_detail::eigenvalue(alpha, off, step - 1);
    bounds.smallest_error = b * lanczos_detail::last_component(alpha, off, bounds.smallest, -1);
    bounds.largest_error = b * lanczos_detail::last_component(alpha, off, bounds.largest, +1);
    if (bounds.smallest_error <= control.relative_accuracy * std::abs(bounds.smallest) &&
        bounds.largest_error <= control.relative_accuracy * std::abs(bounds.largest)) {
      bounds.converged = true;
      break;
    }
    if (b == 0) break;  // an invariant subspace: the Ritz values are eigenvalues
    beta.push_back(b);
    previous = v;
    v = (1 / b) * w;
    beta_previous = b;
  }
  return bounds;
}

}  // namespace latte
