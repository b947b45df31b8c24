#pragma once
// Momentum projection of correlator densities:
//
//   C(p, t) = sum_{x, x_t = t} exp(-i p.(x - y)) c(x),   p_i = 2 pi n_i / L_i,
//
// over the three spatial directions (those other than the time direction,
// in increasing order: x, y, z for time 3), n integer, y the source site:
// the phase is relative to the source, so C(p, t) does not depend on where
// the source sits (a wall source: any y on its timeslice). With this sign a
// state of momentum +p created at the source propagates to the sink.
//
// c(x) is a field of K complex densities held as 2K reals (re, im), K
// channels at once; per momentum one statement multiplies them by the
// phase field and slice_sums (lattice/fields/slice_sum.hpp) adds up all 2K
// timeslice sums in one pass, reproducibly (the same bits on any rank
// count, thread count, and for the same stored values on any width and
// backend). p = 0 skips the multiplication: its sums are those of c itself.
//
// The phase field is made on the host from each site's global coordinate
// (fill): k = sum_i n_i (x_i - y_i) N / L_i mod N with N = lcm(L_i), phase
// exp(-2 pi i k / N), exact where 4k is a multiple of N (1, -i, -1, i), so
// it is the same bits on every rank, layout and backend.
//
// Equivalent momenta are those related by the lattice's cubic symmetry:
// sign changes of components and permutations among spatial directions of
// equal extent (same |n|^2 is not enough: (3,0,0) and (2,2,1) differ).

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/latte.hpp"
#include "lattice/fields/coordinate_field.hpp"
#include "lattice/fields/slice_sum.hpp"
#include "solvers/qcd/measure/correlators.hpp"

