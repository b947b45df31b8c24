// solvers/qcd/gauge/gauge_field.hpp alone: a gauge field, set to unit links.
#include "solvers/qcd/gauge/gauge_field.hpp"

void use_gauge_field() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::GaugeField<double> copy = U;
}
