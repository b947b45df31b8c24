#pragma once
// The ranks a lattice is spread over, and how they talk. This is the one
// place that knows whether the build has MPI (CMake option LATTE_MPI):
//   - with MPI, a program started by mpirun (or srun) initialises MPI the
//     first time it needs a communicator, or when it makes a
//     latte::Environment; a program of the same build started on its own
//     never calls MPI at all and is one rank;
//   - without MPI, every communicator is this rank alone.
// Both give the same interface (Communicator, Requests, world_communicator,
// cartesian_communicator), so nothing above this header names MPI.

#if defined(LATTE_MPI)
#include "backends/comms/mpi_communicator.hpp"
#else
#include "backends/comms/serial_communicator.hpp"
#endif
