// Hadron contractions on a lattice spread over ranks: the meson channels at
// two momenta, the proton and the Deltas, and a wall sink, from a random
// propagator field (keyed on the global site, so the same field on every
// decomposition), give the very bits of one rank. The contractions are
// site-local statements and the timeslice sums reproducible, so neither the
// process grid nor the lanes a rank's block gives each site matter.

#include "solvers/qcd/measure/baryon_contractions.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"
#include "solvers/qcd/measure/wall_sink.hpp"

namespace latte::testing {
namespace {

::testing::AssertionResult same_correlator(const Correlator& split, const Correlator& whole) {
  bool same = split.size() == whole.size();
  for (std::size_t t = 0; same && t < split.size(); ++t) same = same_bits(split[t], whole[t]);
  if (world().all_true(same)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "correlators differ in their bits on some rank";
}

struct HadronRun {
  MesonCorrelators mesons;
  BaryonCorrelators baryons;
  std::vector<PropagatorSite<double>> wall;
  explicit HadronRun(const Geometry& g) {
    Lattice<PropagatorSite<double>> S(g);
    ParallelRng(41).gaussian(S);
    const Coordinate source{3, 5, 1, 6};
    std::vector<MesonChannel> channels = diagonal_meson_channels();
    channels.push_back({gamma_index::pion, gamma_index::pion_2});  // a second pass
    mesons = meson_correlators(S, source, {{0, 0, 0}, {1, -2, 0}}, channels);
    baryons = baryon_correlators(S, source, {{0, 0, 0}, {0, 1, 1}});
    wall = wall_sink(S);
  }
};

TEST(DecompositionHadrons, MesonsBaryonsAndWallSinksAsOnOneRank) {
  const HadronRun one(replicated(lattice4));
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    const HadronRun many(g);
    for (std::size_t m = 0; m < one.mesons.momenta.size(); ++m)
      for (std::size_t n = 0; n < one.mesons.channels.size(); ++n)
        EXPECT_TRUE(same_correlator(many.mesons(m, n), one.mesons(m, n))) << "momentum " << m << ", channel " << n;
    for (std::size_t m = 0; m < one.baryons.momenta.size(); ++m) {
      EXPECT_TRUE(same_correlator(many.baryons.proton[m], one.baryons.proton[m])) << "proton, momentum " << m;
      for (int k = 0; k < 3; ++k)
        EXPECT_TRUE(same_correlator(many.baryons.delta[m][k], one.baryons.delta[m][k])) << "Delta " << k;
    }
    bool same = many.wall.size() == one.wall.size();
    for (std::size_t t = 0; same && t < one.wall.size(); ++t) same = same_bits(many.wall[t], one.wall[t]);
    EXPECT_TRUE(world().all_true(same)) << "wall sink";
  });
}

}  // namespace
}  // namespace latte::testing
