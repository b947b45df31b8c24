// solvers/qcd/gauge/gauge_observables.hpp alone: the plaquette of a gauge field.
#include "solvers/qcd/gauge/gauge_observables.hpp"

void use_gauge_observables() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  [[maybe_unused]] double plaquette = latte::average_plaquette(U);
}
