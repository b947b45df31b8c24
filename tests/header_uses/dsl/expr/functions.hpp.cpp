// dsl/expr/functions.hpp and the assignment statement, nothing else: pointwise functions in a statement.
#include "dsl/expr/functions.hpp"
#include "dsl/statements/assign.hpp"

void use_functions() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> z(geometry);
  latte::Lattice<double> r(geometry);
  z = latte::zero;
  r = latte::real(latte::conj(z));
}
