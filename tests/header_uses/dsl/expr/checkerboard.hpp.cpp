// dsl/expr/checkerboard.hpp and the assignment statement, nothing else: a field split by parity and merged again.
#include "dsl/expr/checkerboard.hpp"
#include "dsl/statements/assign.hpp"

void use_checkerboard() {
  latte::Geometry whole({4, 4, 4, 8});
  const latte::Geometry even = whole.checkerboard(latte::Parity::even);
  const latte::Geometry odd = whole.checkerboard(latte::Parity::odd);
  latte::Lattice<double> a(whole), a_even(even), a_odd(odd);
  a = latte::zero;
  a_even = latte::pick(latte::Parity::even, a);
  a_odd = latte::shift(a_even, 0, +1);
  a = latte::merge(a_even, a_odd);
}
