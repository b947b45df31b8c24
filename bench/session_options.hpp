#pragma once
// The command-line options every benchmark shares (repetitions, STREAM size,
// interleaving, waiting for a quiet machine), so that they read alike.

#include "bench/session.hpp"
#include "examples/command_line.hpp"

namespace latte::bench {

inline void add_session_options(programs::CommandLine& cli, SessionOptions& options) {
  cli.option("-r,--repetitions", options.repetitions, "timed kernel calls (best is reported)").positive().show_default();
  cli.option("-w,--warmup", options.warmup, "untimed kernel calls first").non_negative().show_default();
  cli.flag("!--no-interleave", options.interleave,
           "time kernel calls back to back (warm caches) instead of after one STREAM pass each");
  cli.option("--quiet-wait", options.quiet_wait,
             "wait up to this many seconds for other processes to leave the CPUs before measuring")
      .non_negative()
      .show_default();
  cli.option("--scaling", options.scaling,
             "strong: the lattice extents are the global lattice (the default); weak: they are each rank's "
             "block, and the global lattice grows with the ranks")
      .one_of({"strong", "weak"})
      .show_default();
  cli.option("--stream-elements", options.stream.elements, "doubles per STREAM array").positive().show_default();
  cli.option("--stream-repetitions", options.stream.repetitions,
             "passes of the STREAM probes before and after the kernels")
      .positive()
      .show_default();
}

}  // namespace latte::bench
