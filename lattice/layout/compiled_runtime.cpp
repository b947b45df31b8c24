// The one copy of Latte's run-time code (layouts, decompositions, shift
// tables, halo buffers, communicators) for the programs that link the
// latte::runtime library instead of compiling it in each of their files
// (lattice/runtime_linkage.hpp).

#define LATTE_BUILDING_RUNTIME
#include "backends/comms/communicator.hpp"
#include "lattice/decomposition.hpp"
#include "lattice/displacement_tables.hpp"
#include "lattice/geometry.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/simd_layout.hpp"
