// solvers/qcd/measure/meson_contractions.hpp alone: the 16 diagonal channels at two momenta, rotated to the source.
#include "solvers/qcd/measure/meson_contractions.hpp"

void use_meson_contractions() {
  latte::Lattice<latte::PropagatorSite<double>> S(latte::Geometry({4, 4, 4, 8}));
  const latte::Coordinate source{0, 0, 0, 2};
  const latte::MesonCorrelators C = latte::meson_correlators(S, source, {{0, 0, 0}, {1, 0, 0}});
  [[maybe_unused]] latte::MesonCorrelators rotated = latte::rotated_to_source(latte::average_equivalent_momenta(C));
}
