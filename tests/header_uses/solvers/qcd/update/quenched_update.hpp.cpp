// solvers/qcd/update/quenched_update.hpp alone: heatbath and overrelaxation sweeps.
#include "solvers/qcd/update/quenched_update.hpp"

void use_quenched_update() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::heatbath_sweep(U, 6.0, 1, 0);
  latte::overrelaxation_sweep(U);
  const latte::QuenchedUpdate update{6.0, 4, 1};
  update.sweep(U, 1);
}
