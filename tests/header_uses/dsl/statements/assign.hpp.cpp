// dsl/statements/assign.hpp alone: statements assigning fields and constants.
#include "dsl/statements/assign.hpp"

void use_assign() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> a(geometry), b(geometry);
  a = latte::ComplexD(1.0, 0.0);
  b = a;
  b -= a;
}
