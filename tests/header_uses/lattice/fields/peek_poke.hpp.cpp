// lattice/fields/peek_poke.hpp alone: one site read and written.
#include "lattice/fields/peek_poke.hpp"

void use_peek_poke() {
  latte::Lattice<double> a(latte::Geometry({4, 4, 4, 8}));
  const latte::Coordinate x{1, 2, 3, 4};
  latte::poke(a, x, 2.0);
  [[maybe_unused]] double v = latte::peek(a, x);
}
