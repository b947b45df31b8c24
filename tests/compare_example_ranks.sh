#!/usr/bin/env bash
# An example under mpirun prints the same report and writes the same files
# as on one rank:
#   compare_example_ranks.sh <ranks> <program> [arguments...]
# runs the program on one rank and on <ranks> ranks, each in a directory of
# its own (relative output paths land there), and compares
#   - the standard output, with the lines and columns that measure time or
#     name the ranks masked (time, performance, MLUPS, site updates per
#     second, a trajectory's seconds, the CG's time per trajectory and
#     share, the time by monomial, the backend line), which must be identical;
#   - every file the program wrote, byte for byte (CSV, VTK, PNG,
#     checkpoints, NERSC files).
# Exits 0 if both agree, 1 with the differences otherwise, 2 if a run crashed.
set -uo pipefail
ranks=${1:?usage: compare_example_ranks.sh <ranks> <program> [arguments...]}
shift
program=$(realpath "$1")
shift
mpiexec=${MPIEXEC:-mpirun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Timings differ from run to run; everything else is the physics.
mask() {
  sed -E -e '/^time by monomial/,/^  links, momenta/d' \
      -e '/^(time|performance) /d' -e '/^backend /d' -e '/million site updates per second/d' \
      -e 's/[0-9]+ ranks? \(process grid \[[0-9 ]+\]\)/N ranks/' \
      -e 's/^(CG +[0-9.]+ iterations and )[0-9.]+ s per trajectory \([0-9]+ % of the time\)/\1- s per trajectory/' |
    awk '/MLUPS/ { mlups = 1 } mlups && $1 ~ /^[0-9]+$/ && NF == 5 { $2 = "-" }
         /^ *traj +plaquette/ { trajectories = 1 } trajectories && $1 ~ /^[0-9]+$/ && NF == 7 { $7 = "-" }
         trajectories && $1 ~ /^[0-9]+$/ && NF > 7 { $7 = "-" } { print }'
}

status=0
declare -A exit_status
for n in 1 "$ranks"; do
  mkdir -p "$work/np$n"
  (cd "$work/np$n" && timeout 600 "$mpiexec" --oversubscribe -np "$n" "$program" "$@" </dev/null >stdout 2>stderr)
  exit_status[$n]=$?
  # An example's own verdicts (not steady, outside a tolerance) are exit
  # statuses 1 to 3 and must agree; a crash, a signal or a time-out is not.
  if [ "${exit_status[$n]}" -gt 3 ]; then
    echo "=== $(basename "$program") failed on $n rank(s) (exit status ${exit_status[$n]}):"
    cat "$work/np$n/stdout" "$work/np$n/stderr"
    exit 2
  fi
  mask <"$work/np$n/stdout" >"$work/np$n/report"
done
echo "=== $(basename "$program") $*: report on $ranks ranks (exit status ${exit_status[$ranks]})"
cat "$work/np$ranks/stdout"
if [ "${exit_status[1]}" != "${exit_status[$ranks]}" ]; then
  echo "=== exit status ${exit_status[1]} on 1 rank, ${exit_status[$ranks]} on $ranks ranks"
  status=1
fi
if ! diff "$work/np1/report" "$work/np$ranks/report"; then
  echo "=== the reports of 1 and $ranks ranks differ (above)"
  status=1
fi
files=$(cd "$work/np1" && find . -type f ! -name stdout ! -name stderr ! -name report | sort)
other=$(cd "$work/np$ranks" && find . -type f ! -name stdout ! -name stderr ! -name report | sort)
if [ "$files" != "$other" ]; then
  echo "=== different files written: 1 rank: $files; $ranks ranks: $other"
  status=1
fi
for f in $files; do
  if cmp "$work/np1/$f" "$work/np$ranks/$f"; then echo "same bytes: $f"; else status=1; fi
done
[ $status = 0 ] && echo "=== identical on 1 and $ranks ranks"
exit $status
