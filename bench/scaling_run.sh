#!/usr/bin/env bash
# The scaling figures of one machine: bench_wilson (Dslash, double) and
# bench_lbm (D3Q19 BGK, double) on 1, 2 and 4 ranks, in strong scaling (the
# global lattice fixed) and weak scaling (each rank's block fixed), every
# JSON line to standard output. Ranks share the machine's cores: each rank
# gets cores / ranks OpenMP threads (at least one).
#   bash bench/scaling_run.sh <build> [wilson L] [lbm n] > scaling.jsonl
#   python3 bench/scaling_model.py scaling.jsonl     # the model, checked and projected
set -euo pipefail
build=${1:?usage: scaling_run.sh <build> [wilson L] [lbm n]}
L=${2:-24}
n=${3:-128}
cores=$(nproc)
mpiexec=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
for scaling in strong weak; do
  for ranks in 1 2 4; do
    threads=$((cores / ranks))
    [ "$threads" -ge 1 ] || threads=1
    OMP_NUM_THREADS=$threads timeout 900 "$mpiexec" --bind-to none -np "$ranks" \
      "$build/bench/bench_wilson" -L "$L" -p double --no-cg -r 10 --scaling "$scaling" | grep -v yardstick
    OMP_NUM_THREADS=$threads timeout 900 "$mpiexec" --bind-to none -np "$ranks" \
      "$build/bench/bench_lbm" --sets d3q19 --d3q19 "$n" "$n" "$n" -p double -r 10 --scaling "$scaling" |
      grep -v '"bench":"stream_triad"'
  done
done
