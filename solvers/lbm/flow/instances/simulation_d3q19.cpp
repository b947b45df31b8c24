// The D3Q19 simulations in double precision (BGK and TRT), compiled once for
// the programs of a build that defines LATTE_PRECOMPILED_LBM (see
// solvers/lbm/flow/precompiled_instances.hpp).
#define LATTE_LBM_D3Q19_INSTANCE template
#include "solvers/lbm/flow/simulation.hpp"
