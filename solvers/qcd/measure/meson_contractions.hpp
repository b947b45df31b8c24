#pragma once
// Meson two-point functions for any list of (Gamma_src, Gamma_snk)
// channels (solvers/qcd/measure/meson_channels.hpp), from a quark
// propagator S1 = S_u and an antiquark propagator S2 = S_d from the same
// source y (the same field for degenerate quarks), at any list of momenta
// (solvers/qcd/measure/momentum_projection.hpp).
//
// The formula and its sign. With O(x) = dbar Gamma_snk u at the sink and
// Obar(y) = ubar Gammabar_src d at the source, Gammabar = gamma_4 Gamma^+
// gamma_4 (so Obar is the adjoint of dbar Gamma_src u), Wick's theorem
// gives, spin and colour indices written out,
//   <dbar_a(x) u_b(x) ubar_c(y) d_d(y)> = -S_u(x, y)_{bc} S_d(y, x)_{da}
// (moving d_d past three Grassmann fields), so
//   c(x) = <O(x) Obar(y)> = -tr[Gamma_snk S_u(x, y) Gammabar_src S_d(y, x)],
// and gamma_5-hermiticity, S(y, x) = gamma_5 S(x, y)^+ gamma_5, leaves the
// forward propagators alone:
//   c(x) = -tr[Gamma_snk S1(x) Gammabar_src gamma_5 S2(x)^+ gamma_5],
//   C(p, t) = sum_{x, x_t = t} exp(-i p.(x - y)) c(x).
// For a diagonal channel this is <O(t) O^+(0)>, a sum of |<n|O^+|0>|^2
// e^{-E_n t} by the transfer matrix: positive for t > 0 (and beyond T/2,
// with antiperiodic quarks), whatever Gamma. The pion is
// -tr[gamma_5 S (-gamma_5) gamma_5 S^+ gamma_5] = tr[S S^+] = sum |S|^2,
// pion_correlator's value (hadron_correlators.hpp). On the free field every
// diagonal channel is positive at t >= 1 (tests/test_hadron_contractions.cpp);
// at t = 0 the contact term may have either sign.
// Chroma's mesons (lib/meas/hadron/mesons_w.cc) computes
// tr[Gamma S1 Gamma gamma_5 S2^+ gamma_5] for Gamma(n) at both ends: ours
// is -eta_n times it where Gammabar(n) = eta_n Gamma(n), i.e. the same
// for the channels with eta_n = -1 and of opposite sign for the others.
//
// Each term is a sum of 16 spin pairs (a, c) with a phase i^k, because
// every matrix here is a spin permutation (dirac_matrices.hpp): with
// A = Gamma_snk, B = Gammabar_src gamma_5 (row r: i^{k_A(r)} at column
// pi_A(r), the same for B) and epsilon_a the diagonal of gamma_5,
//   c(x) = sum_{a, c} -epsilon_a i^{k_A(a) + k_B(c)}
//          sum_{i, j} S1_{(pi_A(a), i), (c, j)} conj(S2_{(a, i), (pi_B(c), j)})
// (i, j colours): 16 x 9 complex multiply-adds per channel, 74 flops a
// pair, about 19 000 flops per site for 16 channels. The channel tables
// are members of the site functor (run-time data, copied into the kernel,
// usable in device code), 16 channels per pass; a longer list takes
// several passes over the propagators.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/latte.hpp"
#include "solvers/qcd/measure/meson_channels.hpp"
#include "solvers/qcd/measure/momentum_projection.hpp"

namespace latte {

inline constexpr int meson_channels_per_pass = 16;

namespace functors {

struct MesonContraction {
  static constexpr const char* name = "meson_contraction";
  int count = 0;
  std::int8_t sink_row[meson_channels_per_pass][4];       // pi_A(a)
  std::int8_t source_column[meson_channels_per_pass][4];  // pi_B(c)
  std::int8_t phase[meson_channels_per_pass][4][4];       // k(a, c), with the sign and epsilon_a

