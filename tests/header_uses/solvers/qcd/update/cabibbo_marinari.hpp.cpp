// solvers/qcd/update/cabibbo_marinari.hpp alone: one link's updates as site functors.
#include "solvers/qcd/update/cabibbo_marinari.hpp"

void use_cabibbo_marinari() {
  const latte::ColourMatrix<double> u = latte::su3::identity<double>(), staples = latte::su3::identity<double>();
  latte::HeatbathUniforms<double> uniforms{};
  [[maybe_unused]] const auto drawn = latte::functors::CabibboMarinariHeatbath{6.0}(u, staples, uniforms);
  [[maybe_unused]] const auto reflected = latte::functors::CabibboMarinariOverrelaxation{}(u, staples);
}
