// The mixed-precision Wilson solves and their single-precision operators on
// the lanes of the double ones, compiled once for the programs of a build
// that defines LATTE_PRECOMPILED_QCD (see solvers/qcd/fermions/precompiled_instances.hpp).
#define LATTE_QCD_MIXED_INSTANCE template
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"
