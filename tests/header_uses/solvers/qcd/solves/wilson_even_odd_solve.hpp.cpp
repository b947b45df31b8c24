// solvers/qcd/solves/wilson_even_odd_solve.hpp alone: an even-odd preconditioned solve.
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"

void use_wilson_even_odd() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  U.set_unit();
  latte::WilsonDirac<double> M(U, 0.1);
  latte::Lattice<latte::Spinor<double>> x(geometry), b(geometry);
  b = latte::zero;
  x = latte::zero;
  latte::solve_wilson_even_odd(M, x, b, latte::SolverControl{1e-10, 1000});
}
