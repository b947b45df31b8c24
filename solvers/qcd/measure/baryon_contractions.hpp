#pragma once
// Baryon two-point functions for degenerate u and d quarks (one propagator
// S from the source y): the proton (nucleon) and the Delta, projected to
// positive parity, at any list of momenta (momentum_projection.hpp).
//
// Interpolators (colours a, b, c; spins by matrix products; epsilon_012 = 1):
//   proton   chi   = eps_abc (u_a^T C gamma_5 d_b) u_c
//   Delta++  chi_k = eps_abc (u_a^T C gamma_k u_b) u_c,   k = x, y, z
// and at the source chibar = chi^+ gamma_4 = eps_abc (dbar_b Gt ubar_a^T)
// ubar_c with Gt = gamma_4 Gamma^+ gamma_4 (gamma_4 is symmetric), the bar
// of the diquark's Gamma (dirac_matrices.hpp: C = gamma_2 gamma_4).
// G_{alpha beta} = <chi_alpha(x) chibar_beta(y)>, and the correlator is
//   C(p, t) = sum_{x, x_t = t} exp(-i p.(x - y)) tr[P G(x)],   P = (1 + gamma_4)/2
// (parity -1 takes (1 - gamma_4)/2). With these signs C is positive: forward
// in time (1 + gamma_4)/2 propagates, and the correlator is a sum of
// |<n|chibar|0>|^2 e^{-E t}.
//
// Wick contractions. Write S^{aa'} for the 4 x 4 spin matrix
// S_{(rho, a), (sigma, a')} at colours a (sink) and a' (source). The six
// ways to contract u_a u_b u_c with ubar_b' ubar_a' ubar_c' (signs of the
// permutations) give, for Gamma and Gt symmetric or not,
//   G = eps_abc eps_a'b'c' (T1 + T2 + T3 + T4 + T5 + T6),
//   T1 =  S^{cb'} Gt S^{ba' T} Gamma^T S^{ac'}     T2 = -S^{cb'} Gt S^{aa' T} Gamma S^{bc'}
//   T3 = -S^{ca'} Gt^T S^{bb' T} Gamma^T S^{ac'}   T4 = -tr[Gamma S^{ba'} Gt^T S^{ab' T}] S^{cc'}
//   T5 =  S^{ca'} Gt^T S^{ab' T} Gamma S^{bc'}     T6 =  tr[Gamma S^{bb'} Gt S^{aa' T}] S^{cc'}
// The proton's d quark only pairs b with b': proton = T3 + T6 (Gamma = C gamma_5).
// The Delta's Gamma = C gamma_k and Gt are symmetric, and relabelling
// a <-> b, a' <-> b' (each eps changes sign) maps T1 to T5, T2 to T3, T4 to
// T6; the sums of T3 and T5 are equal (a <-> b alone), so
// Delta = 2 (T6 + 2 T3). With X^{bb'} = Gamma S^{bb'} Gt,
// Y = S^{ac'} P S^{ca'} and tr[M N^T] = sum_{rho sigma} M_{rho sigma} N_{rho sigma},
//   tr[P T6] = tr[X^{bb'} S^{aa' T}] tr[P S^{cc'}],   tr[P T3] = -tr[Y X^{bb' T}],
//   proton(x) = eps eps' tr[(tr[P S^{cc'}] S^{aa'} - Y) X^{bb' T}]
//   Delta_k(x) = 2 eps eps' tr[(tr[P S^{cc'}] S^{aa'} - 2 Y) X_k^{bb' T}]
// summed over the 6 x 6 colour permutations. tests/test_hadron_contractions.cpp
// checks this against the six terms written out index by index.
//
// The Delta. Each k = x, y, z is kept (diagonal: C gamma_k at both ends) and
// delta_average(m) is their mean. No spin-3/2 projector is applied: at zero
// momentum C gamma_k couples to the spin-1/2 states as well, heavier than
// the Delta, which decay away (the projector needs the off-diagonal
// k != l correlators, not computed here).
//
// Cost: P = (1 + gamma_4)/2 has rank 2 (q q^T with q = [1; 1] x 1_2 / sqrt 2
// in this basis), so Y = (S^{ac'} q)(q^T S^{ca'}) is 32 complex products;
// with the four dot products, 32 790 flops per site (counted from the code,
// dsl/expr/flop_count.hpp) for the proton and the three Deltas.
//
// Time is direction 3: the parity projector is made of gamma_4.

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/latte.hpp"
#include "solvers/qcd/measure/dirac_matrices.hpp"
#include "solvers/qcd/measure/momentum_projection.hpp"

