// A dynamical two-flavour chain spread over ranks is the chain of one rank,
// bit for bit: Wilson-clover pseudofermions even-odd preconditioned, the
// clover log det and the gauge action on two time scales, antiperiodic in
// time. The pseudofermion heatbath, every solve (started from zero) and
// every force are statements or reproducible sums, so links, dH and the
// CG iteration counts agree. Run at one rank (forced communication) in the
// ordinary suite and under mpirun with 2, 4 and 16 ranks.

#include <vector>

#include "decomposition_support.hpp"
#include "hmc_test_support.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"

namespace latte::testing {
namespace {

struct DynamicalChain {
  GaugeField<double> U;
  GaugeMonomial<double> gauge{GaugeAction::wilson(5.6)};
  CloverParameters fermions{0.3, 1.0, FermionBoundary::antiperiodic_in_time()};
  TwoFlavourMonomial<CloverAction<double>> quarks;
  CloverDeterminantMonomial<double> det{fermions};
  MolecularDynamics<double> md{{{IntegratorScheme::leapfrog, 1, {&quarks}}, {IntegratorScheme::leapfrog, 2, {&gauge, &det}}}};
  HybridMonteCarlo<double> hmc;
  explicit DynamicalChain(const Geometry& g)
      : U(g), quarks(g, fermions, true), hmc(U, md, {&quarks, &det, &gauge}, {0.5, 2027, true}) {
    // exp(0.3 X), X gaussian: a rough start on which the clover term stays positive.
    rough_gauge_field(U, 5, 0.3);
  }
};

TEST(DecompositionDynamicalHmc, CloverChainHasTheBitsOfOneRank) {
  DynamicalChain one(replicated(lattice4));
  std::vector<TrajectoryRecord> reference;
  for (int i = 0; i < 2; ++i) reference.push_back(one.hmc.trajectory());
  const long iterations = one.quarks.tally().iterations;
  EXPECT_GT(iterations, 0);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    DynamicalChain many(g);
    for (int i = 0; i < 2; ++i) {
      const TrajectoryRecord r = many.hmc.trajectory();
      EXPECT_TRUE(same_result(r.delta_h, reference[i].delta_h)) << "dH of trajectory " << i;
      EXPECT_EQ(r.accepted, reference[i].accepted) << "trajectory " << i;
      EXPECT_TRUE(same_result(r.plaquette, reference[i].plaquette)) << "plaquette after trajectory " << i;
    }
    EXPECT_EQ(many.quarks.tally().iterations, iterations) << "CG iterations";
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(many.U[mu], one.U[mu])) << "U_" << mu;
  });
}

}  // namespace
}  // namespace latte::testing
