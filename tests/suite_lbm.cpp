// The lattice-Boltzmann tests as one translation unit (see suite_core.cpp).
#include "test_lbm_conservation.cpp"
#include "test_lbm_flows.cpp"
#include "test_lbm_layouts.cpp"
#include "test_lbm_io.cpp"
#include "test_lbm_duct.cpp"
#include "test_lbm_mrt.cpp"
#include "test_fuzz_regression_checkpoint.cpp"
#include "test_lbm_statement_models.cpp"
