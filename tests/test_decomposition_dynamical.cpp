// A dynamical two-flavour chain spread over ranks is the chain of one rank,
// bit for bit: Wilson-clover pseudofermions even-odd preconditioned, the
// clover log det and the gauge action on two time scales, antiperiodic in
// time. The pseudofermion heatbath, every solve (started from zero) and
// every force are statements or reproducible sums, so links, dH and the
// CG iteration counts agree. The same for a 2+1-flavour chain: the light
// pair as a Hasenbusch ratio and a heavier pair, the strange quark by a
// rational pseudofermion (multi-shift solves); its quarks are Wilson's,
// one trajectory.
// Run at one rank (forced communication) in the ordinary
// suite and under mpirun with 2, 4 and 16 ranks.

#include <vector>

#include "decomposition_support.hpp"
#include "hmc_test_support.hpp"
#include "rational_test_approximations.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hasenbusch_monomial.hpp"
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

// Wilson quarks: what is new here is the multi-shift solve, the rational
// force summed over poles and the ratio's two operators; the clover parts
// are the chain above's.
struct TwoPlusOneChain {
  GaugeField<double> U;
  GaugeMonomial<double> gauge{GaugeAction::wilson(5.6)};
  WilsonParameters light{0.3, FermionBoundary::antiperiodic_in_time()};
  WilsonParameters heavy{0.8, FermionBoundary::antiperiodic_in_time()};
  WilsonParameters strange{0.5, FermionBoundary::antiperiodic_in_time()};
  HasenbuschRatioMonomial<WilsonAction<double>> ratio;
  TwoFlavourMonomial<WilsonAction<double>> heavy_pair;
  RationalMonomial<WilsonAction<double>> strange_quark;
  MolecularDynamics<double> md{{{IntegratorScheme::leapfrog, 1, {&ratio}},
                                {IntegratorScheme::leapfrog, 1, {&heavy_pair, &strange_quark}},
                                {IntegratorScheme::leapfrog, 2, {&gauge}}}};
  HybridMonteCarlo<double> hmc;
  explicit TwoPlusOneChain(const Geometry& g)
      : U(g), ratio(g, light, heavy, true), heavy_pair(g, heavy, true),
        strange_quark(g, strange, true, rational_test_approximations(1, 1)),
        hmc(U, md, {&ratio, &heavy_pair, &strange_quark, &gauge}, {0.5, 2029, true}) {
    rough_gauge_field(U, 5, 0.3);
  }
  long iterations() const {
    return ratio.tally().iterations + heavy_pair.tally().iterations + strange_quark.tally().iterations;
  }
};

TEST(DecompositionDynamicalHmc, TwoPlusOneChainHasTheBitsOfOneRank) {
  TwoPlusOneChain one(replicated(lattice4));
  std::vector<TrajectoryRecord> reference;
  reference.push_back(one.hmc.trajectory());
  EXPECT_GT(one.strange_quark.tally().iterations, 0);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    TwoPlusOneChain many(g);
    for (int i = 0; i < 1; ++i) {
      const TrajectoryRecord r = many.hmc.trajectory();
      EXPECT_TRUE(same_result(r.delta_h, reference[i].delta_h)) << "dH of trajectory " << i;
      EXPECT_EQ(r.accepted, reference[i].accepted) << "trajectory " << i;
      EXPECT_TRUE(same_result(r.plaquette, reference[i].plaquette)) << "plaquette after trajectory " << i;
    }
    EXPECT_EQ(many.iterations(), one.iterations()) << "CG iterations";
    EXPECT_EQ(many.strange_quark.tally().iterations, one.strange_quark.tally().iterations) << "multi-shift iterations";
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(many.U[mu], one.U[mu])) << "U_" << mu;
  });
}

}  // namespace
}  // namespace latte::testing
