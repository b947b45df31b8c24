// solvers/qcd/fermions/wilson_dirac.hpp alone: the Wilson operator and its adjoint.
#include "solvers/qcd/fermions/wilson_dirac.hpp"

void use_wilson_dirac() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::GaugeField<double> U(geometry);
  U.set_unit();
  latte::WilsonDirac<double> M(U, 0.1);
  latte::Lattice<latte::Spinor<double>> psi(geometry), chi(geometry);
  psi = latte::zero;
  M.apply(chi, psi);
  M.apply_dagger(psi, chi);
}
