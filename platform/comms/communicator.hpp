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
#include "platform/comms/mpi_communicator.hpp"
#else
#include "platform/comms/serial_communicator.hpp"
#endif

#include <vector>

namespace latte {

// One number from every rank of a communicator, added in rank order: the
// same total on every rank (collective). For checksums (sums modulo 2^32 or
// 2^64 of unsigned words) and sums checked to a tolerance, not for the
// reductions of fields, which have their own reproducible sums.
template <class Number>
Number sum_over_ranks(const Communicator& communicator, Number mine) {
  std::vector<Number> all(static_cast<std::size_t>(communicator.size()));
  communicator.all_gather(&mine, sizeof mine, all.data());
  Number total = 0;
  for (Number n : all) total += n;
  return total;
}

}  // namespace latte
