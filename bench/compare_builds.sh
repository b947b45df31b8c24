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
# where their two STREAM triads agree within 10 % (compare_builds_summary.py,
# which makes the summary, says why).
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
# are minutes apart at most, and which build runs first flips every round,
# so that neither always follows the other's warm-up of the machine.
# PROGRAMS chooses a subset (for example PROGRAMS=bench_axpy to add pairs to
# one program's lines; several windows pool in the summary).
programs=${PROGRAMS:-bench_wilson bench_lbm bench_axpy}
for ((round = 0; round < rounds; ++round)); do
  if ((round % 2 == 0)); then order=("$old old" "$new new"); else order=("$new new" "$old old"); fi
  for program in $programs; do
    case $program in
      bench_wilson) arguments=${WILSON_ARGS:--L 24 --solve-extent 12 -r 5} ;;
      bench_lbm) arguments=${LBM_ARGS:---d2q9 1024 1024 --d3q19 96 96 96 --d3q27 64 64 64 -r 5} ;;
      bench_axpy) arguments=${AXPY_ARGS:--L 32 32 32 32 -r 10} ;;
      *) echo "compare_builds.sh: unknown program '$program' in PROGRAMS" >&2; exit 2 ;;
    esac
    for build_label in "${order[@]}"; do
      run $build_label "$program" $arguments
    done
  done
done
# Per line, the median of new/old over the pairs whose STREAM figures agree
# (several windows pool: python3 bench/compare_builds_summary.py a.jsonl b.jsonl).
python3 "$(dirname "$0")/compare_builds_summary.py" "$out"
echo "lines: $out"
