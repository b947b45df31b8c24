#pragma once
// Communicators of a build without MPI: there is one rank, and messages a
// rank sends itself never reach this layer (halo exchanges copy them in
// place), so every operation is either trivial or a programming error.

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "platform/coordinate.hpp"
#include "platform/errors.hpp"

namespace latte {

class Requests {
 public:
  void wait_all() {}
  bool empty() const { return true; }
};

class Communicator {
 public:
  int rank() const { return 0; }
  int size() const { return 1; }
  bool alone() const { return true; }
  bool same_as(const Communicator&) const { return true; }
  std::string describe() const { return "one rank (a build without MPI)"; }

  Coordinate coordinates(int dimensions) const { return Coordinate(dimensions, 0); }
  Coordinate coordinates_of(int, int dimensions) const { return Coordinate(dimensions, 0); }
  int rank_at(const Coordinate&) const { return 0; }

  void receive_async(void*, std::size_t, int source, int, Requests&) const { no_peer(source); }
  void send_async(const void*, std::size_t, int destination, int, Requests&) const { no_peer(destination); }

  void all_gather(const void* mine, std::size_t bytes, void* all) const { std::memcpy(all, mine, bytes); }
  void broadcast(void*, std::size_t, int) const {}
  bool all_true(bool value) const { return value; }
  void barrier() const {}
  std::string first_failure(const std::string& mine) const { return mine; }

 private:
  [[noreturn]] static void no_peer(int rank) {
    throw CommunicationError("Latte: a message to or from rank " + std::to_string(rank) +
                             " in a build without MPI (one rank)");
  }
};

inline Communicator world_communicator() { return {}; }
inline Communicator self_communicator() { return {}; }
inline Communicator cartesian_communicator(const Coordinate&) { return {}; }

namespace comms {
inline bool built_with_mpi() { return false; }
inline void initialize(int*, char***) {}
inline void finalize() {}
[[noreturn]] inline void abort_job(const std::string& why) {
  std::fprintf(stderr, "Latte: %s\n", why.c_str());
  std::abort();
}
}  // namespace comms

}  // namespace latte
