// dsl/statements/reduce.hpp alone: the reductions of a field.
#include "dsl/statements/reduce.hpp"

void use_reduce() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> a(geometry);
  a = latte::zero;
  [[maybe_unused]] double n = latte::norm2(a);
  [[maybe_unused]] latte::ComplexD z = latte::innerProduct(a, a);
  [[maybe_unused]] latte::ComplexD s = latte::sum(a);
}
