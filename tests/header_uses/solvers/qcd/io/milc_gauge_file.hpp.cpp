// solvers/qcd/io/milc_gauge_file.hpp alone: a MILC file read.
#include "solvers/qcd/io/milc_gauge_file.hpp"

void use_milc_gauge_file() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  [[maybe_unused]] latte::MilcHeader header = latte::read_milc(U, "config.milc");
}
