#pragma once
// Effective masses of a two-point function C(t), t = 0 .. T - 1, on a
// lattice periodic in time with the source at t = 0 (rotate a correlator
// from another source timeslice first). Entry t of each result comes from
// C(t) and C(t + 1), t = 0 .. T - 2; where the equation has no solution
// (C not positive, a ratio on the wrong side of 1, the middle of an odd T)
// it is NaN.
//
// effective_mass returns the cosh mass: a single state propagating both
// ways round the periodic time direction gives
//   C(t) = A cosh(m (T/2 - t)),
// so m solves  C(t) / C(t + 1) = cosh(m (T/2 - t)) / cosh(m (T/2 - t - 1)),
// which gives m exactly for such a C at every t, plateau and backward half
// included. log_effective_mass is the simple m = log(C(t) / C(t + 1)), exact
// for C = A exp(-m t) only: near T/2 it falls to 0 and beyond it turns
// negative. The cosh mass is never below the log mass (t < T/2), and the two
// agree where the backward-moving state is negligible, exp(-m (T - 2t)) << 1.

#include <cmath>
#include <limits>
#include <vector>

namespace latte {

namespace detail {

inline double log_cosh(double x) {
  x = std::abs(x);
  return x + std::log1p(std::exp(-2 * x)) - std::log(2.0);
}

// m > 0 with cosh(m a) / cosh(m (a - 1)) = ratio, a = T/2 - t (by bisection:
// the left side grows with m for a >= 1).
inline double cosh_mass(double ratio, double a) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(ratio > 0) || !std::isfinite(ratio) || a == 0.5) return nan;
  if (a < 0.5) {  // the backward half, t >= T/2, is the mirror image of the forward one
    a = 1 - a;
    ratio = 1 / ratio;
  }
  if (!(ratio > 1)) return nan;
  const double target = std::log(ratio);
  const auto excess = [&](double m) { return log_cosh(m * a) - log_cosh(m * (a - 1)) - target; };
  // cosh(m a) <= e^m cosh(m (a - 1)), so m = log(ratio) is not yet enough.
  double low = target, high = 2 * target + 1;
  while (excess(high) < 0) high *= 2;
  for (int step = 0; step < 200 && high - low > 4 * std::numeric_limits<double>::epsilon() * high; ++step) {
    const double middle = 0.5 * (low + high);
    (excess(middle) < 0 ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

}  // namespace detail

// The cosh effective mass (above), T - 1 entries.
inline std::vector<double> effective_mass(const std::vector<double>& C) {
  const double half_period = 0.5 * static_cast<double>(C.size());
  std::vector<double> mass(C.size() > 1 ? C.size() - 1 : 0);
  for (std::size_t t = 0; t < mass.size(); ++t)
    mass[t] = detail::cosh_mass(C[t] / C[t + 1], half_period - static_cast<double>(t));
  return mass;
}

// log(C(t) / C(t + 1)), T - 1 entries.
inline std::vector<double> log_effective_mass(const std::vector<double>& C) {
  std::vector<double> mass(C.size() > 1 ? C.size() - 1 : 0);
  for (std::size_t t = 0; t < mass.size(); ++t)
    mass[t] = C[t] > 0 && C[t + 1] > 0 ? std::log(C[t] / C[t + 1]) : std::numeric_limits<double>::quiet_NaN();
  return mass;
}

}  // namespace latte
