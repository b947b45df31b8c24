// solvers/qcd/fermions/fermion_boundary.hpp alone: the boundary angles, their text
// and the parser.
#include "solvers/qcd/fermions/fermion_boundary.hpp"

bool use_fermion_boundary() {
  const latte::FermionBoundary b = latte::parse_fermion_boundary("twisted:0.5,0,0,1");
  return b.describe() == latte::FermionBoundary::antiperiodic_in_time().describe() || b.is_periodic() ||
         b.phase(3)[0] < 0;
}
