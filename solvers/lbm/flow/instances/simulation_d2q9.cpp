// The D2Q9 simulations in double precision (BGK and TRT), compiled once for
// the programs of a build that defines LATTE_PRECOMPILED_LBM (see
// solvers/lbm/flow/precompiled_instances.hpp).
#define LATTE_LBM_D2Q9_INSTANCE template
#include "solvers/lbm/flow/simulation.hpp"
