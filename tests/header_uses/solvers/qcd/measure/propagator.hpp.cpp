// solvers/qcd/measure/propagator.hpp alone: the README's point propagator.
#include "solvers/qcd/measure/propagator.hpp"

void use_propagator() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  U.set_unit();
  latte::WilsonDirac<double> M(U, 0.1);
  auto [S, report] = latte::point_propagator(M, {0, 0, 0, 0}, latte::SolverControl{1e-10, 1000});
  latte::Lattice<latte::PropagatorSite<double>> sources(geometry);
  latte::point_source(sources, {1, 2, 3, 4});
}
