// lattice/fields/slice_sum.hpp alone: a real field (zero when made) summed over each timeslice, and a complex one's two parts.
#include "lattice/fields/slice_sum.hpp"

void use_slice_sum() {
  latte::Lattice<double> density(latte::Geometry({4, 4, 4, 8}));
  [[maybe_unused]] std::vector<double> per_timeslice = latte::slice_sum(density, 3);
  latte::Lattice<latte::Complex<double>> amplitude(latte::Geometry({4, 4, 4, 8}));
  [[maybe_unused]] std::vector<std::vector<double>> re_and_im = latte::slice_sums(amplitude, 3);
}
