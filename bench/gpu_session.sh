#!/usr/bin/env bash
# One batch on a machine with an NVIDIA GPU, for a cuda build made elsewhere
# and copied here: the whole CTest suite (label gpu), then the triad, axpy,
# Dslash and lattice-Boltzmann benchmarks. Logs and JSON lines go to
# ${OUT:-.}/. Usage: bash bench/gpu_session.sh <build-dir> [tests|bench|all]
set -uo pipefail
build=$(cd "$1" && pwd)
what=${2:-all}
out=${OUT:-.}
# tests/run_all.sh on a machine without a GPU compiles the cuda build
# without optimisation (it only checks that it compiles): its tests are
# valid, its timings are not. bench/pack_for_gpu.sh makes an optimised one.
if grep -q '^CMAKE_CUDA_FLAGS_RELEASE:STRING=.*-O0' "$build/CMakeCache.txt" 2>/dev/null && [ "$what" != tests ]; then
  echo "gpu_session.sh: $build is compiled at -O0 (a compile check); benchmark an optimised build (bench/pack_for_gpu.sh)" >&2
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv | tee "$out/gpu.txt"

if [ "$what" != bench ]; then
  # The packaging tests (install, then build a consumer project) and the
  # documentation tests (which compile the README's code against Random123
  # and run python3 from /usr/bin) check files and CMake code that are the
  # same for every backend; CI runs them, and a bare CUDA image lacks their
  # Debian packages.
  (cd "$build" && ctest -j 12 --timeout 300 --output-on-failure -L gpu -LE "packaging|docs" 2>&1 | tee "$out/ctest.log" | grep -Ev "^ +Start|Passed" )
  # Again with every halo exchanged through the communication path within
  # the one rank (device pack, halo stream, unpack), as CI does on the
  # cpu backends; the flows run to a steady state are left out, as there.
  echo "=== again, with forced communication ==="
  (cd "$build" && LATTE_FORCE_COMMUNICATION=all ctest -j 12 --timeout 300 --output-on-failure -L gpu -LE "mpi|packaging|docs" \
     -E '^(LbmPoiseuille[.]|LbmCouette[.]|LbmCurvedWalls[.]OffLattice|LbmMrt[.]Poiseuille|example_lbm_cavity_mrt_re1000$)' 2>&1 \
     | tee "$out/ctest_forced.log" | grep -Ev "^ +Start|Passed" )
fi
if [ "$what" != tests ]; then
  {
    "$build/bench/bench_axpy" -L 48 48 48 48 -r 20
    "$build/bench/bench_wilson" -L 8 16 24 32 40 -r 20
    "$build/bench/bench_lbm" -r 20 --d2q9 4096 4096 --d3q19 256 256 256
  } 2>&1 | tee "$out/bench.jsonl" | python3 -c '
import json, sys
for line in sys.stdin:
    try: j = json.loads(line)
    except Exception: print(line.rstrip()); continue
    print(j["bench"], j["precision"], j["lattice"], "GB/s %.0f" % j["gbytes_per_s"], "triad %.0f" % j["stream_triad_gbytes_per_s"], "fraction %.3f" % j["fraction_of_stream"])'
fi
if [ "$what" != tests ]; then
  # The Wilson solve, plain and even-odd preconditioned, double and mixed.
  for flags in "" "--even-odd" "--precision mixed"; do
    echo "wilson_cg 32^4 ${flags:-(plain, double)}"
    "$build/examples/wilson_cg" --lattice 32 32 32 32 --tolerance 1e-10 --no-history $flags 2>&1 | tail -4
  done | tee "$out/wilson_cg.txt"
fi
