// The Wilson operators and solves in single precision, compiled once for the
// programs of a build that defines LATTE_PRECOMPILED_QCD (see
// solvers/qcd/fermions/precompiled_instances.hpp).
#define LATTE_QCD_SINGLE_INSTANCE template
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
