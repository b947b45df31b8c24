#pragma once
// latte::Environment: the one line that starts and ends a program of many
// ranks,
//
//   int main(int argc, char** argv) {
//     latte::Environment environment(argc, argv);
//     ...
//   }
//
// It starts MPI when the program was launched by mpirun (or srun; a program
// started on its own is one rank and never calls MPI), reads the
// command-line flags below (and removes them, so the program's own parser
// does not see them), and at the end finalises MPI. A program without an
// Environment still works under mpirun: MPI then starts when the first
// lattice needs it and ends at exit.
//
//   --process-grid 1.1.2.2     ranks per dimension (Grid's --mpi is accepted too);
//                              the default splits the slowest dimensions first
//   --force-communication all  shifts go through halos even within one rank
//                              (or a mask such as 0.0.1.1)
//   --no-overlap               exchange halos before computing any site
//   --all-ranks-print          keep the standard output of every rank
//
// A report is printed once: on ranks other than 0 the standard output goes
// to /dev/null (as Grid's and Chroma's messages print on rank 0 only), so a
// program's printf and std::cout need no rank test and print the same under
// mpirun as on one rank. Standard error stays open on every rank: an error
// is not hidden because another rank did not have it. LATTE_ALL_RANKS_PRINT=1
// in the environment is the same as --all-ranks-print.
//
// If an exception leaves the Environment's scope, or reaches std::terminate,
// on any rank, the whole job is aborted with the message (MPI_Abort): the
// other ranks may be waiting for this one in a collective, and a job must
// not hang.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "lattice/layout/decomposition.hpp"
#include "platform/comms/communicator.hpp"

namespace latte {

// Reports that need the job still running (the statement profile measures
// its STREAM reference and prints on rank 0) hook in here; they run when
// the Environment ends, before MPI does.
inline void (*&report_before_finalize())() {
  static void (*report)() = nullptr;
  return report;
}

class Environment {
 public:
  Environment(int& argc, char**& argv) {
    comms::initialize(&argc, &argv);
    read_flags(argc, argv);
    quiet_other_ranks();
  }
  Environment() {
    comms::initialize(nullptr, nullptr);
    quiet_other_ranks();
  }
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  ~Environment() {
    if (std::uncaught_exceptions() > 0)
      comms::abort_job("an exception is leaving the scope of latte::Environment; the other ranks are stopped too");
    if (report_before_finalize()) report_before_finalize()();
    comms::finalize();
  }

  int rank() const { return world_communicator().rank(); }
  int ranks() const { return world_communicator().size(); }
  // The rank that prints reports.
  bool is_root() const { return rank() == 0; }

 private:
  static bool& all_ranks_print() {
    static bool all = [] {
      const char* v = std::getenv("LATTE_ALL_RANKS_PRINT");
      return v && std::string(v) != "0";
    }();
    return all;
  }
  static void quiet_other_ranks() {
    if (world_communicator().rank() == 0 || all_ranks_print()) return;
    std::fflush(stdout);
    if (!std::freopen("/dev/null", "w", stdout))
      std::fprintf(stderr, "Latte: rank %d could not silence its standard output\n", world_communicator().rank());
  }

  static void read_flags(int& argc, char** argv) {
    DecompositionDefaults& defaults = DecompositionDefaults::instance();
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
      const char* flag = argv[i];
      const bool has_value = i + 1 < argc;
      if ((std::strcmp(flag, "--process-grid") == 0 || std::strcmp(flag, "--mpi") == 0) && has_value) {
        defaults.process_grid = argv[++i];
        parse_dotted(defaults.process_grid, std::string("the process grid (") + flag + ")");
      } else if (std::strcmp(flag, "--force-communication") == 0 && has_value) {
        defaults.force_communication = argv[++i];
        if (defaults.force_communication != "all")
          parse_dotted(defaults.force_communication, "the forced-communication mask (--force-communication)");
      } else if (std::strcmp(flag, "--no-overlap") == 0) {
        defaults.overlap = false;
      } else if (std::strcmp(flag, "--all-ranks-print") == 0) {
        all_ranks_print() = true;
      } else {
        argv[kept++] = argv[i];
      }
    }
    argc = kept;
    argv[argc] = nullptr;
  }
};

// The rank of this process in the job (0 without MPI), and how many there are.
inline int rank() { return world_communicator().rank(); }
inline int ranks() { return world_communicator().size(); }

}  // namespace latte
