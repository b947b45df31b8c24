#!/usr/bin/env bash
# Build and run the whole test suite, once per configuration.
# Default: the native CPU build, the simt (per-lane) build on emulated device
# memory (simt-device: the per-lane code that CUDA threads run, with the cuda
# backend's residency tracking and halo staging, checked on the CPU) and,
# where nvcc is installed (/usr/local/cuda), the cuda build. The plain simt
# build (host memory) is not in the default set: simt-device runs the same
# per-lane kernels, and its memory differs from simt's only by the
# residency bookkeeping, while simt's host memory is native's; a third full
# build would add some 20 minutes to CI for nothing the two do not check.
# Choose others with LATTE_TEST_CONFIGS, e.g.
# "native scalar avx2 avx512 simt simt-device cuda asan" (asan: the native
# build under Address-, Leak- and UndefinedBehaviorSanitizer, see below).
# The cuda build's tests need an NVIDIA GPU: without one it is compiled only;
# a SIMD width the CPU lacks (avx512 on an AVX2 machine) is compiled only too.
# Every configuration that runs runs its suite twice: as it is, and with
# forced communication (LATTE_FORCE_COMMUNICATION=all: every shift that
# leaves the block goes through pack, exchange and unpack within the one
# rank); the MPI tests (label mpi) run under mpirun with 2, 4 and 16 ranks.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/cmake/install_debian_packages.sh"

nvcc=${CMAKE_CUDA_COMPILER:-/usr/local/cuda/bin/nvcc}
default_configs="native simt-device"
if [ -x "$nvcc" ]; then
  default_configs="$default_configs cuda"
else
  echo "=== Latte tests: no CUDA compiler at $nvcc, the cuda configuration is not built ==="
fi
configs=${LATTE_TEST_CONFIGS:-$default_configs}
gpu_present=false
if nvidia-smi -L >/dev/null 2>&1; then gpu_present=true; fi
jobs=${LATTE_JOBS:-$(nproc)}

# The asan configuration (not in the default set): the native build under
# AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer, at -O2.
# (Reductions once differed in their bits under the sanitizers: xsimd's
# AVX-512 fma is a * b + c, which the sanitized code did not contract; the
# FMA instruction is now issued explicitly, backends/cpu/vector_type.hpp.)
# Debug information is line tables only (-g1): enough for the
# sanitizers' stack traces, while full -g made GCC's variable tracking of the
# large fused kernels take over half an hour and 4 GB for one suite.
# Any report fails its test: UBSan does not recover, and LSan reports leaks
# at exit except Open MPI's own (tests/sanitizers/lsan_suppressions.txt).
# Allocation stacks are unwound fully (fast_unwind_on_malloc=0): Open MPI's
# plugins have no frame pointers, and the fast unwinder stopped inside them,
# so their leaks at exit were reported without the libmpi frames that the
# suppressions match (every mpirun test failed that way).
# The options are exported for the whole run, as the test discovery at
# build time runs the test programs too.
sanitizer_flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
sanitizer_environment=(
  "ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:fast_unwind_on_malloc=0"
  "LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan_suppressions.txt:print_suppressions=0"
  "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
)

