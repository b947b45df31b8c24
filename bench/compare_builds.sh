#!/usr/bin/env bash
# Two builds of the benchmarks, run alternately in one window so that both
# see the same machine, and per benchmark line the median of new/old
# fraction_of_stream (each run's kernel over the STREAM triad it measured):
#   bash bench/compare_builds.sh <old build> <new build> [rounds] [out.jsonl]
# The benchmarks: bench_wilson (Dslash, M, even-odd, 12 right-hand sides,
# CG), bench_lbm (D2Q9, D3Q19, D3Q27; two lattices and in place) and
# bench_axpy, at sizes that stream from memory (override their options with
# WILSON_ARGS, LBM_ARGS, AXPY_ARGS). Every JSON line goes
# to out.jsonl with "build": "old" or "new" added. A pair of runs counts only
# where their two STREAM triads agree within 10 % (compare_builds_summary.py,
# which makes the summary, says why). Where a line's median sits below 0.97
# but inside the yardsticks' range, bench/compare_kernels.sh says whether
# the kernels it times are the same instructions in both builds.
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
# The default sizes stream from memory where the last-level cache is tens of
# MiB (the AMD VMs: 32 MiB). The Intel Xeon VM has a 480 MiB L3 shared with
# its host's other guests, and there the axpy 32^4, D2Q9 1024^2, D3Q27 64^3
# and D3Q19 96^3 fields (17-270 MB) sit partly in it: in a window on
# 2026-12-02 the old/new speed ratio of the same-code LBM yardsticks ran from
# 0.83 to 1.09 between rounds while the paired STREAM triads (3 x 512 MiB)
# stayed within 0.93-1.08 of each other; the fields' share of the L3 moves
# with what the neighbours run. Warm (--no-interleave) the two builds' D3Q27
# and D3Q19 steps at those sizes ran level.
# Above 128 MiB of L3 the LBM and axpy fields are 0.2-2.4 GB instead (there
# 8 rounds of these two programs took 23 minutes); bench_wilson keeps 24^4,
# where both builds are bound by arithmetic on that machine (about 0.5 of
# STREAM).
l3_kib=$(sed -n 's/K$//p' /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null || true)
default_lbm="--d2q9 1024 1024 --d3q19 96 96 96 --d3q27 64 64 64 -r 5"
default_axpy="-L 32 32 32 32 -r 10"
if [ -n "$l3_kib" ] && ((l3_kib > 128 * 1024)); then
  default_lbm="--d2q9 4096 4096 --d3q19 192 192 192 --d3q27 160 160 160 -r 5"
  default_axpy="-L 64 64 64 96 -r 10"
  echo "compare_builds.sh: a ${l3_kib} KiB last-level cache: bench_lbm $default_lbm, bench_axpy $default_axpy" >&2
fi
for ((round = 0; round < rounds; ++round)); do
  if ((round % 2 == 0)); then order=("$old old" "$new new"); else order=("$new new" "$old old"); fi
  for program in $programs; do
    case $program in
      bench_wilson) arguments=${WILSON_ARGS:--L 24 --solve-extent 12 -r 5} ;;
      bench_lbm) arguments=${LBM_ARGS:-$default_lbm} ;;
      bench_axpy) arguments=${AXPY_ARGS:-$default_axpy} ;;
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
