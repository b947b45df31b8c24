// dsl/functions.hpp alone: pointwise functions in a statement.
#include "dsl/functions.hpp"

void use_functions() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> z(geometry);
  latte::Lattice<double> r(geometry);
  z = latte::zero;
  r = latte::real(latte::conj(z));
}
