// lattice/fields/random.hpp alone: gaussian and uniform fields from a parallel RNG.
#include "lattice/fields/random.hpp"

void use_random() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> z(geometry);
  latte::Lattice<double> u(geometry);
  latte::ParallelRng rng(1);
  rng.gaussian(z);
  rng.uniform(u);
}