namespace latte {

// Integer momentum components along the spatial directions, in order.
using Momentum = std::array<int, 3>;

inline std::string to_string(const Momentum& n) {
  std::string text = "(";  // appended piece by piece: GCC 12 warns (-Wrestrict) on a chain of + here
  for (int i = 0; i < 3; ++i) {
    text += std::to_string(n[i]);
    text += i < 2 ? ", " : ")";
  }
  return text;
}

// The three directions other than time, in increasing order.
inline std::array<int, 3> spatial_directions(int time_direction) {
  if (time_direction < 0 || time_direction > 3)
    throw std::invalid_argument("Latte: time direction " + std::to_string(time_direction) +
                                " outside a 4-dimensional lattice");
  std::array<int, 3> spatial{};
  int i = 0;
  for (int mu = 0; mu < 4; ++mu)
    if (mu != time_direction) spatial[i++] = mu;
  return spatial;
}

// phase(x) = exp(-i p.(x - y)) at every site.
template <class R, class W>
void fill_momentum_phase(Lattice<Complex<R>, W>& phase, const Momentum& n, const Coordinate& source,
                         int time_direction = 3) {
  const Coordinate& dims = phase.geometry().dims();
  if (dims.size() != 4 || source.size() != 4)
    throw std::invalid_argument("Latte: momentum phases need a 4-dimensional lattice and source site");
  const std::array<int, 3> spatial = spatial_directions(time_direction);
  std::int64_t period = 1;  // N = lcm of the spatial extents
  for (int mu : spatial) period = std::lcm(period, static_cast<std::int64_t>(dims[mu]));
  std::int64_t step[3];
  for (int i = 0; i < 3; ++i) {
    const std::int64_t L = dims[spatial[i]];
    step[i] = ((n[i] % L + L) % L) * (period / L);
  }
  const double two_pi = 6.283185307179586476925286766559;
  fill(phase, [&](const Coordinate& x) {
    std::int64_t k = 0;
    for (int i = 0; i < 3; ++i) k += step[i] * (x[spatial[i]] - source[spatial[i]]);
    k = (k % period + period) % period;
    if ((4 * k) % period == 0) {
      const int quarter = static_cast<int>(4 * k / period);  // exp(-i pi quarter / 2)
      const R re[4] = {R(1), R(0), R(-1), R(0)}, im[4] = {R(0), R(-1), R(0), R(1)};
      return Complex<R>(re[quarter], im[quarter]);
    }
    const double angle = two_pi * static_cast<double>(k) / static_cast<double>(period);
    return Complex<R>(static_cast<R>(std::cos(angle)), static_cast<R>(-std::sin(angle)));
  });
}

namespace functors {

// K complex densities (2K reals) times one phase.
template <int Reals>
struct PhaseTimesDensities {
  static constexpr const char* name = "phase_times_densities";
  template <class V>
  LATTE_INLINE RealVector<V, Reals> operator()(const RealVector<V, Reals>& density, const Complex<V>& phase) const {
    RealVector<V, Reals> out;
    for (int k = 0; k < Reals / 2; ++k) {
      const Complex<V> c = Complex<V>(density.v[2 * k], density.v[2 * k + 1]) * phase;
      out.v[2 * k] = c.re;
      out.v[2 * k + 1] = c.im;
    }
    return out;
  }
};

}  // namespace functors

// C_k(p, t) for every momentum (outer index) and density k (inner index)
// of a field of 2K reals: K complex correlators per momentum.
template <class R, int Reals, class W>
std::vector<std::vector<Correlator>> project_momenta(const Lattice<RealVector<R, Reals>, W>& density,
                                                     const std::vector<Momentum>& momenta, const Coordinate& source,
                                                     int time_direction = 3) {
  static_assert(Reals % 2 == 0, "Latte: correlator densities are complex: an even number of reals");
  std::vector<std::vector<Correlator>> projected;
  projected.reserve(momenta.size());
  Lattice<Complex<R>, W> phase(density.geometry(), Uninitialized{});
  Lattice<RealVector<R, Reals>, W> product(density.geometry(), Uninitialized{});
  for (const Momentum& n : momenta) {
    std::vector<std::vector<double>> sums;
    if (n == Momentum{0, 0, 0}) {
      sums = slice_sums(density, time_direction);
    } else {
      fill_momentum_phase(phase, n, source, time_direction);
      product = map(functors::PhaseTimesDensities<Reals>{}, density, phase);
      sums = slice_sums(product, time_direction);
    }
    std::vector<Correlator> correlators(Reals / 2, Correlator(sums[0].size()));
    for (int k = 0; k < Reals / 2; ++k)
      for (std::size_t t = 0; t < sums[0].size(); ++t) correlators[k][t] = {sums[2 * k][t], sums[2 * k + 1][t]};
    projected.push_back(std::move(correlators));
  }
  return projected;
}

// The momenta equivalent to n on a lattice of extents dims (sign changes,
// permutations among spatial directions of equal extent), n itself among
// them, each once, in increasing lexicographic order.
inline std::vector<Momentum> equivalent_momenta(const Momentum& n, const Coordinate& dims, int time_direction = 3) {
  const std::array<int, 3> spatial = spatial_directions(time_direction);
  std::array<int, 3> order{0, 1, 2};
  std::vector<Momentum> images;
  do {
    bool allowed = true;  // a permutation only among directions of equal extent
    for (int i = 0; i < 3; ++i) allowed = allowed && dims[spatial[i]] == dims[spatial[order[i]]];
    if (!allowed) continue;
    for (int signs = 0; signs < 8; ++signs) {
      Momentum m;
      for (int i = 0; i < 3; ++i) m[i] = ((signs >> i) & 1 ? -1 : 1) * n[order[i]];
      images.push_back(m);
    }
  } while (std::next_permutation(order.begin(), order.end()));
  std::sort(images.begin(), images.end());
  images.erase(std::unique(images.begin(), images.end()), images.end());
  return images;
}

// The momenta of a list grouped into classes of equivalent ones: each class
// as the indices of its members in the list, in order of first appearance.
inline std::vector<std::vector<std::size_t>> equivalent_momentum_classes(const std::vector<Momentum>& momenta,
                                                                          const Coordinate& dims,
                                                                          int time_direction = 3) {
  std::vector<std::vector<std::size_t>> classes;
  std::vector<std::vector<Momentum>> orbits;
  for (std::size_t i = 0; i < momenta.size(); ++i) {
    bool placed = false;
    for (std::size_t c = 0; c < classes.size() && !placed; ++c)
      if (std::binary_search(orbits[c].begin(), orbits[c].end(), momenta[i])) {
        classes[c].push_back(i);
        placed = true;
      }
    if (!placed) {
      classes.push_back({i});
      orbits.push_back(equivalent_momenta(momenta[i], dims, time_direction));
    }
  }
  return classes;
}

}  // namespace latte
