#pragma once
// The scales of the gradient flow from a measured series E(t_i): t^2 E(t),
// W(t) = t d/dt (t^2 E(t)), and the times where they reach a reference
// value, t0 (t^2 E(t0) = 0.3, Luescher JHEP 08 (2010) 071) and w0 (W(w0^2) =
// 0.3, BMW, JHEP 09 (2012) 010). Host code on the numbers of a few hundred
// measurements.
//
// Derivatives are finite differences of second order on the (possibly
// uneven) grid of measured times; the crossings are those of the cubic
// through the four measurements around the first sign change (of the
// straight line where fewer points exist), solved by bisection. Both
// errors fall as the square (fourth power) of the spacing.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <vector>

namespace latte {

inline constexpr double flow_reference_value = 0.3;

// t_i^2 y_i.
inline std::vector<double> times_t_squared(const std::vector<double>& t, const std::vector<double>& y) {
  if (t.size() != y.size()) throw std::invalid_argument("Latte: a flow series needs one value per time");
  std::vector<double> result(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) result[i] = t[i] * t[i] * y[i];
  return result;
}

// dy/dt at every t_i: the derivative of the parabola through three
// neighbouring points (centred inside, one-sided at the ends); NaN where
// there are fewer than three points.
inline std::vector<double> flow_derivative(const std::vector<double>& t, const std::vector<double>& y) {
  if (t.size() != y.size()) throw std::invalid_argument("Latte: a flow series needs one value per time");
  const std::size_t n = t.size();
  std::vector<double> d(n, std::nan(""));
  if (n < 3) return d;
  // The derivative at x of the parabola through (t[a], y[a]), (t[b], y[b]), (t[c], y[c]).
  const auto parabola_slope = [&](std::size_t a, std::size_t b, std::size_t c, double x) {
    const double la = ((x - t[b]) + (x - t[c])) / ((t[a] - t[b]) * (t[a] - t[c]));
    const double lb = ((x - t[a]) + (x - t[c])) / ((t[b] - t[a]) * (t[b] - t[c]));
    const double lc = ((x - t[a]) + (x - t[b])) / ((t[c] - t[a]) * (t[c] - t[b]));
    return la * y[a] + lb * y[b] + lc * y[c];
  };
  d[0] = parabola_slope(0, 1, 2, t[0]);
  for (std::size_t i = 1; i + 1 < n; ++i) d[i] = parabola_slope(i - 1, i, i + 1, t[i]);
  d[n - 1] = parabola_slope(n - 3, n - 2, n - 1, t[n - 1]);
  return d;
}

// W(t_i) = t_i d/dt (t^2 E) from the series of t^2 E.
inline std::vector<double> flow_w(const std::vector<double>& t, const std::vector<double>& t2e) {
  std::vector<double> w = flow_derivative(t, t2e);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] *= t[i];
  return w;
}

// The first t where y reaches `target` from below, by the cubic through the
// four points around the crossing; empty if y never gets there.
inline std::optional<double> flow_crossing(const std::vector<double>& t, const std::vector<double>& y, double target) {
  if (t.size() != y.size()) throw std::invalid_argument("Latte: a flow series needs one value per time");
  const std::size_t n = t.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (!(y[i] < target && y[i + 1] >= target)) continue;
    // Points i-1 .. i+2, clipped to the series.
    const std::size_t first = i > 0 ? i - 1 : 0;
    const std::size_t last = std::min(n - 1, i + 2);
    const auto interpolant = [&](double x) {
      double value = 0;
      for (std::size_t j = first; j <= last; ++j) {
        double basis = 1;
        for (std::size_t k = first; k <= last; ++k)
          if (k != j) basis *= (x - t[k]) / (t[j] - t[k]);
        value += basis * y[j];
      }
      return value - target;
    };
    double low = t[i], high = t[i + 1];  // the interpolant is < 0 at low, >= 0 at high
    for (int iteration = 0; iteration < 100 && high - low > 1e-15 * high; ++iteration) {
      const double middle = 0.5 * (low + high);
      (interpolant(middle) < 0 ? low : high) = middle;
    }
    return 0.5 * (low + high);
  }
  return std::nullopt;
}

// The flow scales of a series of E(t): t0 / a^2 and w0 / a, empty where
// the series does not reach 0.3.
struct FlowScales {
  std::optional<double> t0;
  std::optional<double> w0;
};
inline FlowScales flow_scales(const std::vector<double>& t, const std::vector<double>& e) {
  const std::vector<double> t2e = times_t_squared(t, e);
  FlowScales scales;
  scales.t0 = flow_crossing(t, t2e, flow_reference_value);
  if (const auto w0_squared = flow_crossing(t, flow_w(t, t2e), flow_reference_value)) scales.w0 = std::sqrt(*w0_squared);
  return scales;
}

}  // namespace latte
