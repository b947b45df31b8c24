#pragma once
// The measuring discipline shared by every benchmark binary, so that their
// JSON lines mean the same thing:
//
// - Every figure, kernel and STREAM alike, is the BEST of its repetitions.
//   On a shared machine noise only ever slows a run down, so the best is the
//   least noisy estimate, and taking it on both sides keeps ratios fair.
// - STREAM runs in the same process: a full probe before and after the
//   kernels and, by default, one copy+triad pass before every timed kernel
//   call. A kernel's fraction_of_stream is then taken against the best triad
//   pass interleaved with its own calls, i.e. the bandwidth the machine gave
//   within the same few hundred milliseconds. (This VM's bandwidth swings
//   between ~30 and ~80 GB/s from second to second as other processes
//   take a core away.) The interleaved pass also evicts the kernel's fields
//   from cache, so a lattice that nearly fits in the host's large last-level
//   cache is not flattered by back-to-back calls.
// - Each line says how much CPU other processes took meanwhile and is marked
//   "contended" when that exceeds 10%: its figures are not to be trusted.
// - Under mpirun every rank runs the same session: each timed call starts
//   after a barrier and lasts until the slowest rank is done, STREAM runs on
//   every rank at once (bench/stream_probe.hpp: ProbeTeam), and rank 0
//   prints. Lines say how many ranks and threads per rank measured them, and
//   benchmarks add the process grid and the halo bytes of one call.

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.hpp"
#include "bench/json_line.hpp"
#include "bench/machine_load.hpp"
#include "bench/stream_probe.hpp"
#include "platform/comms/communicator.hpp"
#include "platform/parallel.hpp"

// On the cuda backend the kernels run on the device, so STREAM is measured
// there (the probe's interleaved passes also flush the device's L2 cache),
// and the machine-load figures below describe only the host side.
#if defined(LATTE_BACKEND_CUDA)
#include "bench/device_stream_probe.hpp"
namespace latte::bench {
using BandwidthProbe = DeviceStreamProbe;
inline std::string device_name() { return cuda::device_facts().name; }
}  // namespace latte::bench
#else
namespace latte::bench {
using BandwidthProbe = StreamProbe;
inline std::string device_name() { return ""; }
}  // namespace latte::bench
#endif

namespace latte::bench {

struct SessionOptions {
  int repetitions = 20;     // timed kernel calls (best is reported)
  int warmup = 2;           // untimed calls first: page faults, thread start
  bool interleave = true;   // a STREAM pass before each timed call
  double quiet_wait = 0;    // seconds to wait for other processes to leave the CPUs
  StreamOptions stream;
  std::string scaling = "strong";  // strong: extents are the global lattice; weak: each rank's block
};

struct Timing {
  double seconds = 0;                    // best kernel call
  double stream_triad_gbytes_per_s = 0;  // best interleaved triad pass (0: none)
  MachineLoad load;                      // other processes' share meanwhile
};

class Session {
 public:
  explicit Session(const SessionOptions& options)
      : options_(options), comm_(world_communicator()), probe_(options.stream, team(comm_)) {
#if !defined(__OPTIMIZE__)
    // Built to check that it compiles (LATTE_OPTIMISE_BENCHMARKS=OFF, or any
    // -O0 build): its times would say nothing about the library.
    throw std::runtime_error(
        "latte bench: this benchmark was compiled without optimisation (LATTE_OPTIMISE_BENCHMARKS=OFF or a -O0 "
        "build); build it with CMAKE_BUILD_TYPE=Release and LATTE_OPTIMISE_BENCHMARKS=ON to measure");
#endif
    if (options.quiet_wait > 0 && !wait_for_quiet(options.quiet_wait))
      std::cerr << "latte bench: other processes kept the CPUs busy; measuring anyway\n";
    start_ = cpu_times();
    before_ = probe_.measure();
  }

  // The best of the session's repetitions after its warm-up calls; a long
  // kernel (a whole solve) may ask for `repetitions` without warm-up instead.
  template <class Kernel>
  Timing time(Kernel&& kernel, int repetitions = 0) {
    const int warmup = repetitions > 0 ? 0 : options_.warmup;
    if (repetitions <= 0) repetitions = options_.repetitions;
    for (int i = 0; i < warmup; ++i) kernel();
    backend::Default::synchronize();
    const CpuTimes start = cpu_times();
    Timing timing;
    timing.seconds = std::numeric_limits<double>::infinity();
    for (int i = 0; i < repetitions; ++i) {
      if (options_.interleave)
        timing.stream_triad_gbytes_per_s =
            std::max(timing.stream_triad_gbytes_per_s, probe_.measure(1).triad_gbytes_per_s);
      backend::Default::synchronize();
      comm_.barrier();
      const auto t0 = std::chrono::steady_clock::now();
      kernel();
      backend::Default::synchronize();  // device statements are asynchronous
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      timing.seconds = std::min(timing.seconds, slowest(comm_, seconds));
    }
    timing.load = load_between(start, cpu_times());
    return timing;
  }

