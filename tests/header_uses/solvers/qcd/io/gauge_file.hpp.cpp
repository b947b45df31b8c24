// solvers/qcd/io/gauge_file.hpp alone: a gauge file written in each format and read.
#include "solvers/qcd/io/gauge_file.hpp"

void use_gauge_file() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::write_gauge(U, "unit.ildg", latte::GaugeFileFormat::ildg, 32);
  latte::write_gauge(U, "unit.openqcd", latte::GaugeFileFormat::openqcd);
  [[maybe_unused]] latte::GaugeFileInfo info = latte::read_gauge(U, "unit.ildg");
  info = latte::read_gauge_file_info("unit.openqcd");
}
