// The machine's peak floating-point rate, measured: the compute ceiling of
// the roofline in bench/portability_report.py. Every OpenMP thread runs
// ACC independent chains x = x * a + c on the widest vectors this build's
// flags allow (GCC vector extensions; one fused multiply-add per element
// and step where the ISA has FMA, else a multiply and an add), so that
// neither the FMA latency nor memory limits it: with latency l cycles and p
// FMA pipes, ACC >= l * p chains keep every pipe busy (Zen 5: l = 4, p = 2).
// ACC stays below the register count (16 vector registers up to AVX2, 32
// with AVX-512), so that no chain is spilled to memory.
//
// Plain C++ and OpenMP, no Latte library: the peak is the hardware's, so the
// program takes the build's SIMD flags (-march=native in a native build) but
// always lets the compiler contract a * b + c into an FMA, also in the simt
// build (whose Latte code is compiled without contraction). The one project
// header, bench/machine_load.hpp, is standard C++ reading /proc: lines
// measured while other processes took the CPUs are marked "contended", as
// the other benchmarks' lines are.
//
// One JSON line per precision on standard output, with the fields the other
// benchmarks print (no memory traffic: gbytes_per_s 0, no STREAM figures).
// Check the loop with objdump: vfmadd...ps/pd on zmm registers in a native
// AVX-512 build, e.g.
//   objdump -d --no-show-raw-insn bench_peak_flops | grep -c 'vfmadd.*zmm'

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/machine_load.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

#if defined(__AVX512F__)
constexpr int vector_bytes = 64;
constexpr int accumulators = 16;
constexpr const char* isa = "avx512";
#elif defined(__AVX__)
constexpr int vector_bytes = 32;
constexpr int accumulators = 12;
constexpr const char* isa = "avx2";
#elif defined(__SSE2__)
constexpr int vector_bytes = 16;
constexpr int accumulators = 12;
constexpr const char* isa = "sse2";
#else
constexpr int vector_bytes = 8;
constexpr int accumulators = 12;
constexpr const char* isa = "scalar";
#endif

#if defined(__FMA__) || defined(__AVX512F__)
constexpr bool fused = true;
#else
constexpr bool fused = false;
#endif

#if !defined(LATTE_SIMD_NAME)
#define LATTE_SIMD_NAME "unknown"
#endif

template <class Real>
struct Vector {
  typedef Real type __attribute__((vector_size(vector_bytes)));
  static constexpr int lanes = vector_bytes / static_cast<int>(sizeof(Real));
};

// steps x ACC vector FMAs on one thread; returns a value the caller keeps,
// so that the loop is not removed. a and c come from the caller at run time,
// so that nothing is folded.
template <class Real>
__attribute__((noinline)) Real fma_chains(long steps, Real a_scalar, Real c_scalar) {
  using V = typename Vector<Real>::type;
  V a, c, x[accumulators];
  for (int l = 0; l < Vector<Real>::lanes; ++l) {
    a[l] = a_scalar;
    c[l] = c_scalar;
  }
  for (int k = 0; k < accumulators; ++k)
    for (int l = 0; l < Vector<Real>::lanes; ++l) x[k][l] = Real(k + 1) / Real(l + 2);
  for (long s = 0; s < steps; ++s) {
#pragma GCC unroll 32
    for (int k = 0; k < accumulators; ++k) x[k] = x[k] * a + c;
  }
  V total = x[0];
  for (int k = 1; k < accumulators; ++k) total += x[k];
  Real sum = 0;
  for (int l = 0; l < Vector<Real>::lanes; ++l) sum += total[l];
  return sum;
}

int threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Seconds for every thread to run `steps` steps (the slowest thread's time).
template <class Real>
double run_all_threads(long steps, Real a, Real c, double& sink) {
  double total = 0;
  double seconds = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp barrier
    const auto t0 = std::chrono::steady_clock::now();
    total += static_cast<double>(fma_chains<Real>(steps, a, c));
#pragma omp barrier
#pragma omp master
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  sink += total;
  return seconds;
}

double cpu_mhz() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("cpu MHz", 0) == 0) return std::atof(line.substr(line.find(':') + 1).c_str());
  return 0;
}

