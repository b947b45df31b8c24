// Quenched updates on a lattice spread over ranks: two compound sweeps
// (Cabibbo-Marinari heatbath, then overrelaxation) on 8^4 give the very
// bits of one rank in every link, in double and single precision, and the
// same average plaquette. The random numbers are keyed on the global site,
// and the heatbath's rejection loop runs lane by lane, so neither the
// process grid nor the lanes a rank's block gives each site matter.

#include <cstdint>

#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/update/quenched_update.hpp"

namespace latte::testing {
namespace {

// A hot start and two sweeps at beta = 5.7 (each one heatbath and two
// overrelaxation sweeps).
template <class R>
struct QuenchedChain {
  GaugeField<R> U;
  explicit QuenchedChain(const Geometry& g) : U(g) {
    ParallelRng rng(71);
    U.set_random(rng);
    const QuenchedUpdate update{5.7, 2, 2024};
    for (std::uint64_t sweep = 0; sweep < 2; ++sweep) update.sweep(U, sweep);
  }
};

template <class R>
void expect_quenched_sweeps_match() {
  const QuenchedChain<R> one(replicated(lattice4));
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    const QuenchedChain<R> many(g);
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(many.U[mu], one.U[mu])) << "mu = " << mu;
    EXPECT_TRUE(same_result(average_plaquette(many.U), average_plaquette(one.U)));
  });
}

TEST(DecompositionQuenched, HeatbathAndOverrelaxationSweepsDouble) { expect_quenched_sweeps_match<double>(); }
TEST(DecompositionQuenched, HeatbathAndOverrelaxationSweepsSingle) { expect_quenched_sweeps_match<float>(); }

}  // namespace
}  // namespace latte::testing
