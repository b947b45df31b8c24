// solvers/qcd/solves/wilson_solve_mixed.hpp alone: a mixed-precision solve.
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"

// An SSE2 CPU build has no 8-byte float vector, hence no single width to match.
#if !(LATTE_SIMD_BYTES == 16 && !defined(LATTE_BACKEND_SIMT) && !defined(LATTE_BACKEND_CUDA))
void use_wilson_solve_mixed() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  U.set_unit();
  latte::WilsonDirac<double> M(U, 0.1);
  latte::Lattice<latte::Spinor<double>> x(geometry), b(geometry);
  b = latte::zero;
  x = latte::zero;
  latte::solve_wilson_mixed(M, x, b, latte::SolverControl{1e-10, 1000});
}
#endif
