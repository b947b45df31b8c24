// solvers/qcd/io/ildg_gauge_file.hpp alone: an ILDG file written and read.
#include "solvers/qcd/io/ildg_gauge_file.hpp"

void use_ildg_gauge_file() {
  latte::GaugeField<float> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::write_ildg(U, "unit.ildg", latte::IldgWriteOptions{.real_bytes = 4});
  [[maybe_unused]] latte::IldgHeader header = latte::read_ildg(U, "unit.ildg");
}
