// The lattice QCD tests as one translation unit (see suite_core.cpp): the
// Wilson and clover operators, their solvers and gauge files share their
// instantiations.
#include "test_wilson.cpp"
#include "test_cg.cpp"
#include "test_even_odd.cpp"
#include "test_multi_rhs.cpp"
#include "test_gauge_io.cpp"
#include "test_ildg_files.cpp"
#include "test_gauge_formats.cpp"
#include "test_gauge_file_recipe.cpp"
#include "test_fuzz_regression_nersc.cpp"
#include "test_fuzz_regression_gauge_formats.cpp"
#include "test_qcd_statement_models.cpp"
#include "test_propagator.cpp"
#include "test_evaluators.cpp"
#include "test_fermion_interface.cpp"
#include "test_fermion_boundary.cpp"
#include "test_clover.cpp"
