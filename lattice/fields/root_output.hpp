#pragma once
// Files made from gathered data (pictures, VTK, tables) are written once, by
// rank 0 of the job. write_on_root is collective: every rank calls it, rank
// 0 runs `write`, and a failure there (a missing directory, a full disk) is
// thrown on every rank with the same message, so no rank goes on while
// another stops.

#include <exception>
#include <stdexcept>
#include <string>

#include "platform/comms/communicator.hpp"

namespace latte {

template <class Write>
void write_on_root(Write&& write) {
  const Communicator world = world_communicator();
  std::string failure;
  if (world.rank() == 0) {
    try {
      write();
    } catch (const std::exception& error) {
      failure = error.what();
      if (failure.empty()) failure = "an output file could not be written";
    }
  }
  failure = world.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace latte
