// The decomposition tests as one translation unit (see suite_core.cpp), run
// at one rank in the ordinary suite and under mpirun.
#include "test_decomposition.cpp"
#include "test_decomposition_physics.cpp"
#include "test_decomposition_clover.cpp"
#include "test_decomposition_files.cpp"
#include "test_decomposition_gauge_files.cpp"
#include "test_halo_staging.cpp"
#include "test_decomposition_hmc.cpp"
#include "test_decomposition_quenched.cpp"
#include "test_decomposition_gauge_fixing.cpp"
#include "test_decomposition_dynamical.cpp"
#include "test_decomposition_multiphysics.cpp"
#include "test_decomposition_hadrons.cpp"