  // The 16 diagonal channels (what flop counting runs).
  MesonContraction() {
    for (int n = 0; n < meson_channels_per_pass; ++n) set(n, {n, n});
    count = meson_channels_per_pass;
  }
  // At most meson_channels_per_pass channels.
  MesonContraction(const MesonChannel* channels, int channel_count) : count(channel_count) {
    if (channel_count < 0 || channel_count > meson_channels_per_pass)
      throw std::invalid_argument("Latte: a meson contraction pass takes 0 to 16 channels, not " +
                                  std::to_string(channel_count));
    for (int n = 0; n < meson_channels_per_pass; ++n) set(n, n < channel_count ? channels[n] : MesonChannel{});
  }

  template <class V>
  LATTE_INLINE RealVector<V, 2 * meson_channels_per_pass> operator()(const PropagatorSite<V>& quark,
                                                                     const PropagatorSite<V>& antiquark) const {
    RealVector<V, 2 * meson_channels_per_pass> out;
    for (int k = 0; k < 2 * meson_channels_per_pass; ++k) out.v[k] = V(0);
    for (int n = 0; n < count; ++n) {
      // The terms grouped by their phase i^k: added without multiplications.
      Complex<V> by_phase[4] = {{V(0), V(0)}, {V(0), V(0)}, {V(0), V(0)}, {V(0), V(0)}};
      for (int a = 0; a < 4; ++a) {
        const int row = sink_row[n][a];
        for (int c = 0; c < 4; ++c) {
          const int column = source_column[n][c];
          Complex<V> q = {V(0), V(0)};
          for (int j = 0; j < colours; ++j)
            for (int i = 0; i < colours; ++i)
              q = conj_multiply_add(antiquark.v[colours * column + j].v[a].v[i], quark.v[colours * c + j].v[row].v[i], q);
          by_phase[phase[n][a][c]] += q;
        }
      }
      const Complex<V> total = (by_phase[0] - by_phase[2]) + timesI(by_phase[1] - by_phase[3]);
      out.v[2 * n] = total.re;
      out.v[2 * n + 1] = total.im;
    }
    return out;
  }

 private:
  void set(int n, const MesonChannel& channel) {
    check_meson_channel(channel);
    const SpinPermutation A = dirac_gamma(channel.sink);
    const SpinPermutation B = barred(dirac_gamma(channel.source)) * gamma_permutation(4);
    for (int a = 0; a < 4; ++a) {
      sink_row[n][a] = static_cast<std::int8_t>(A.column[a]);
      source_column[n][a] = static_cast<std::int8_t>(B.column[a]);
    }
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 4; ++c)  // -epsilon_a i^{k_A(a) + k_B(c)}
        phase[n][a][c] = static_cast<std::int8_t>((A.phase[a] + B.phase[c] + (a >= 2 ? 2 : 0) + 2) % 4);
  }
};

}  // namespace functors

// The correlators of every channel at every momentum, in absolute time
// (rotated_to_source puts the source timeslice at t = 0).
struct MesonCorrelators {
  Coordinate source;   // the propagators' source site (phases are relative to it)
  Coordinate extents;  // the lattice's
  int time_direction = 3;
  bool source_at_zero = false;  // rotated: t counts timeslices from the source's
  std::vector<MesonChannel> channels;
  std::vector<Momentum> momenta;
  std::vector<std::vector<Correlator>> values;  // [momentum][channel]

  const Correlator& operator()(std::size_t momentum, std::size_t channel) const {
    return values.at(momentum).at(channel);
  }
};

