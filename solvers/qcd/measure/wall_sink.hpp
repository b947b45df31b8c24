#pragma once
// Wall sinks: the propagator summed over each timeslice,
//   S_wall(t) = sum_{x, x_t = t} S(x, y),   a 12 x 12 matrix per t,
// and the hadron contractions of those sums. A meson with a wall sink is
// the operator sum_x dbar(x) Gamma sum_x' u(x') at the sink, so the two
// propagators are summed separately before they meet:
//   C(t) = -tr[Gamma_snk S1_wall(t) Gammabar_src gamma_5 S2_wall(t)^+ gamma_5]
// (meson_contractions.hpp's formula with the sums in place of S(x)), and a
// baryon takes the three quark lines of the wall-summed S
// (baryon_contractions.hpp). Zero momentum only; like the wall source, a
// wall sink belongs on a gauge-fixed field.
//
// The sums are slice_sums of the propagator field (lattice/fields/slice_sum.hpp):
// 288 reals per site in one pass, reproducible; the contractions then run
// on the host with the same site functors, on L_t values.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/qcd/measure/baryon_contractions.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"

namespace latte {

// S_wall(t), t = 0 .. L_t - 1, in double.
template <class R, class W>
std::vector<PropagatorSite<double>> wall_sink(const Lattice<PropagatorSite<R>, W>& propagator, int time_direction = 3) {
  const std::vector<std::vector<double>> sums = slice_sums(propagator, time_direction);
  std::vector<PropagatorSite<double>> summed(sums[0].size());
  double leaves[words_v<PropagatorSite<double>>];  // in memory order, as slice_sums numbers them
  for (std::size_t t = 0; t < summed.size(); ++t) {
    for (std::size_t k = 0; k < sums.size(); ++k) leaves[k] = sums[k][t];
    std::memcpy(&summed[t], leaves, sizeof leaves);
  }
  return summed;
}

// Mesons from wall-summed quark and antiquark propagators (zero momentum).
inline MesonCorrelators wall_sink_meson_correlators(const std::vector<PropagatorSite<double>>& quark,
                                                    const std::vector<PropagatorSite<double>>& antiquark,
                                                    const Coordinate& source, const Coordinate& extents,
                                                    const std::vector<MesonChannel>& channels = diagonal_meson_channels(),
                                                    int time_direction = 3) {
  if (quark.size() != antiquark.size())
    throw std::invalid_argument("Latte: wall sinks of " + std::to_string(quark.size()) + " and " +
                                std::to_string(antiquark.size()) + " timeslices");
  for (const MesonChannel& channel : channels) check_meson_channel(channel);
  MesonCorrelators result{source, extents, time_direction, false, channels, {Momentum{0, 0, 0}},
                          {std::vector<Correlator>(channels.size(), Correlator(quark.size()))}};
  for (std::size_t first = 0; first < channels.size(); first += meson_channels_per_pass) {
    const int count = static_cast<int>(std::min<std::size_t>(meson_channels_per_pass, channels.size() - first));
    const functors::MesonContraction contraction(channels.data() + first, count);
    for (std::size_t t = 0; t < quark.size(); ++t) {
      const RealVector<double, 2 * meson_channels_per_pass> c = contraction(quark[t], antiquark[t]);
      for (int n = 0; n < count; ++n) result.values[0][first + n][t] = {c.v[2 * n], c.v[2 * n + 1]};
    }
  }
  return result;
}

// The proton and Deltas from a wall-summed propagator (zero momentum).
inline BaryonCorrelators wall_sink_baryon_correlators(const std::vector<PropagatorSite<double>>& propagator,
                                                      const Coordinate& source, const Coordinate& extents,
                                                      int parity = 1) {
  const functors::BaryonContraction contraction(parity);
  BaryonCorrelators result{source, extents, 3, parity, false, {Momentum{0, 0, 0}},
                           {Correlator(propagator.size())}, {{}}};
  for (Correlator& c : result.delta[0]) c.assign(propagator.size(), {});
  for (std::size_t t = 0; t < propagator.size(); ++t) {
    const RealVector<double, 8> c = contraction(propagator[t]);
    result.proton[0][t] = {c.v[0], c.v[1]};
    for (int k = 0; k < 3; ++k) result.delta[0][k][t] = {c.v[2 + 2 * k], c.v[3 + 2 * k]};
  }
  return result;
}

}  // namespace latte
