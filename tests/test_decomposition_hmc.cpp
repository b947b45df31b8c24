// A hybrid Monte Carlo chain spread over ranks is the chain of one rank, bit
// for bit: links, dH and every accept/reject decision, for the Wilson and
// the Iwasaki action (rectangles: nested shifts through halos), on nested
// time scales. Run at one rank (forced communication) in the ordinary
// suite and under mpirun with 2, 4 and 16 ranks.

#include <vector>

#include "decomposition_support.hpp"
#include "solvers/qcd/update/hmc.hpp"

namespace latte::testing {
namespace {

struct HmcChain {
  GaugeField<double> U;
  GaugeMonomial<double> plaquettes{GaugeAction::wilson(5.6)};
  GaugeMonomial<double> improved{GaugeAction::iwasaki(0.3)};  // a small rectangle term on the outer level
  MolecularDynamics<double> md{{{IntegratorScheme::omelyan, 1, {&improved}}, {IntegratorScheme::leapfrog, 2, {&plaquettes}}}};
  HybridMonteCarlo<double> hmc;
  explicit HmcChain(const Geometry& g) : U(g), hmc(U, md, {&plaquettes, &improved}, {1.0, 2026, true}) {
    ParallelRng rng(8);
    U.set_random(rng);  // a hot start: large forces; the third trajectory is rejected
  }
};

TEST(DecompositionHmc, ChainHasTheBitsOfOneRank) {
  HmcChain one(replicated(lattice4));
  std::vector<TrajectoryRecord> reference;
  int accepted = 0;
  for (int i = 0; i < 3; ++i) {
    reference.push_back(one.hmc.trajectory());
    accepted += reference.back().accepted;
  }
  // Both decisions occur, so both paths are compared.
  EXPECT_TRUE(accepted > 0 && accepted < 3) << accepted << " of 3 trajectories accepted";
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    HmcChain many(g);
    for (int i = 0; i < 3; ++i) {
      const TrajectoryRecord r = many.hmc.trajectory();
      EXPECT_TRUE(same_result(r.delta_h, reference[i].delta_h)) << "dH of trajectory " << i;
      EXPECT_EQ(r.accepted, reference[i].accepted) << "trajectory " << i;
      EXPECT_TRUE(same_result(r.plaquette, reference[i].plaquette)) << "plaquette after trajectory " << i;
    }
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(many.U[mu], one.U[mu])) << "U_" << mu;
  });
}

}  // namespace
}  // namespace latte::testing
