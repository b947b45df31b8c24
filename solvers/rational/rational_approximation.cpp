// What every rational approximation offers: its description and its error
// curve; see rational_approximation.hpp.
#include "solvers/rational/rational_approximation.hpp"

#include <cmath>
#include <sstream>

namespace latte {

std::string RationalApproximation::description() const {
  std::ostringstream text;
  text << "x^(" << numerator << "/" << denominator << ") on [" << lower << ", " << upper << "], degree " << degree;
  return text.str();
}

namespace {
double log_spaced(const RationalApproximation& r, long double fraction) {
  return static_cast<double>(std::exp(std::log(static_cast<long double>(r.lower)) +
                                      fraction * (std::log(static_cast<long double>(r.upper)) -
                                                  std::log(static_cast<long double>(r.lower)))));
}
}  // namespace

std::vector<std::pair<double, double>> relative_error_curve(const RationalApproximation& r, int points) {
  std::vector<std::pair<double, double>> curve;
  for (int i = 0; i < points; ++i) {
    const double x = (i == 0) ? r.lower : (i == points - 1) ? r.upper : log_spaced(r, static_cast<long double>(i) / (points - 1));
    curve.emplace_back(x, r.relative_error(x));
  }
  return curve;
}

std::vector<std::pair<double, double>> error_extrema(const RationalApproximation& r) {
  // Runs of one sign on a grid fine enough for 64 poles (the extrema of a
  // minimax error are about evenly spaced in log x), the largest |error| of
  // each run refined by golden-section search between its grid neighbours.
  const int points = 200 * (r.degree + 1) + 1;
  std::vector<std::pair<double, double>> curve = relative_error_curve(r, points);
  std::vector<std::pair<double, double>> extrema;
  std::size_t i = 0;
  while (i < curve.size()) {
    const bool negative = curve[i].second < 0;
    std::size_t best = i, j = i;
    for (; j < curve.size() && (curve[j].second < 0) == negative; ++j)
      if (std::abs(curve[j].second) > std::abs(curve[best].second)) best = j;
    // Refine in log x between the neighbours of the best grid point.
    long double lo = std::log(static_cast<long double>(curve[best > 0 ? best - 1 : 0].first));
    long double hi = std::log(static_cast<long double>(curve[best + 1 < curve.size() ? best + 1 : best].first));
    auto size = [&](long double t) { return std::abs(r.relative_error(static_cast<double>(std::exp(t)))); };
    const long double ratio = (std::sqrt(5.0L) - 1) / 2;
    for (int k = 0; k < 80 && hi - lo > 1e-15L; ++k) {
      const long double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
      if (size(a) < size(b)) lo = a;
      else hi = b;
    }
    std::pair<double, double> extremum = curve[best];
    const double refined = static_cast<double>(std::exp((lo + hi) / 2));
    if (refined >= r.lower && refined <= r.upper && std::abs(r.relative_error(refined)) > std::abs(extremum.second))
      extremum = {refined, r.relative_error(refined)};
    extrema.push_back(extremum);
    i = j;
  }
  return extrema;
}

}  // namespace latte