namespace latte {

// The diquark matrices: C gamma_5 for the proton, C gamma_k for the Deltas.
inline SpinPermutation baryon_diquark(int which) {
  return which == 0 ? charge_conjugation() * gamma_permutation(4) : charge_conjugation() * gamma_permutation(which - 1);
}

namespace functors {

// Per site: proton, Delta_x, Delta_y, Delta_z as (re, im) pairs.
struct BaryonContraction {
  static constexpr const char* name = "baryon_contraction";
  static constexpr int kinds = 4;  // proton and three Deltas
  int parity_sign = 1;             // P = (1 + parity_sign gamma_4)/2
  std::int8_t permutation[6][4];   // (a, b, c, 0 or 2: the phase of eps_abc)
  std::int8_t sink_row[kinds][4];  // X_{rho sigma} = i^{phase} S^{bb'}_{sink_row(rho), source_row(sigma)}
  std::int8_t source_row[kinds][4];
  std::int8_t phase[kinds][4][4];

  BaryonContraction() : BaryonContraction(1) {}
  explicit BaryonContraction(int parity) : parity_sign(parity) {
    if (parity != 1 && parity != -1)
      throw std::invalid_argument("Latte: a baryon's parity is +1 or -1, not " + std::to_string(parity));
    const int orders[6][4] = {{0, 1, 2, 0}, {1, 2, 0, 0}, {2, 0, 1, 0}, {1, 0, 2, 2}, {0, 2, 1, 2}, {2, 1, 0, 2}};
    for (int p = 0; p < 6; ++p)
      for (int i = 0; i < 4; ++i) permutation[p][i] = static_cast<std::int8_t>(orders[p][i]);
    for (int g = 0; g < kinds; ++g) {
      const SpinPermutation sink = baryon_diquark(g), source = barred(sink);
      for (int r = 0; r < 4; ++r) {
        sink_row[g][r] = static_cast<std::int8_t>(sink.column[r]);
        source_row[g][r] = static_cast<std::int8_t>(source.row_of(r));
      }
      for (int r = 0; r < 4; ++r)
        for (int s = 0; s < 4; ++s)
          phase[g][r][s] = static_cast<std::int8_t>((sink.phase[r] + source.phase[source.row_of(s)]) % 4);
    }
  }

