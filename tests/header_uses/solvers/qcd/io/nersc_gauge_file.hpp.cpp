// solvers/qcd/io/nersc_gauge_file.hpp alone: a gauge file written and read.
#include "solvers/qcd/io/nersc_gauge_file.hpp"

void use_nersc_gauge_file() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::write_nersc(U, "unit.nersc");
  latte::read_nersc(U, "unit.nersc");
  [[maybe_unused]] std::int64_t bytes = latte::read_nersc_header("unit.nersc").data_bytes();
}
