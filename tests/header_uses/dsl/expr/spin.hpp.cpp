// dsl/spin.hpp alone: a gamma matrix applied to a spinor field.
#include "dsl/spin.hpp"

void use_spin() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::Spinor<double>> psi(geometry), chi(geometry);
  psi = latte::zero;
  chi = latte::gamma5(psi);
}