  template <class V>
  LATTE_INLINE RealVector<V, 2 * kinds> operator()(const PropagatorSite<V>& S) const {
    using C = Complex<V>;
    const C zero_c = {V(0), V(0)};
    const V half = V(0.5);
    const bool positive = parity_sign > 0;
    const auto plus_or_minus = [positive](const C& u, const C& v) LATTE_LAMBDA { return positive ? u + v : u - v; };
    // L(x, y) = S^{xy} q sqrt 2 (4 x 2), R(x, y) = q^T S^{xy} / sqrt 2 (2 x 4), tr[P S^{xy}].
    C L[3][3][4][2], R[3][3][2][4], trace_p[3][3];
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y) {
        for (int rho = 0; rho < 4; ++rho)
          for (int j = 0; j < 2; ++j) L[x][y][rho][j] = plus_or_minus(entry(S, x, y, rho, j), entry(S, x, y, rho, j + 2));
        for (int j = 0; j < 2; ++j)
          for (int sigma = 0; sigma < 4; ++sigma)
            R[x][y][j][sigma] = half * plus_or_minus(entry(S, x, y, j, sigma), entry(S, x, y, j + 2, sigma));
        trace_p[x][y] = half * plus_or_minus(L[x][y][0][0] + L[x][y][1][1], L[x][y][2][0] + L[x][y][3][1]);
      }
    C by_phase[kinds][4];
    for (int g = 0; g < kinds; ++g)
      for (int k = 0; k < 4; ++k) by_phase[g][k] = zero_c;
    for (int p = 0; p < 6; ++p) {
      const int a = permutation[p][0], b = permutation[p][1], c = permutation[p][2];
      for (int q = 0; q < 6; ++q) {
        const int a2 = permutation[q][0], b2 = permutation[q][1], c2 = permutation[q][2];
        const int sign_phase = permutation[p][3] + permutation[q][3];  // eps eps' = i^sign_phase
        C proton_m[4][4], delta_m[4][4];  // tr[P S^{cc'}] S^{aa'} - Y and - 2 Y
        for (int rho = 0; rho < 4; ++rho)
          for (int sigma = 0; sigma < 4; ++sigma) {
            const C y = L[a][c2][rho][0] * R[c][a2][0][sigma] + L[a][c2][rho][1] * R[c][a2][1][sigma];
            proton_m[rho][sigma] = trace_p[c][c2] * entry(S, a, a2, rho, sigma) - y;
            delta_m[rho][sigma] = proton_m[rho][sigma] - y;
          }
        for (int g = 0; g < kinds; ++g) {
          const C(*m)[4] = g == 0 ? proton_m : delta_m;
          for (int rho = 0; rho < 4; ++rho)
            for (int sigma = 0; sigma < 4; ++sigma) {
              C& sum = by_phase[g][(phase[g][rho][sigma] + sign_phase) & 3];
              sum = multiply_add(m[rho][sigma], entry(S, b, b2, sink_row[g][rho], source_row[g][sigma]), sum);
            }
        }
      }
    }
    RealVector<V, 2 * kinds> out;
    for (int g = 0; g < kinds; ++g) {
      C total = (by_phase[g][0] - by_phase[g][2]) + timesI(by_phase[g][1] - by_phase[g][3]);
      if (g > 0) total = total + total;  // the Delta's factor 2
      out.v[2 * g] = total.re;
      out.v[2 * g + 1] = total.im;
    }
    return out;
  }

 private:
  // S^{xy}_{rho sigma} = S_{(rho, x), (sigma, y)}: colour x at the sink, y at the source.
  template <class V>
  LATTE_INLINE static const Complex<V>& entry(const PropagatorSite<V>& S, int x, int y, int rho, int sigma) {
    return S.v[colours * sigma + y].v[rho].v[x];
  }
};

}  // namespace functors

// The proton and the three Deltas at every momentum, in absolute time.
struct BaryonCorrelators {
  Coordinate source;
  Coordinate extents;
  int time_direction = 3;
  int parity = 1;
  bool source_at_zero = false;
  std::vector<Momentum> momenta;
  std::vector<Correlator> proton;              // [momentum]
  std::vector<std::array<Correlator, 3>> delta;  // [momentum][k = x, y, z]

  Correlator delta_average(std::size_t momentum) const {
    const auto& d = delta.at(momentum);
    return average_correlators({d[0], d[1], d[2]});
  }
};