// C(p, t) of every channel and momentum from the quark propagator S1 and
// the antiquark propagator S2, both from `source`.
template <class R, class W>
MesonCorrelators meson_correlators(const Lattice<PropagatorSite<R>, W>& quark,
                                   const Lattice<PropagatorSite<R>, W>& antiquark, const Coordinate& source,
                                   const std::vector<Momentum>& momenta = {{0, 0, 0}},
                                   const std::vector<MesonChannel>& channels = diagonal_meson_channels(),
                                   int time_direction = 3) {
  for (const MesonChannel& channel : channels) check_meson_channel(channel);
  spatial_directions(time_direction);  // checks it
  if (source.size() != 4) throw std::invalid_argument("Latte: a meson source site has 4 coordinates");
  MesonCorrelators result{source, quark.geometry().dims(), time_direction, false, channels, momenta,
                          std::vector<std::vector<Correlator>>(momenta.size())};
  Lattice<RealVector<R, 2 * meson_channels_per_pass>, W> density(quark.geometry(), Uninitialized{});
  for (std::size_t first = 0; first < channels.size(); first += meson_channels_per_pass) {
    const int count = static_cast<int>(std::min<std::size_t>(meson_channels_per_pass, channels.size() - first));
    density = map(functors::MesonContraction(channels.data() + first, count), quark, antiquark);
    std::vector<std::vector<Correlator>> pass = project_momenta(density, momenta, source, time_direction);
    for (std::size_t m = 0; m < momenta.size(); ++m)
      result.values[m].insert(result.values[m].end(), pass[m].begin(), pass[m].begin() + count);
  }
  return result;
}

// Degenerate quarks: S1 = S2 = S.
template <class R, class W>
MesonCorrelators meson_correlators(const Lattice<PropagatorSite<R>, W>& propagator, const Coordinate& source,
                                   const std::vector<Momentum>& momenta = {{0, 0, 0}},
                                   const std::vector<MesonChannel>& channels = diagonal_meson_channels(),
                                   int time_direction = 3) {
  return meson_correlators(propagator, propagator, source, momenta, channels, time_direction);
}

// The same correlators with the source timeslice at t = 0 (mesons: no sign).
inline MesonCorrelators rotated_to_source(const MesonCorrelators& absolute) {
  if (absolute.source_at_zero) throw std::invalid_argument("Latte: meson correlators rotated to their source twice");
  MesonCorrelators rotated = absolute;
  rotated.source_at_zero = true;
  for (auto& per_momentum : rotated.values)
    for (Correlator& c : per_momentum) c = rotate_to_source(c, absolute.source[absolute.time_direction]);
  return rotated;
}

// The average over equivalent momenta (momentum_projection.hpp): one entry
// per class, named by its first member in the list.
inline MesonCorrelators average_equivalent_momenta(const MesonCorrelators& correlators) {
  MesonCorrelators averaged = correlators;
  averaged.momenta.clear();
  averaged.values.clear();
  for (const auto& members :
       equivalent_momentum_classes(correlators.momenta, correlators.extents, correlators.time_direction)) {
    averaged.momenta.push_back(correlators.momenta[members.front()]);
    std::vector<Correlator> per_channel;
    for (std::size_t channel = 0; channel < correlators.channels.size(); ++channel) {
      std::vector<Correlator> same;
      for (std::size_t m : members) same.push_back(correlators.values[m][channel]);
      per_channel.push_back(average_correlators(same));
    }
    averaged.values.push_back(std::move(per_channel));
  }
  return averaged;
}

// The average of several source times' correlators, each rotated to its
// source first (the same channels and momenta in each).
inline MesonCorrelators average_source_times(const std::vector<MesonCorrelators>& per_source) {
  if (per_source.empty()) throw std::invalid_argument("Latte: an average over no source times");
  MesonCorrelators mean = per_source.front();
  for (const MesonCorrelators& c : per_source)
    if (!c.source_at_zero || !(c.channels == mean.channels) || !(c.momenta == mean.momenta))
      throw std::invalid_argument(
          "Latte: averaging meson correlators over source times needs each rotated to its source "
          "(rotated_to_source) and the same channels and momenta");
  for (std::size_t m = 0; m < mean.momenta.size(); ++m)
    for (std::size_t channel = 0; channel < mean.channels.size(); ++channel) {
      std::vector<Correlator> same;
      for (const MesonCorrelators& c : per_source) same.push_back(c.values[m][channel]);
      mean.values[m][channel] = average_correlators(same);
    }
  return mean;
}

}  // namespace latte