template <class Real>
nlohmann::ordered_json measure(int repetitions, double target_seconds, double& sink) {
  // a < 1 and c > 0: every chain converges to c / (1 - a), no overflow or
  // denormals. The values arrive through volatile, so they are not constants.
  volatile Real a_in = Real(0.999999), c_in = Real(1e-6);
  const Real a = a_in, c = c_in;
  const latte::bench::CpuTimes start = latte::bench::read_cpu_times();
  long steps = 1 << 12;
  run_all_threads<Real>(steps, a, c, sink);  // threads started, clocks up
  while (run_all_threads<Real>(steps, a, c, sink) < target_seconds / 4 && steps < (1L << 40)) steps *= 2;
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repetitions; ++r) best = std::min(best, run_all_threads<Real>(steps, a, c, sink));
  const latte::bench::MachineLoad load = latte::bench::load_between(start, latte::bench::read_cpu_times());

  const int n = threads();
  const double flops_per_step = 2.0 * accumulators * Vector<Real>::lanes;  // a multiply and an add per element
  const double flops = flops_per_step * static_cast<double>(steps) * n;
  nlohmann::ordered_json j;
  j["bench"] = "peak_flops";
  j["backend"] = "plain-omp";
  j["simd"] = isa;
  j["precision"] = sizeof(Real) == 8 ? "double" : "single";
  j["lattice"] = nlohmann::json::array();
  j["seconds"] = best;
  j["gflops"] = flops / best * 1e-9;
  j["gbytes_per_s"] = 0.0;
  j["stream_triad_gbytes_per_s"] = nullptr;
  j["fraction_of_stream"] = nullptr;
  j["simd_build"] = LATTE_SIMD_NAME;
  j["flops_per_site"] = flops_per_step;  // a "site" here is one step of one thread
  j["bytes_per_site_model"] = 0;
  j["threads"] = n;
  j["ranks"] = 1;
  j["vector_bytes"] = vector_bytes;
  j["lanes"] = Vector<Real>::lanes;
  j["accumulators"] = accumulators;
  j["fused_multiply_add"] = fused;
  j["steps_per_thread"] = steps;
  j["repetitions"] = repetitions;
  j["timing"] = "best";
  j["other_processes_cpu_fraction"] = load.other_processes;
  j["steal_cpu_fraction"] = load.steal;
  j["contended"] = load.other_processes > 0.1;  // the threshold of bench/session.hpp
  const double mhz = cpu_mhz();
  if (mhz > 0) {
    // Against the clock the kernel reports (in a VM, often the nominal
    // clock, not the boost clock the cores run at).
    j["cpu_mhz_reported"] = mhz;
    j["flops_per_cycle_per_core_at_reported_clock"] = flops / best / n / (mhz * 1e6);
  }
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  int repetitions = 5;
  double target_seconds = 0.5;
  double quiet_wait = 0;
  std::string precision = "both";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "-r" || arg == "--repetitions") && i + 1 < argc) {
      repetitions = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--seconds" && i + 1 < argc) {
      target_seconds = std::max(1e-3, std::atof(argv[++i]));
    } else if (arg == "--quiet-wait" && i + 1 < argc) {
      quiet_wait = std::max(0.0, std::atof(argv[++i]));
    } else if ((arg == "-p" || arg == "--precision") && i + 1 < argc) {
      precision = argv[++i];
    } else {
      const bool help = arg == "-h" || arg == "--help";
      (help ? std::cout : std::cerr)
          << "Latte benchmark: peak floating-point rate (independent FMA chains on all OpenMP threads)\n"
             "Usage: bench_peak_flops [-r N] [--seconds S] [--quiet-wait S] [-p double|single|both]\n"
             "  -r,--repetitions N  timed runs, the best is reported (default 5)\n"
             "  --seconds S         about how long each timed run lasts (default 0.5)\n"
             "  --quiet-wait S      wait up to S seconds for other processes to leave the CPUs (default 0)\n"
             "  -p,--precision P    double, single or both (default both)\n";
      return help ? 0 : 2;
    }
  }
  if (precision != "double" && precision != "single" && precision != "both") {
    std::cerr << "bench_peak_flops: --precision must be double, single or both\n";
    return 2;
  }
  if (quiet_wait > 0 && !latte::bench::wait_for_quiet(quiet_wait))
    std::cerr << "bench_peak_flops: other processes kept the CPUs busy; measuring anyway\n";
  double sink = 0;
  if (precision != "single") std::cout << measure<double>(repetitions, target_seconds, sink).dump() << std::endl;
  if (precision != "double") std::cout << measure<float>(repetitions, target_seconds, sink).dump() << std::endl;
  // The chains' values are used, so the loops cannot be removed.
  if (sink == 42.0) std::cerr << "(unlikely sum)\n";
  return 0;
}
