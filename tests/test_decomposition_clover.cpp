// The Wilson-clover operator spread over ranks gives the very bits of one
// rank: its clover term and inverse, the even-odd Schur operator, and an
// even-odd solve run to convergence (the same residual history and solution),
// with periodic quarks and with quarks antiperiodic in time (the phased links
// are made site by site from global coordinates: the same bits on any ranks).

#include <memory>

#include "decomposition_support.hpp"
#include "solvers/qcd/solves/clover_solve.hpp"

namespace latte::testing {
namespace {

struct CloverSetup {
  GaugeField<double> U;
  Lattice<Spinor<double>> b, x;
  std::unique_ptr<CloverDirac<double>> M;
  std::unique_ptr<CloverEvenOdd<double>> schur;
  explicit CloverSetup(const Geometry& g, const FermionBoundary& boundary = FermionBoundary::periodic())
      : U(g), b(g), x(g) {
    ParallelRng rng(61);
    U.set_random(rng);
    rng.gaussian(b);
    x = zero;
    M = std::make_unique<CloverDirac<double>>(U, 0.1, 1.2, boundary);
    schur = std::make_unique<CloverEvenOdd<double>>(*M);
  }
  SolverReport solve() { return solve_clover_even_odd(*schur, *M, x, b, SolverControl{1e-10, 10000}); }
};

void expect_clover_solve_as_on_one_rank(const FermionBoundary& boundary) {
  CloverSetup one(replicated(lattice4), boundary);
  const SolverReport reference = one.solve();
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    CloverSetup many(g, boundary);
    EXPECT_TRUE(same_as_one_rank(many.M->clover_term().term(), one.M->clover_term().term())) << "clover term";
    EXPECT_TRUE(same_as_one_rank(many.M->clover_term().inverse(), one.M->clover_term().inverse())) << "inverse";
    const SolverReport report = many.solve();
    EXPECT_TRUE(same_result(report.residual_history == reference.residual_history, true)) << "residual history";
    EXPECT_TRUE(same_as_one_rank(many.x, one.x)) << "solution";
  });
}

TEST(DecompositionPhysics, CloverEvenOddSolve) { expect_clover_solve_as_on_one_rank(FermionBoundary::periodic()); }

TEST(DecompositionPhysics, CloverEvenOddSolveAntiperiodic) {
  expect_clover_solve_as_on_one_rank(FermionBoundary::antiperiodic_in_time());
}

}  // namespace
}  // namespace latte::testing
