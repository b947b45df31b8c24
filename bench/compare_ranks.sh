#!/usr/bin/env bash
# One rank with two threads against two ranks with one thread each, on the
# same global lattices, alternating so that both see the same machine:
#   bash bench/compare_ranks.sh <build> [rounds]
# prints every JSON line of bench_wilson (24^4, double, Dslash) and bench_lbm
# (D3Q19 128^3, double) for both, then, per kernel, the best time of each
# and their ratio (two ranks over one rank).
set -euo pipefail
build=${1:?usage: compare_ranks.sh <build directory> [rounds]}
rounds=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
lines=$(mktemp)
for ((round = 0; round < rounds; ++round)); do
  for ranks in 1 2; do
    threads=$((2 / ranks))
    OMP_NUM_THREADS=$threads timeout 600 mpirun --bind-to none -np "$ranks" \
      "$build/bench/bench_wilson" -L 24 -p double --no-cg -r 10 | grep -v yardstick >>"$lines"
    OMP_NUM_THREADS=$threads timeout 600 mpirun --bind-to none -np "$ranks" \
      "$build/bench/bench_lbm" --sets d3q19 --d3q19 128 128 128 -p double -r 10 >>"$lines"
  done
done
cat "$lines"
python3 - "$lines" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j["bench"] == "stream_triad":
        continue
    key = (j["bench"], j["ranks"])
    if key not in best or j["seconds"] < best[key]["seconds"]:
        best[key] = j
for bench in sorted({b for b, _ in best}):
    one, two = best.get((bench, 1)), best.get((bench, 2))
    if not one or not two:
        continue
    print(f"{bench}: 1 rank x 2 threads {one['seconds']*1e3:.2f} ms (fraction_of_stream {one['fraction_of_stream']:.2f}), "
          f"2 ranks x 1 thread {two['seconds']*1e3:.2f} ms (fraction_of_stream {two['fraction_of_stream']:.2f}), "
          f"ratio {two['seconds']/one['seconds']:.3f}; halo bytes per call {two.get('halo_bytes_per_call'):.0f} "
          f"(model {two.get('halo_bytes_per_call_model'):.0f}), process grid {two.get('process_grid')}")
PY
rm -f "$lines"
