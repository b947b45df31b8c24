// solvers/qcd/solves/wilson_solve.hpp alone: the README's Wilson solve.
#include "solvers/qcd/solves/wilson_solve.hpp"

void use_wilson_solve() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  latte::ParallelRng rng(1);
  U.set_random(rng);
  latte::WilsonDirac<double> M(U, 0.1);
  latte::Lattice<latte::Spinor<double>> x(geometry), b(geometry);
  rng.gaussian(b);
  x = latte::zero;
  latte::solve_wilson(M, x, b, latte::SolverControl{1e-10, 1000});
  [[maybe_unused]] double r = latte::relative_residual(M, x, b);
}
