// solvers/qcd/fermions/boundary_links.hpp alone: the links of an antiperiodic
// operator, a phased copy of the gauge field.
#include "solvers/qcd/fermions/boundary_links.hpp"

bool use_boundary_links() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  U.set_unit();
  const latte::BoundaryLinks<double> links(U, latte::FermionBoundary::antiperiodic_in_time());
  latte::GaugeField<float> V(geometry);
  V.set_unit();
  latte::apply_boundary_phases(V, latte::FermionBoundary::twisted(0.5, 0, 0, 0));
  return links.phased() && &links.links() != &U;
}
