// solvers/lbm/io/vtk_output.hpp alone: a scalar and a vector field written as .vti.
#include "solvers/lbm/io/vtk_output.hpp"

void use_vtk_output() {
  using namespace latte;
  const Geometry geometry({8, 4});
  Lattice<double> rho(geometry);
  Lattice<RealVector<double, 2>> u(geometry);
  rho = zero;
  u = zero;
  lbm::VtiWriter(geometry).scalar("density", rho).vector("velocity", u).write("field.vti");
}
