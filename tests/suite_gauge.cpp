// The gauge-field tests as one translation unit (see suite_core.cpp): SU(3)
// algebra, gauge actions and forces, HMC, gradient flow and smearing share
// their instantiations.
#include "test_su3_algebra.cpp"
#include "test_gauge_action.cpp"
#include "test_hmc.cpp"
#include "test_source_smearing.cpp"
#include "test_gradient_flow.cpp"
#include "test_smearing.cpp"
#include "test_quenched_update.cpp"
#include "test_hmc_heatbath.cpp"
#include "test_fermion_force.cpp"
#include "test_dynamical_hmc.cpp"
#include "test_rational_hmc.cpp"
#include "test_twisted_mass.cpp"
