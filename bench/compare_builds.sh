#!/usr/bin/env bash
# Two builds of the benchmarks, run alternately in one window so that both
# see the same machine, and per benchmark line the median of new/old
# fraction_of_stream (each run's kernel over the STREAM triad it measured):
#   bash bench/compare_builds.sh <old build> <new build> [rounds] [out.jsonl]
# The benchmarks: bench_wilson (Dslash, M, even-odd, 12 right-hand sides,
# CG), bench_lbm (D2Q9, D3Q19, D3Q27; two lattices and in place) and
# bench_axpy, at sizes that stream from memory on a 2-core VM (override
# their options with WILSON_ARGS, LBM_ARGS, AXPY_ARGS). Every JSON line goes
# to out.jsonl with "build": "old" or "new" added. A pair of runs counts only
# where their two STREAM triads agree within 10 % (the summary says why).
set -euo pipefail
old=${1:?usage: compare_builds.sh <old build> <new build> [rounds] [out.jsonl]}
new=${2:?usage: compare_builds.sh <old build> <new build> [rounds] [out.jsonl]}
rounds=${3:-3}
out=${4:-$(mktemp --suffix=.jsonl)}
: >"$out"
# One program of one build; its JSON lines go to out.jsonl with "build" added.
run() {  # build label program arguments...
  local build=$1 label=$2 program=$3
  shift 3
  timeout 900 "$build/bench/$program" "$@" | grep '^{' | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    d["build"] = sys.argv[1]
    print(json.dumps(d))' "$label" >>"$out"
}
# Old and new alternate program by program, so that the two runs compared
# are minutes apart at most.
for ((round = 0; round < rounds; ++round)); do
  for build_label in "$old old" "$new new"; do
    run $build_label bench_wilson ${WILSON_ARGS:--L 24 --solve-extent 12 -r 5}
  done
  for build_label in "$old old" "$new new"; do
    run $build_label bench_lbm ${LBM_ARGS:---d2q9 1024 1024 --d3q19 96 96 96 --d3q27 64 64 64 -r 5}
  done
  for build_label in "$old old" "$new new"; do
    run $build_label bench_axpy ${AXPY_ARGS:--L 32 32 32 32 -r 10}
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
# A pair (old run i, new run i) of one line counts only when the STREAM
# triads its two runs measured agree within 10 %: on a VM whose memory
# bandwidth moves between levels (the 2-core Zen 5 VM switched between ~47
# and ~81 GB/s, between runs and within one), a kernel timed at one level
# over STREAM at the other is no ratio of the two builds.
runs = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("fraction_of_stream") is None:
        continue
    key = (d["bench"], d.get("precision", ""), str(d.get("lattice", "")), str(d.get("rhs", d.get("streaming", ""))))
    runs.setdefault(key, {"old": [], "new": []})[d["build"]].append(d)
worst = None
dropped = 0
for key, r in sorted(runs.items()):
    ratios = []
    for o, n in zip(r["old"], r["new"]):
        so, sn = o.get("stream_triad_gbytes_per_s"), n.get("stream_triad_gbytes_per_s")
        if not o["fraction_of_stream"] > 0:  # nothing measured (a zero old figure) has no ratio
            continue
        if so and sn and abs(so / sn - 1) > 0.10:
            dropped += 1
            continue
        ratios.append(n["fraction_of_stream"] / o["fraction_of_stream"])
    if not ratios:
        continue
    median = statistics.median(ratios)
    worst = median if worst is None else min(worst, median)
    old_median = statistics.median(o["fraction_of_stream"] for o in r["old"])
    new_median = statistics.median(n["fraction_of_stream"] for n in r["new"])
    print(f"{' '.join(k for k in key if k):70s} old {old_median:.3f} new {new_median:.3f} median new/old {median:.3f} ({len(ratios)} pairs)")
print(f"pairs left out (their STREAM figures more than 10 % apart): {dropped}")
print(f"lowest median new/old: {worst:.3f}" if worst is not None else "no comparable lines")
PY
echo "lines: $out"
