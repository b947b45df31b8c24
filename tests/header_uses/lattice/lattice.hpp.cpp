// lattice/lattice.hpp alone: fields, and statements assigning to them.
#include "lattice/lattice.hpp"

void use_lattice() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<double> a(geometry), b(geometry);
  a = latte::zero;
  b = a;
  b += a;
  latte::Lattice<double> copy(b);
}
