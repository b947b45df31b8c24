// lattice/fields/slice_sum.hpp alone: a real field (zero when made) summed over each timeslice.
#include "lattice/fields/slice_sum.hpp"

void use_slice_sum() {
  latte::Lattice<double> density(latte::Geometry({4, 4, 4, 8}));
  [[maybe_unused]] std::vector<double> per_timeslice = latte::slice_sum(density, 3);
}
