// dsl/expr/spin.hpp and the assignment statement, nothing else: a gamma matrix applied to a spinor field.
#include "dsl/expr/spin.hpp"
#include "dsl/statements/assign.hpp"

void use_spin() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::Spinor<double>> psi(geometry), chi(geometry);
  psi = latte::zero;
  chi = latte::gamma5(psi);
}
