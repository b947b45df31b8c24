// Multi-shift CG on the even-odd Wilson normal operator spread over ranks
// gives the very bits of one rank: every shift's solution, the base
// system's residual history and the iteration at which each shift stopped.

#include <vector>

#include "decomposition_support.hpp"
#include "solvers/krylov/multi_shift_conjugate_gradient.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte::testing {
namespace {

struct MultiShiftSetup {
  Geometry even;
  GaugeField<double> U;
  Lattice<Spinor<double>> b;
  std::vector<Lattice<Spinor<double>>> x;
  explicit MultiShiftSetup(const Geometry& g) : even(g.checkerboard(Parity::even)), U(g), b(even) {
    ParallelRng rng(41);
    U.set_random(rng);
    rng.gaussian(b);
  }
  SolverReport solve() {
    const WilsonEvenOdd<double> schur(U, 0.08);
    const NormalOperator<WilsonEvenOdd<double>> A(schur);
    MultiShiftControl control;
    control.tolerances = {1e-10};
    control.keep_history = true;
    return multi_shift_conjugate_gradient(A, std::vector<double>{1e-3, 0.01, 0.1, 1.0}, x, b, control);
  }
};

TEST(DecompositionPhysics, MultiShiftSolve) {
  MultiShiftSetup one(replicated(lattice4));
  const SolverReport reference = one.solve();
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    MultiShiftSetup many(g);
    const SolverReport report = many.solve();
    EXPECT_TRUE(same_result(report.residual_history == reference.residual_history, true)) << "residual history";
    EXPECT_TRUE(same_result(report.rhs_iterations == reference.rhs_iterations, true)) << "iterations per shift";
    for (std::size_t k = 0; k < one.x.size(); ++k) EXPECT_TRUE(same_as_one_rank(many.x[k], one.x[k])) << "shift " << k;
  });
}

}  // namespace
}  // namespace latte::testing
