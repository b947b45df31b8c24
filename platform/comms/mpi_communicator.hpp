#pragma once
// Communicators of an MPI build (see communicator.hpp for the policy).
//
// Every MPI call goes through check(): our communicators return errors
// (MPI_ERRORS_RETURN) instead of aborting silently, and a failure becomes a
// CommunicationError naming the call, this rank and MPI's text. An exception
// that would end the program on one rank while the others wait in a
// collective aborts the whole job instead (abort_job, installed as the
// terminate handler when MPI starts): a library call never hangs a job.

#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "platform/coordinate.hpp"
#include "platform/errors.hpp"
#include "platform/runtime_linkage.hpp"

namespace latte {

namespace comms {

inline bool built_with_mpi() { return true; }

struct MpiState {
  std::mutex mutex;
  bool initialized_here = false;                // we called MPI_Init, so we finalise
  std::map<Coordinate, MPI_Comm> cartesian;     // one communicator per process grid, freed at finalize
};
inline MpiState& mpi_state() {
  static MpiState state;
  return state;
}

inline bool mpi_active() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

inline int world_rank() {
  int rank = 0;
  if (mpi_active()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Stop every rank: the last resort when one rank cannot go on and the
// others may be waiting for it in a collective.
[[noreturn]] inline void abort_job(const std::string& why) {
  if (mpi_active()) {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::fprintf(stderr, "Latte: rank %d of %d stops the job: %s\n", world_rank(), size, why.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::fprintf(stderr, "Latte: %s\n", why.c_str());
  std::abort();
}

[[noreturn]] inline void terminate_job() {
  std::string what = "std::terminate was called without an exception";
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& error) {
      what = std::string("uncaught exception: ") + error.what();
    } catch (...) {
      what = "uncaught exception of a type not derived from std::exception";
    }
  }
  abort_job(what);
}

LATTE_RUNTIME_INLINE void check(int code, const char* call);

// Was this process started by an MPI launcher? Only then does a program of
// an MPI build initialise MPI on its own (singleton initialisation is slow
// and fails in some containers). LATTE_MPI_INIT=1 insists, =0 refuses.
inline bool launched_by_mpi() {
  if (const char* insist = std::getenv("LATTE_MPI_INIT")) return std::string(insist) != "0";
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(variable)) return true;
  return false;
}

LATTE_RUNTIME_INLINE void finalize();

// Start MPI if this process was launched by an MPI launcher and MPI is not
// running yet (argc/argv may be null). Statements call MPI from the thread
// that issues them only: MPI_THREAD_FUNNELED.
// Open MPI 4.1 and 5.0 come with MPI-IO (OMPIO) whose data sieving
// corrupts collective writes of many small pieces now and then (Open MPI
// issue 12718: a rank's bytes overwritten by an aggregator's stale copy;
// seen here as one checkpoint in two differing from one rank's). Unless the
// user chose otherwise, sieving is switched off before MPI starts; the
// parallel files write whole rows of a block, for which it gains nothing.
inline void avoid_known_mpi_io_faults() {
#if defined(OMPI_MAJOR_VERSION) && (OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION >= 1 || OMPI_MAJOR_VERSION == 5)
  setenv("OMPI_MCA_fbtl_posix_write_datasieving", "0", /*overwrite=*/0);
  setenv("OMPI_MCA_fbtl_posix_read_datasieving", "0", /*overwrite=*/0);
#endif
}

LATTE_RUNTIME_INLINE void initialize(int* argc, char*** argv);

inline bool ensure_started() {
  if (mpi_active()) return true;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || !launched_by_mpi()) return false;
  initialize(nullptr, nullptr);
  return mpi_active();
}

}  // namespace comms

// Outstanding non-blocking messages of one statement. The storage is kept
// between statements, so an iteration that repeats them allocates nothing.
class Requests {
 public:
  void wait_all() {
    if (requests_.empty()) return;
    const int count = static_cast<int>(requests_.size());
    const int code = MPI_Waitall(count, requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
    comms::check(code, "MPI_Waitall (a halo exchange)");
  }
  bool empty() const { return requests_.empty(); }
  MPI_Request* add() {
    requests_.push_back(MPI_REQUEST_NULL);
    return &requests_.back();
  }

 private:
  std::vector<MPI_Request> requests_;
};

class Communicator {
 public:
  Communicator() = default;  // this rank alone
  explicit Communicator(MPI_Comm comm) : comm_(comm) {}

  int rank() const {
    int r = 0;
    if (comm_ != MPI_COMM_NULL) MPI_Comm_rank(comm_, &r);
    return r;
  }
  int size() const {
    int s = 1;
    if (comm_ != MPI_COMM_NULL) MPI_Comm_size(comm_, &s);
    return s;
  }
  bool alone() const { return comm_ == MPI_COMM_NULL; }
  bool same_as(const Communicator& other) const { return comm_ == other.comm_; }
  std::string describe() const {
    return alone() ? "this rank alone" : std::to_string(size()) + " ranks";
  }

