// solvers/qcd/io/openqcd_gauge_file.hpp alone: an openQCD file written and read.
#include "solvers/qcd/io/openqcd_gauge_file.hpp"

void use_openqcd_gauge_file() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::write_openqcd(U, "unit.openqcd");
  [[maybe_unused]] latte::OpenQcdHeader header = latte::read_openqcd(U, "unit.openqcd");
}
