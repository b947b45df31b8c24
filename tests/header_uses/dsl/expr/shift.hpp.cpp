// dsl/expr/shift.hpp and the assignment statement, nothing else: a stencil statement.
#include "dsl/expr/shift.hpp"
#include "dsl/statements/assign.hpp"

void use_shift() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<double> a(geometry), b(geometry);
  a = latte::zero;
  b = latte::shift(a, 0, +1);
  b += latte::shift(latte::shift(a, 3, -1), 1, +1);
}
