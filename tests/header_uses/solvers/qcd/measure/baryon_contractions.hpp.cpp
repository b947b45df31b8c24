// solvers/qcd/measure/baryon_contractions.hpp alone: proton and Delta, rotated across an antiperiodic boundary.
#include "solvers/qcd/measure/baryon_contractions.hpp"

void use_baryon_contractions() {
  latte::Lattice<latte::PropagatorSite<double>> S(latte::Geometry({4, 4, 4, 8}));
  const latte::Coordinate source{0, 0, 0, 2};
  const latte::BaryonCorrelators C = latte::baryon_correlators(S, source);
  [[maybe_unused]] latte::BaryonCorrelators rotated =
      latte::rotated_to_source(C, latte::FermionBoundary::antiperiodic_in_time());
  [[maybe_unused]] latte::Correlator delta = C.delta_average(0);
}