// tr[P G] summed with exp(-i p.(x - y)) for the propagator S from `source`.
template <class R, class W>
BaryonCorrelators baryon_correlators(const Lattice<PropagatorSite<R>, W>& S, const Coordinate& source,
                                     const std::vector<Momentum>& momenta = {{0, 0, 0}}, int parity = 1) {
  if (source.size() != 4) throw std::invalid_argument("Latte: a baryon source site has 4 coordinates");
  const functors::BaryonContraction contraction(parity);
  Lattice<RealVector<R, 2 * functors::BaryonContraction::kinds>, W> density(S.geometry(), Uninitialized{});
  density = map(contraction, S);
  const std::vector<std::vector<Correlator>> projected = project_momenta(density, momenta, source, 3);
  BaryonCorrelators result{source, S.geometry().dims(), 3, parity, false, momenta, {}, {}};
  for (const auto& per_momentum : projected) {
    result.proton.push_back(per_momentum[0]);
    result.delta.push_back({per_momentum[1], per_momentum[2], per_momentum[3]});
  }
  return result;
}

// The same with the source timeslice at t = 0: entries whose sink lies
// before the source (reached across the time boundary) are multiplied by
// wrap_sign, -1 for antiperiodic quarks (correlators.hpp, baryon_wrap_sign).
inline BaryonCorrelators rotated_to_source(const BaryonCorrelators& absolute, double wrap_sign) {
  if (absolute.source_at_zero) throw std::invalid_argument("Latte: baryon correlators rotated to their source twice");
  BaryonCorrelators rotated = absolute;
  rotated.source_at_zero = true;
  const int t0 = absolute.source[absolute.time_direction];
  for (Correlator& c : rotated.proton) c = rotate_to_source(c, t0, wrap_sign);
  for (auto& three : rotated.delta)
    for (Correlator& c : three) c = rotate_to_source(c, t0, wrap_sign);
  return rotated;
}
inline BaryonCorrelators rotated_to_source(const BaryonCorrelators& absolute, const FermionBoundary& boundary) {
  return rotated_to_source(absolute, baryon_wrap_sign(boundary, absolute.time_direction));
}

// One entry per class of equivalent momenta, named by its first member.
inline BaryonCorrelators average_equivalent_momenta(const BaryonCorrelators& correlators) {
  BaryonCorrelators averaged = correlators;
  averaged.momenta.clear();
  averaged.proton.clear();
  averaged.delta.clear();
  for (const auto& members :
       equivalent_momentum_classes(correlators.momenta, correlators.extents, correlators.time_direction)) {
    averaged.momenta.push_back(correlators.momenta[members.front()]);
    std::vector<Correlator> proton, delta[3];
    for (std::size_t m : members) {
      proton.push_back(correlators.proton[m]);
      for (int k = 0; k < 3; ++k) delta[k].push_back(correlators.delta[m][k]);
    }
    averaged.proton.push_back(average_correlators(proton));
    averaged.delta.push_back({average_correlators(delta[0]), average_correlators(delta[1]), average_correlators(delta[2])});
  }
  return averaged;
}

// The average of several source times' correlators, each rotated first.
inline BaryonCorrelators average_source_times(const std::vector<BaryonCorrelators>& per_source) {
  if (per_source.empty()) throw std::invalid_argument("Latte: an average over no source times");
  BaryonCorrelators mean = per_source.front();
  for (const BaryonCorrelators& c : per_source)
    if (!c.source_at_zero || !(c.momenta == mean.momenta) || c.parity != mean.parity)
      throw std::invalid_argument(
          "Latte: averaging baryon correlators over source times needs each rotated to its source "
          "(rotated_to_source) and the same momenta and parity");
  for (std::size_t m = 0; m < mean.momenta.size(); ++m) {
    std::vector<Correlator> proton, delta[3];
    for (const BaryonCorrelators& c : per_source) {
      proton.push_back(c.proton[m]);
      for (int k = 0; k < 3; ++k) delta[k].push_back(c.delta[m][k]);
    }
    mean.proton[m] = average_correlators(proton);
    for (int k = 0; k < 3; ++k) mean.delta[m][k] = average_correlators(delta[k]);
  }
  return mean;
}

}  // namespace latte
