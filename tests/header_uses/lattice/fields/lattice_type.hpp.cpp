// lattice/fields/lattice_type.hpp alone: fields made (zero), copied, moved, swapped
// and written from the host. Assigning expressions needs dsl/statements/assign.hpp.
#include "lattice/fields/lattice_type.hpp"

void use_lattice() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<double> a(geometry), b(geometry);
  a.host_view(latte::Access::write).store(latte::LaneSite<double>{0, 0}, 1.0);
  b = a;
  latte::Lattice<double> copy(b);
  a.swap(copy);
  b = std::move(a);
}