# The benchmarks are no tests (nothing runs them here); the native
# configuration checks that they compile (LATTE_OPTIMISE_BENCHMARKS=OFF:
# -fsyntax-only, every template instantiated and no code generated,
# bench/CMakeLists.txt; bench_lbm_d3q27.cpp 6.5 s instead of 73 s at -O0 and
# 181 s at -O3 on a Zen 4). The two simt configurations skip them.
for config in $configs; do
  case "$config" in
    simt) options=(-DLATTE_BACKEND=simt -DLATTE_SIMD=native -DLATTE_BUILD_BENCHMARKS=OFF) ;;
    # simt-device is compiled at -O1: it checks what the per-lane kernels
    # compute and how fields move between host and 'device', and the code
    # a GPU runs is nvcc's, not GCC's -O3 of these kernels (the native
    # configuration keeps -O3, the users' level, for the vector code).
    # -O1 halves its compile time (suite_core 117 s -> 65 s, suite_lbm
    # 198 s -> 103 s on one core of a Xeon), and the bits are the same:
    # simt builds do not contract a * b + c (-ffp-contract=off).
    # Its examples are not built either (some 15 programs, about five
    # minutes of a 2-core CI): they call the library as the suites do, and
    # the suites run every kernel they use per lane here; the native
    # configuration runs each example and its mpirun comparison.
    simt-device) options=(-DLATTE_BACKEND=simt -DLATTE_SIMD=native -DLATTE_EMULATE_DEVICE_MEMORY=ON
                          -DLATTE_BUILD_BENCHMARKS=OFF -DLATTE_BUILD_EXAMPLES=OFF "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG") ;;
    cuda) options=(-DLATTE_BACKEND=cuda -DCMAKE_CUDA_COMPILER="$nvcc")
          # Without a GPU nothing of this build runs: it is compiled to check
          # that it compiles (every kernel through ptxas), without the
          # optimisers, which halves its time (suite_core: 187 s at -O3,
          # 86 s at -O0, nvcc 13 on the 2-core VM). With a GPU its tests
          # run, on the optimised build.
          # (Both set explicitly: the build directory's cache keeps them.)
          # Without a GPU only the test suites are compiled: the examples
          # and benchmarks (1200 CPU-seconds of nvcc, a quarter of CI) use
          # the library as the suites do, and bench/pack_for_gpu.sh builds
          # them, optimised, on this machine before a GPU session
          # (bench/gpu_session.sh), so a compile error shows there before any
          # GPU time is spent.
          if $gpu_present; then
            options+=("-DCMAKE_CUDA_FLAGS_RELEASE=-O3 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG")
          else
            options+=("-DCMAKE_CUDA_FLAGS_RELEASE=-O0 -Xptxas -O0 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG"
                      -DLATTE_BUILD_EXAMPLES=OFF -DLATTE_BUILD_BENCHMARKS=OFF)
          fi ;;
    asan) options=(-DLATTE_BACKEND=cpu -DLATTE_SIMD=native -DLATTE_BUILD_BENCHMARKS=OFF
                   "-DCMAKE_CXX_FLAGS=$sanitizer_flags" "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -g1"
                   "-DCMAKE_EXE_LINKER_FLAGS=$sanitizer_flags") ;;
    native | scalar | avx2 | avx512 | sse2) options=(-DLATTE_BACKEND=cpu -DLATTE_SIMD="$config" -DLATTE_OPTIMISE_BENCHMARKS=OFF) ;;
    *) echo "unknown test configuration '$config'" >&2; exit 2 ;;
  esac
  build="$root/build/test-$config"
  if [ "$config" = asan ]; then export "${sanitizer_environment[@]}"; fi
  # Ninja for a new build directory (unless CMAKE_GENERATOR says otherwise):
  # it schedules the whole build at once, where make's per-target recursion
  # left one core idle for the last large test suite (native configuration
  # of c85d926 on a 2-core Zen 4: 1580 s to build with make, about 1400 s
  # with Ninja). An existing directory keeps the generator it was made with.
  generator=()
  if [ -z "${CMAKE_GENERATOR:-}" ] && [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then
    generator=(-G Ninja)
  fi
  echo "=== Latte tests: configuration '$config' (${options[*]}) ==="
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${options[@]}" >/dev/null
  cmake --build "$build" -j "$jobs"
  if [ "$config" = cuda ] && ! $gpu_present; then
    echo "=== Latte tests: configuration 'cuda' compiled; no NVIDIA GPU here, so its tests (label gpu) are not run ==="
    continue
  fi
  required_flag=""
  case "$config" in
    avx512) required_flag=avx512f ;;
    avx2) required_flag=avx2 ;;
  esac
  if [ -n "$required_flag" ] && ! grep -qw "$required_flag" /proc/cpuinfo; then
    echo "=== Latte tests: configuration '$config' compiled; this CPU has no $required_flag, so its tests are not run ==="
    continue
  fi
  # Tests run side by side, each with its own OpenMP threads: let idle
  # threads sleep rather than spin, or they steal the cores the others need.
  # The two consumer projects (tests/consume_latte.cmake) build against the
  # package by its two routes; that is the same CMake code for every
  # backend, and the first configuration checks it (some 100 CPU-seconds).
  # So do the tests without fields (label fieldless: the rational
  # approximations, plain C++ in double and Boost multiprecision that no
  # backend or SIMD width touches; some 40 CPU-seconds of Remez).
  skip_tests=()
  if [ "$config" != "$(echo $configs | cut -d' ' -f1)" ]; then skip_tests=(-E '^consume_latte_' -LE fieldless); fi
  (cd "$build" && OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} ctest --output-on-failure -j "$jobs" "${skip_tests[@]}")
  # The rerun leaves out the tests without fields (label fieldless: the
  # rational approximations), which no halo reaches, the flavour-consistency
  # chains (label physics: their statistics are the point, not halos),
  # and the flows run to a steady state for their
  # convergence order (about two minutes of each rerun): they do the same
  # statements for many more steps than the short LBM tests and examples
  # that do run forced (in place against two lattices, conservation,
  # layouts, the cavity and cylinder examples, curved walls included), and a
  # halo's bits are the same in the first step and the thousandth.
  steady_state_flows='^(LbmPoiseuille[.]|LbmCouette[.]|LbmCurvedWalls[.]OffLattice|LbmMrt[.]Poiseuille|example_lbm_cavity_mrt_re1000$)'
  echo "=== Latte tests: configuration '$config' again, with forced communication (halos within one rank) ==="
  (cd "$build" && LATTE_FORCE_COMMUNICATION=all OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} \
     ctest --output-on-failure -j "$jobs" -LE "mpi|packaging|docs|fieldless|physics" -E "$steady_state_flows")
done
