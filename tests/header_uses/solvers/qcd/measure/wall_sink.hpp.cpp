// solvers/qcd/measure/wall_sink.hpp alone: a propagator summed over timeslices, then contracted.
#include "solvers/qcd/measure/wall_sink.hpp"

void use_wall_sink() {
  latte::Lattice<latte::PropagatorSite<double>> S(latte::Geometry({4, 4, 4, 8}));
  const std::vector<latte::PropagatorSite<double>> wall = latte::wall_sink(S);
  const latte::Coordinate source{0, 0, 0, 0};
  [[maybe_unused]] auto mesons = latte::wall_sink_meson_correlators(wall, wall, source, S.geometry().dims());
  [[maybe_unused]] auto baryons = latte::wall_sink_baryon_correlators(wall, source, S.geometry().dims());
}
