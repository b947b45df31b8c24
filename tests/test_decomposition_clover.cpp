// The Wilson-clover operator spread over ranks gives the very bits of one
// rank: its clover term and inverse, the even-odd Schur operator, and an
// even-odd solve run to convergence (the same residual history and solution).

#include <memory>

#include "decomposition_support.hpp"
#include "solvers/qcd/clover_action.hpp"

namespace latte::testing {
namespace {

struct CloverSetup {
  GaugeField<double> U;
  Lattice<Spinor<double>> b, x;
  std::unique_ptr<CloverDirac<double>> M;
  std::unique_ptr<CloverEvenOdd<double>> schur;
  explicit CloverSetup(const Geometry& g) : U(g), b(g), x(g) {
    ParallelRng rng(61);
    U.set_random(rng);
    rng.gaussian(b);
    x = zero;
    M = std::make_unique<CloverDirac<double>>(U, 0.1, 1.2);
    schur = std::make_unique<CloverEvenOdd<double>>(*M);
  }
  SolverReport solve() { return solve_clover_even_odd(*schur, *M, x, b, SolverControl{1e-10, 10000}); }
};

TEST(DecompositionPhysics, CloverEvenOddSolve) {
  CloverSetup one(replicated(lattice4));
  const SolverReport reference = one.solve();
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    CloverSetup many(g);
    EXPECT_TRUE(same_as_one_rank(many.M->clover_term().term(), one.M->clover_term().term())) << "clover term";
    EXPECT_TRUE(same_as_one_rank(many.M->clover_term().inverse(), one.M->clover_term().inverse())) << "inverse";
    const SolverReport report = many.solve();
    EXPECT_TRUE(same_result(report.residual_history == reference.residual_history, true)) << "residual history";
    EXPECT_TRUE(same_as_one_rank(many.x, one.x)) << "solution";
  });
}

}  // namespace
}  // namespace latte::testing
