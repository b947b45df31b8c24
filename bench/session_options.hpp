#pragma once
// The command-line options every benchmark shares (repetitions, STREAM size,
// interleaving, waiting for a quiet machine), so that they read alike.

#include <CLI/CLI.hpp>

#include "bench/session.hpp"

namespace latte::bench {

inline void add_session_options(CLI::App& app, SessionOptions& options) {
  app.add_option("-r,--repetitions", options.repetitions, "timed kernel calls (best is reported)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("-w,--warmup", options.warmup, "untimed kernel calls first")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("!--no-interleave", options.interleave,
               "time kernel calls back to back (warm caches) instead of after one STREAM pass each");
  app.add_option("--quiet-wait", options.quiet_wait,
                 "wait up to this many seconds for other processes to leave the CPUs before measuring")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--scaling", options.scaling,
                 "strong: the lattice extents are the global lattice (the default); weak: they are each rank's "
                 "block, and the global lattice grows with the ranks")
      ->check(CLI::IsMember({"strong", "weak"}))
      ->capture_default_str();
  app.add_option("--stream-elements", options.stream.elements, "doubles per STREAM array")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--stream-repetitions", options.stream.repetitions,
                 "passes of the STREAM probes before and after the kernels")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

}  // namespace latte::bench
