// dsl/expr/operators.hpp and the assignment statement, nothing else: arithmetic of fields and scalars in one statement.
#include "dsl/expr/operators.hpp"
#include "dsl/statements/assign.hpp"

void use_operators() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> a(geometry), b(geometry);
  a = latte::zero;
  b = a * a + 2.0 * a - latte::ComplexD(0.0, 1.0) * a;
}
