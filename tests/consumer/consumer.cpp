// Uses the installed headers: one statement and one reduction.
#include <cstdio>

#include "dsl/latte.hpp"

int main() {
  latte::Geometry geometry({8, 8, 8, 8});
  latte::Lattice<latte::ComplexD> x(geometry), y(geometry);
  x = latte::ComplexD(1.0, 1.0);
  y = 2.0 * x + latte::shift(x, 3, +1);
  const double expected = 9.0 * 2.0 * static_cast<double>(geometry.volume());  // |3 + 3i|^2 per site
  std::printf("norm2 = %g (expected %g)\n", latte::norm2(y), expected);
  return latte::norm2(y) == expected ? 0 : 1;
}
