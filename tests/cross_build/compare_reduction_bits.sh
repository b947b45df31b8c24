#!/usr/bin/env bash
# Build tests/cross_build/reduction_bits.cpp (or another program of that
# folder) in the scalar, avx2, native and simt configurations (those this CPU
# can run), run each on 1 and 2 threads and on 1, 2 and 4 ranks, and check
# that every run prints the same bits.
# Usage: bash tests/cross_build/compare_reduction_bits.sh [build-root] [program]
#   program: reduction_bits (the default) or dynamical_bits
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
builds=${1:-$root/build/cross-build}
target=${2:-reduction_bits}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
       OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
configs="scalar native simt"
grep -qw avx2 /proc/cpuinfo && configs="scalar avx2 native simt"
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for config in $configs; do
  case "$config" in
    simt) options=(-DLATTE_BACKEND=simt -DLATTE_SIMD=native) ;;
    *) options=(-DLATTE_BACKEND=cpu -DLATTE_SIMD="$config") ;;
  esac
  cmake -S "$root" -B "$builds/$config" -DCMAKE_BUILD_TYPE=Release "${options[@]}" >/dev/null
  cmake --build "$builds/$config" --target "$target" -j "$(nproc)" >/dev/null
  program="$builds/$config/tests/$target"
  for threads in 1 2; do
    echo "$config, $threads threads, 1 rank: $(OMP_NUM_THREADS=$threads "$program" | tr "\n" " ")" | tee -a "$results"
  done
  for ranks in 2 4; do
    echo "$config, 1 thread, $ranks ranks: $(OMP_NUM_THREADS=1 mpirun -np "$ranks" "$program" | tr "\n" " ")" | tee -a "$results"
  done
done
distinct=$(sed 's/^[^:]*: //' "$results" | sort -u | wc -l)
if [ "$distinct" -ne 1 ]; then
  echo "$target: the bits differ between these runs ($distinct different results)" >&2
  exit 1
fi
echo "all $(wc -l <"$results") runs print the same bits"
