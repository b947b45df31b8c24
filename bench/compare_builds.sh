#!/usr/bin/env bash
# Two builds of the benchmarks, run alternately in one window so that both
# see the same machine, and per benchmark line the median of new/old
# fraction_of_stream (each run's kernel over the STREAM triad it measured):
#   bash bench/compare_builds.sh <old build> <new build> [rounds] [out.jsonl]
# The benchmarks: bench_wilson (Dslash, M, even-odd, 12 right-hand sides,
# CG), bench_lbm (D2Q9, D3Q19, D3Q27; two lattices and in place) and
# bench_axpy, at sizes that stream from memory on a 2-core VM (override
# their options with WILSON_ARGS, LBM_ARGS, AXPY_ARGS). Every JSON line goes
# to out.jsonl with "build": "old" or "new" added.
set -euo pipefail
old=${1:?usage: compare_builds.sh <old build> <new build> [rounds] [out.jsonl]}
new=${2:?usage: compare_builds.sh <old build> <new build> [rounds] [out.jsonl]}
rounds=${3:-3}
out=${4:-$(mktemp --suffix=.jsonl)}
: >"$out"
run() {  # build label
  local build=$1 label=$2
  {
    timeout 900 "$build/bench/bench_wilson" ${WILSON_ARGS:--L 24 --solve-extent 12 -r 5}
    timeout 900 "$build/bench/bench_lbm" ${LBM_ARGS:---d2q9 1024 1024 --d3q19 96 96 96 --d3q27 64 64 64 -r 5}
    timeout 900 "$build/bench/bench_axpy" ${AXPY_ARGS:--L 32 32 32 32 -r 10}
  } | grep '^{' | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    d["build"] = sys.argv[1]
    print(json.dumps(d))' "$label" >>"$out"
}
for ((round = 0; round < rounds; ++round)); do
  run "$old" old
  run "$new" new
done
python3 - "$out" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("fraction_of_stream") is None:
        continue
    key = (d["bench"], d.get("precision", ""), str(d.get("lattice", "")), str(d.get("rhs", d.get("streaming", ""))))
    runs.setdefault(key, {"old": [], "new": []})[d["build"]].append(d["fraction_of_stream"])
worst = None
for key, r in sorted(runs.items()):
    if not r["old"] or not r["new"]:
        continue
    ratios = [n / o for n, o in zip(r["new"], r["old"]) if o > 0]
    if not ratios:  # a line whose old figure is zero (nothing measured) has no ratio
        continue
    median = statistics.median(ratios)
    worst = median if worst is None else min(worst, median)
    print(f"{' '.join(k for k in key if k):70s} old {statistics.median(r['old']):.3f} new {statistics.median(r['new']):.3f} median new/old {median:.3f}")
print(f"lowest median new/old: {worst:.3f}" if worst is not None else "no comparable lines")
PY
echo "lines: $out"
