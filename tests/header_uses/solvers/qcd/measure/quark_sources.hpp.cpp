// solvers/qcd/measure/quark_sources.hpp alone: wall and gaussian sources, Wilson and clover propagators.
#include "solvers/qcd/measure/quark_sources.hpp"

void use_quark_sources() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  U.set_unit();
  latte::Lattice<latte::PropagatorSite<double>> sources(geometry);
  latte::wall_source(sources, 2);
  latte::gaussian_source(sources, {1, 2, 3, 4}, 2.0);
  const latte::SolverControl control{1e-10, 1000};
  [[maybe_unused]] auto wilson = latte::solve_propagator(latte::WilsonDirac<double>(U, 0.1), sources, control);
  [[maybe_unused]] auto clover = latte::solve_propagator(latte::CloverDirac<double>(U, 0.1, 1.0), sources, control);
}
