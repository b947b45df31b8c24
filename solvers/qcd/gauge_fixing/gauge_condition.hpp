#pragma once
// The gauge conditions and how close a field is to them, written once:
//
//   Landau    sum_{mu = 0..3} d_mu A_mu = 0   (all four directions)
//   Coulomb   sum_{i = 0..2}  d_i A_i  = 0    (the spatial directions; each
//                                             timeslice x_3 = t on its own,
//                                             time links transformed but not
//                                             in the condition)
//
// A field satisfies its condition where it maximises the functional
//   F = 1 / (N_c N_dirs V) sum_x sum_mu Re tr U_mu(x)
// (N_c = 3, N_dirs = 4 or 3, V the sites: F = 1 on the unit field) over
// its gauge orbit; its gradient at x is Delta(x), and
//   theta = 1 / (N_c V) sum_x tr[Delta(x) Delta(x)^+],
//   Delta(x) = sum_mu [A_mu(x) - A_mu(x - mu)],
//   A_mu = Ta(U_mu) = (U_mu - U_mu^+)/2 - tr(U_mu - U_mu^+)/6,
// the traceless anti-hermitian part (su3::traceless_antihermitian). Since
// Ta(U^+) = -Ta(U), Delta(x) = Ta(K(x)) with K(x) = sum_mu [U_mu(x) +
// U_mu(x - mu)^+], the matrix the overrelaxation step maximises against
// (overrelaxation_step.hpp). For Coulomb, V is the sites of one timeslice
// and each timeslice t has its own theta_t and F_t.
//
// theta is Cucchieri and Mendes' (and cuLGT's, and GLU's) e_2 =
// 1/(N_c V) sum_x tr[(div A)(div A)^+] with their hermitian
// A = (U - U^+)/(2i) - trace: i A is ours, so the products are equal. It is
// the squared norm of the gradient of F per site (up to the constant
// 1/(N_c V)), so it vanishes at a maximum and falls to rounding there.
// Chroma's coulGauge and MILC's gaugefix normalise their functional as F
// is normalised (1 on unit links) but stop on its change between sweeps
// (Chroma relative, MILC absolute); a small change of F does not bound the
// gradient where the iteration is slow (long wavelengths), which is why
// this folder stops on theta.

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dsl/latte.hpp"
#include "lattice/fields/slice_sum.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge_fixing/pinned_su3.hpp"

namespace latte {

enum class GaugeCondition { landau, coulomb };

inline std::string to_string(GaugeCondition condition) {
  return condition == GaugeCondition::landau ? "Landau" : "Coulomb";
}

namespace functors {
// tr[Delta Delta^+], Delta = Ta(K): theta's density (pinned_su3.hpp).
struct GaugeFixingGradientDensity {
  static constexpr const char* name = "gauge_fixing_gradient_density";
  template <class R> LATTE_INLINE R operator()(const su3::Matrix<R>& k) const { return gauge_fixing::gradient_density(k); }
};
}  // namespace functors

namespace gauge_fixing {

// The direction of the timeslices of the Coulomb condition (x, y, z, t).
inline constexpr int time_direction = 3;

inline int condition_directions(GaugeCondition condition) {
  return condition == GaugeCondition::landau ? spacetime_dimensions : spacetime_dimensions - 1;
}

// K(x) = sum_{mu < D} [U_mu(x) + U_mu(x - mu)^+] as one expression.
template <int D, class R, class W, std::size_t... Mu>
auto neighbour_sum(const GaugeField<R, W>& U, std::index_sequence<Mu...>) {
  return (... + (U[Mu] + adj(shift(U[Mu], static_cast<int>(Mu), -1))));
}
template <int D, class R, class W> auto neighbour_sum(const GaugeField<R, W>& U) {
  return neighbour_sum<D>(U, std::make_index_sequence<D>{});
}
// sum_{mu < D} U_mu(x).
template <int D, class R, class W, std::size_t... Mu>
auto link_sum(const GaugeField<R, W>& U, std::index_sequence<Mu...>) {
  return (... + U[Mu]);
}

// body(std::integral_constant<int, D>{}) with D the condition's number of directions.
template <class Body> decltype(auto) with_directions(GaugeCondition condition, Body&& body) {
  if (condition == GaugeCondition::landau) return body(std::integral_constant<int, spacetime_dimensions>{});
  return body(std::integral_constant<int, spacetime_dimensions - 1>{});
}

}  // namespace gauge_fixing

// F and theta of a field (above). For Coulomb, F is that of the whole
// lattice (the mean of the F_t) and theta the largest theta_t, so no
// timeslice is hidden in a sum; the slices' values are in the vectors
// (empty for Landau).
struct GaugeFixingQuality {
  double functional = 0;
  double theta = 0;
  std::vector<double> slice_functional, slice_theta;
};

namespace gauge_fixing {

// With a real scratch field for the Coulomb timeslice sums.
template <class Backend = backend::Default, class R, class W>
GaugeFixingQuality measure(const GaugeField<R, W>& U, GaugeCondition condition, Lattice<R, W>& density) {
  GaugeFixingQuality q;
  const double volume = static_cast<double>(U.geometry().volume());
  with_directions(condition, [&](auto directions) {
    constexpr int D = decltype(directions)::value;
    const auto traces = real(trace(link_sum<D>(U, std::make_index_sequence<D>{})));
    const auto gradient = map(functors::GaugeFixingGradientDensity{}, neighbour_sum<D>(U));
    if (condition == GaugeCondition::landau) {
      q.functional = sum<Backend>(traces) / (colours * D * volume);
      q.theta = sum<Backend>(gradient) / (colours * volume);
      return;
    }
    const int extent = U.geometry().dims()[time_direction];
    const double slice_volume = volume / extent;
    assign<Backend>(density, traces, AssignSet{});
    q.slice_functional = slice_sum(density, time_direction);
    assign<Backend>(density, gradient, AssignSet{});
    q.slice_theta = slice_sum(density, time_direction);
    for (int t = 0; t < extent; ++t) {
      q.slice_functional[t] /= colours * D * slice_volume;
      q.slice_theta[t] /= colours * slice_volume;
      q.functional += q.slice_functional[t] / extent;
      // NaN wins, so that a broken timeslice is never hidden
      if (!(q.slice_theta[t] <= q.theta) && !std::isnan(q.theta)) q.theta = q.slice_theta[t];
    }
  });
  return q;
}

}  // namespace gauge_fixing

template <class R, class W>
GaugeFixingQuality gauge_fixing_quality(const GaugeField<R, W>& U, GaugeCondition condition) {
  Lattice<R, W> density(U.geometry());
  return gauge_fixing::measure(U, condition, density);
}

}  // namespace latte
