// solvers/qcd/measure/hadron_correlators.hpp alone: the pion correlator of a propagator field.
#include "solvers/qcd/measure/hadron_correlators.hpp"

void use_hadron_correlators() {
  latte::Lattice<latte::PropagatorSite<double>> S(latte::Geometry({4, 4, 4, 8}));
  [[maybe_unused]] std::vector<double> C = latte::pion_correlator(S);
}