  // This rank's place in a Cartesian communicator's process grid.
  Coordinate coordinates(int dimensions) const {
    Coordinate c(dimensions, 0);
    if (!alone()) comms::check(MPI_Cart_coords(comm_, rank(), dimensions, c.data()), "MPI_Cart_coords");
    return c;
  }
  // The place of another rank.
  Coordinate coordinates_of(int other, int dimensions) const {
    Coordinate c(dimensions, 0);
    if (!alone()) comms::check(MPI_Cart_coords(comm_, other, dimensions, c.data()), "MPI_Cart_coords");
    return c;
  }
  // The rank at a place of the (periodic) process grid.
  int rank_at(const Coordinate& place) const {
    if (alone()) return 0;
    int r = 0;
    comms::check(MPI_Cart_rank(comm_, place.data(), &r), "MPI_Cart_rank");
    return r;
  }

  void receive_async(void* data, std::size_t bytes, int source, int tag, Requests& requests) const {
    comms::check(MPI_Irecv(data, count_of(bytes), MPI_BYTE, source, tag, comm_, requests.add()),
                 "MPI_Irecv (a halo exchange)");
  }
  void send_async(const void* data, std::size_t bytes, int destination, int tag, Requests& requests) const {
    comms::check(MPI_Isend(data, count_of(bytes), MPI_BYTE, destination, tag, comm_, requests.add()),
                 "MPI_Isend (a halo exchange)");
  }

  // Collectives: every rank of the communicator calls them, in the same order.
  void all_gather(const void* mine, std::size_t bytes, void* all) const {
    if (alone()) {
      std::memcpy(all, mine, bytes);
      return;
    }
    comms::check(MPI_Allgather(mine, count_of(bytes), MPI_BYTE, all, count_of(bytes), MPI_BYTE, comm_),
                 "MPI_Allgather (a reduction)");
  }
  void broadcast(void* data, std::size_t bytes, int root) const {
    if (!alone()) comms::check(MPI_Bcast(data, count_of(bytes), MPI_BYTE, root, comm_), "MPI_Bcast");
  }
  bool all_true(bool value) const {
    if (alone()) return value;
    int mine = value ? 1 : 0, all = 0;
    comms::check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm_), "MPI_Allreduce (an agreement)");
    return all != 0;
  }
  void barrier() const {
    if (!alone()) comms::check(MPI_Barrier(comm_), "MPI_Barrier");
  }
  // Every rank passes its failure (empty: none); every rank gets the same
  // answer, the failure of the lowest-numbered rank that failed (empty if
  // none did), so that all ranks can throw the same error together.
  std::string first_failure(const std::string& mine) const {
    if (alone()) return mine;
    std::vector<int> failed(static_cast<std::size_t>(size()));
    const int me = mine.empty() ? 0 : 1;
    all_gather(&me, sizeof me, failed.data());
    int source = -1;
    for (std::size_t r = 0; r < failed.size() && source < 0; ++r)
      if (failed[r]) source = static_cast<int>(r);
    if (source < 0) return {};
    std::uint64_t length = mine.size();
    broadcast(&length, sizeof length, source);
    std::string message(static_cast<std::size_t>(length), '\0');
    if (rank() == source) message = mine;
    broadcast(message.data(), message.size(), source);
    return message;
  }
  MPI_Comm handle() const { return comm_; }

 private:
  static int count_of(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(2147483647))
      throw CommunicationError("Latte: a message of " + std::to_string(bytes) + " bytes is beyond MPI's int count");
    return static_cast<int>(bytes);
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// All ranks of the job (this rank alone when MPI is not running).
inline Communicator world_communicator() {
  return comms::ensure_started() ? Communicator(MPI_COMM_WORLD) : Communicator();
}
inline Communicator self_communicator() { return {}; }

// A periodic Cartesian communicator over the process grid (its product must
// be the number of ranks), made once per grid: the first request for a grid
// is a collective call on every rank.
LATTE_RUNTIME_INLINE Communicator cartesian_communicator(const Coordinate& grid);

#if LATTE_RUNTIME_DEFINITIONS  // platform/runtime_linkage.hpp
LATTE_RUNTIME_INLINE void comms::check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw CommunicationError("Latte: " + std::string(call) + " failed on rank " + std::to_string(world_rank()) + ": " +
                           std::string(text, static_cast<std::size_t>(length)));
}

LATTE_RUNTIME_INLINE void comms::finalize() {
  if (!mpi_active()) return;
  MpiState& state = mpi_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  for (auto& [grid, comm] : state.cartesian) MPI_Comm_free(&comm);
  state.cartesian.clear();
  if (state.initialized_here) MPI_Finalize();
}

LATTE_RUNTIME_INLINE void comms::initialize(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized || !launched_by_mpi()) return;
  avoid_known_mpi_io_faults();
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  mpi_state().initialized_here = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::set_terminate(terminate_job);
  std::atexit(finalize);  // for programs without a latte::Environment
}

LATTE_RUNTIME_INLINE Communicator cartesian_communicator(const Coordinate& grid) {
  if (!comms::ensure_started()) return {};
  comms::MpiState& state = comms::mpi_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.cartesian.find(grid);
  if (found == state.cartesian.end()) {
    MPI_Comm comm = MPI_COMM_NULL;
    const std::vector<int> periodic(grid.size(), 1);
    comms::check(MPI_Cart_create(MPI_COMM_WORLD, static_cast<int>(grid.size()), grid.data(), periodic.data(),
                                 /*reorder=*/0, &comm),
                 "MPI_Cart_create");
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    found = state.cartesian.emplace(grid, comm).first;
  }
  return Communicator(found->second);
}
#endif  // LATTE_RUNTIME_DEFINITIONS

}  // namespace latte
