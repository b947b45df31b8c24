// The one copy of Latte's run-time code (layouts, decompositions, shift
// tables, halo buffers, communicators) for the programs that link the
// latte::runtime library instead of compiling it in each of their files
// (platform/runtime_linkage.hpp).

#define LATTE_BUILDING_RUNTIME
#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/displacement_tables.hpp"
#include "lattice/layout/geometry.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/comms/communicator.hpp"