  // Fills the timing into a result and keeps it for finish().
  void record(Result result, const Timing& timing) {
    result.seconds = timing.seconds;
    result.stream_triad_gbytes_per_s = timing.stream_triad_gbytes_per_s;
    result.extra["other_processes_cpu_fraction"] = timing.load.other_processes;
    result.extra["steal_cpu_fraction"] = timing.load.steal;
    result.extra["contended"] = contended(timing.load);
    results_.push_back(std::move(result));
  }

  // Runs the closing STREAM probe and prints a "stream_triad" line for the
  // whole run, then every recorded line. Lines timed without interleaving
  // are judged against the best triad of the whole run.
  // The sum over ranks of a per-rank count (every rank calls it).
  double sum_over_ranks(double value) const {
    std::vector<double> all(static_cast<std::size_t>(comm_.size()));
    comm_.all_gather(&value, sizeof value, all.data());
    double total = 0;
    for (double v : all) total += v;
    return total;
  }
  int ranks() const { return comm_.size(); }
  const SessionOptions& options() const { return options_; }

  void finish(std::ostream& out = std::cout) {
    const StreamResult after = probe_.measure();
    const StreamResult best = probe_.best();
    const MachineLoad load = load_between(start_, cpu_times());

    Result triad;
    triad.bench = "stream_triad";
    triad.backend = backend::Default::memory_side == MemorySide::device ? "plain-cuda" : "plain-omp";
    triad.precision = "double";
    triad.lattice = {static_cast<int>(best.elements)};
    triad.seconds = best.triad_seconds;
    triad.flops = 2.0 * static_cast<double>(best.elements);
    triad.bytes = 24.0 * static_cast<double>(best.elements);
    triad.stream_triad_gbytes_per_s = best.triad_gbytes_per_s;
    triad.extra["bytes_per_site_model"] = 24;
    triad.extra["repetitions"] = best.repetitions;
    triad.extra["other_processes_cpu_fraction"] = load.other_processes;
    triad.extra["steal_cpu_fraction"] = load.steal;
    triad.extra["contended"] = contended(load);
    results_.insert(results_.begin(), std::move(triad));

    for (Result& r : results_) {
      if (r.stream_triad_gbytes_per_s <= 0) r.stream_triad_gbytes_per_s = best.triad_gbytes_per_s;
      r.extra["ranks"] = comm_.size();
      r.extra["scaling"] = options_.scaling;
      r.extra["threads"] = host_threads();  // per rank
      if (!device_name().empty()) r.extra["device"] = device_name();
      if (!r.extra.contains("repetitions")) r.extra["repetitions"] = options_.repetitions;
      r.extra["timing"] = "best";
      r.extra["stream_interleaved"] = options_.interleave;
      r.extra["stream_copy_gbytes_per_s"] = best.copy_gbytes_per_s;
      r.extra["stream_triad_run_best_gbytes_per_s"] = best.triad_gbytes_per_s;
      r.extra["stream_triad_before_after_gbytes_per_s"] = {before_.triad_gbytes_per_s, after.triad_gbytes_per_s};
      if (comm_.rank() == 0) print_json_line(r, out);
    }
    results_.clear();
  }

 private:
  // The machine's CPU times, with "self" the time of every rank of the job:
  // the ranks of one machine are not other processes (on many machines this
  // undercounts the others on this one).
  CpuTimes cpu_times() const {
    CpuTimes t = read_cpu_times();
    if (comm_.size() > 1) t.self = sum_over_ranks(t.self);
    return t;
  }

  static ProbeTeam team(const Communicator& comm) {
    ProbeTeam t;
    t.members = comm.size();
    t.barrier = [comm] { comm.barrier(); };
    t.slowest = [comm](double seconds) { return slowest(comm, seconds); };
    return t;
  }
  static double slowest(const Communicator& comm, double seconds) {
    if (comm.size() == 1) return seconds;
    std::vector<double> all(static_cast<std::size_t>(comm.size()));
    comm.all_gather(&seconds, sizeof seconds, all.data());
    return *std::max_element(all.begin(), all.end());
  }

  // A kernel call of a few milliseconds can slip between another process's
  // time slices while a STREAM pass of tens of milliseconds cannot, so under
  // contention even interleaved ratios are unreliable (seen from 0.4 to 2.6
  // for axpy). Such lines are marked, to be discarded or rerun.
  static bool contended(const MachineLoad& load) { return load.other_processes > contended_threshold; }
  static constexpr double contended_threshold = 0.1;

  SessionOptions options_;
  Communicator comm_;
  BandwidthProbe probe_;
  CpuTimes start_;
  StreamResult before_;
  std::vector<Result> results_;
};

}  // namespace latte::bench
