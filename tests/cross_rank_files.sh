#!/usr/bin/env bash
# Files written on one number of ranks are the same bytes as on another and
# are read on any number:
#   cross_rank_files.sh <examples directory>
#  - wilson_cg saves a NERSC configuration on 1 and on 4 ranks: cmp says
#    identical; the file of 2 ranks is loaded and solved on on 1 and on 4
#    ranks (checksum, link trace and plaquette checked) with the same result;
#    a copy with one flipped byte is refused by every rank with the same
#    message. The same for ILDG (64 and 32 bits) and openQCD files.
#  - lbm_cavity writes a checkpoint on 4 ranks at step 1000 and is resumed
#    from it on 1 and on 2 ranks to step 2000: their checkpoints at step 2000
#    and every output file are the same bytes as those of one uninterrupted
#    run on 1 rank; a checkpoint with one flipped byte is refused by every
#    rank.
set -uo pipefail
examples=$(realpath "${1:?usage: cross_rank_files.sh <examples directory>}")
mpiexec=${MPIEXEC:-mpirun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
run() {  # run <ranks> <log> <program> [arguments...]
  local ranks=$1 log=$2
  shift 2
  timeout 600 "$mpiexec" --oversubscribe -np "$ranks" "$@" </dev/null >"$log" 2>&1
}
# The cavity with --tolerance 0 never becomes steady: exit status 2 says so.
run_cavity() {
  run "$@"
  local status=$?
  [ $status = 0 ] || [ $status = 2 ]
}
result() { grep -E '^(average plaquette|iterations|true residual)' "$1"; }

# NERSC files.
wilson=(--lattice 8 8 8 8 --seed 11 --no-history)
run 1 save1.log "$examples/wilson_cg" "${wilson[@]}" --save-gauge np1.nersc || fail "wilson_cg --save-gauge on 1 rank"
run 4 save4.log "$examples/wilson_cg" "${wilson[@]}" --save-gauge np4.nersc || fail "wilson_cg --save-gauge on 4 ranks"
run 2 save2.log "$examples/wilson_cg" "${wilson[@]}" --save-gauge np2.nersc || fail "wilson_cg --save-gauge on 2 ranks"
if cmp np1.nersc np4.nersc && cmp np1.nersc np2.nersc; then
  echo "cmp: the NERSC files written on 1, 2 and 4 ranks are identical ($(stat -c %s np1.nersc) bytes)"
else
  fail "NERSC files of 1, 2 and 4 ranks differ"
fi
# (The source is drawn after the gauge field, so a loaded field's solve has
# its own source: the solves on 1 and 4 ranks must agree with each other,
# the plaquette with the one saved.)
for ranks in 1 4; do
  run "$ranks" "load$ranks.log" "$examples/wilson_cg" --load-gauge np2.nersc --seed 11 --no-history ||
    fail "wilson_cg --load-gauge (written on 2 ranks) on $ranks ranks"
  echo "read on $ranks rank(s) the file of 2 ranks: $(result "load$ranks.log" | tr '\n' ';')"
done
if [ -n "$(result load1.log)" ] && diff <(result load1.log) <(result load4.log) &&
   diff <(grep '^average plaquette' save1.log) <(grep '^average plaquette' load1.log); then
  echo "the same plaquette as saved, and the same solve on 1 and 4 ranks"
else
  fail "the file of 2 ranks gives different results on 1 and 4 ranks, or a plaquette not the one saved"
fi
cp np2.nersc corrupt.nersc
size=$(stat -c %s corrupt.nersc)
printf '\x55' | dd of=corrupt.nersc bs=1 seek=$((size - 1000)) conv=notrunc status=none
if run 4 corrupt4.log "$examples/wilson_cg" --load-gauge corrupt.nersc --no-history; then
  fail "a corrupt NERSC file was accepted"
fi
refusals=$(grep -c "corrupt.nersc' is corrupt: the checksum of its links is" corrupt4.log)
distinct=$(grep "is corrupt: the checksum" corrupt4.log | sort -u | wc -l)
if [ "$refusals" = 4 ] && [ "$distinct" = 1 ]; then
  echo "a corrupt NERSC file is refused by each of 4 ranks with the same message: $(grep -m1 'is corrupt' corrupt4.log)"
else
  fail "corrupt NERSC file: $refusals refusals, $distinct distinct messages (expected 4 and 1)"; cat corrupt4.log
fi

# ILDG (64- and 32-bit) and openQCD files: the same bytes from 1, 2 and 4
# ranks, the file of 2 ranks read on 1 and 4 with the plaquette saved, and a
# flipped byte in the links refused by every rank with the same message.
# (A smaller lattice than the NERSC files': eighteen more runs.)
small=(--lattice 4 4 4 8 --seed 11 --no-history)
for kind in ildg:64 ildg:32 openqcd:64; do
  format=${kind%:*} bits=${kind#*:} name=${kind/:/_}
  for ranks in 1 2 4; do
    run "$ranks" "save_${name}_$ranks.log" "$examples/wilson_cg" "${small[@]}" --save-gauge "np$ranks.$name" \
      --save-format "$format" --save-precision "$bits" || fail "wilson_cg --save-format $format ($bits-bit) on $ranks ranks"
  done
  if cmp "np1.$name" "np2.$name" && cmp "np1.$name" "np4.$name"; then
    echo "cmp: the $format ($bits-bit) files written on 1, 2 and 4 ranks are identical ($(stat -c %s "np1.$name") bytes)"
  else
    fail "$format ($bits-bit) files of 1, 2 and 4 ranks differ"
  fi
  for ranks in 1 4; do
    run "$ranks" "load_${name}_$ranks.log" "$examples/wilson_cg" --load-gauge "np2.$name" --seed 11 --no-history ||
      fail "wilson_cg --load-gauge (a $format file of 2 ranks) on $ranks ranks"
  done
  if [ -n "$(result "load_${name}_1.log")" ] && diff <(result "load_${name}_1.log") <(result "load_${name}_4.log") >/dev/null; then
    echo "the $format ($bits-bit) file of 2 ranks read on 1 and 4 ranks: the same plaquette and solve ($(grep '^average plaquette' "load_${name}_1.log"))"
  else
    fail "the $format ($bits-bit) file of 2 ranks gives different results on 1 and 4 ranks"
  fi
  if [ "$bits" = 64 ] && ! diff <(grep '^average plaquette' "save_${name}_1.log") <(grep '^average plaquette' "load_${name}_1.log") >/dev/null; then
    fail "the $format file read back has another plaquette than the one saved"
  fi
  cp "np2.$name" "corrupt.$name"
  size=$(stat -c %s "corrupt.$name")
  printf '\x55' | dd of="corrupt.$name" bs=1 seek=$((size - 2002)) conv=notrunc status=none
  if run 4 "corrupt_$name.log" "$examples/wilson_cg" --load-gauge "corrupt.$name" --no-history; then
    fail "a corrupt $format file was accepted"
  fi
  refusals=$(grep -c "corrupt.$name' is corrupt" "corrupt_$name.log")
  distinct=$(grep "is corrupt" "corrupt_$name.log" | sort -u | wc -l)
  if [ "$refusals" = 4 ] && [ "$distinct" = 1 ]; then
    echo "a corrupt $format ($bits-bit) file is refused by each of 4 ranks with the same message: $(grep -m1 'is corrupt' "corrupt_$name.log")"
  else
    fail "corrupt $format file: $refusals refusals, $distinct distinct messages (expected 4 and 1)"; cat "corrupt_$name.log"
  fi
done

# Checkpoints: written on 4 ranks, resumed on 1 and 2.
cavity=(--n 32 --check-every 500 --checkpoint-every 1000 --tolerance 0)
run_cavity 1 whole.log "$examples/lbm_cavity" "${cavity[@]}" --max-steps 2000 --out whole || fail "cavity on 1 rank"
run_cavity 4 first.log "$examples/lbm_cavity" "${cavity[@]}" --max-steps 1000 --out first || fail "cavity on 4 ranks"
for ranks in 1 2; do
  mkdir -p "resumed$ranks"
  cp first/cavity.chk "resumed$ranks/"
  run_cavity "$ranks" "resumed$ranks.log" "$examples/lbm_cavity" "${cavity[@]}" --max-steps 2000 --restart --out "resumed$ranks" ||
    fail "cavity resumed on $ranks ranks"
  same=1
  for f in whole/*; do cmp "$f" "resumed$ranks/$(basename "$f")" || same=0; done
  if [ $same = 1 ]; then
    echo "checkpoint of 4 ranks at step 1000, resumed on $ranks rank(s) to 2000: $(ls whole | tr '\n' ' ')identical to one uninterrupted run"
  else
    fail "resumed on $ranks ranks differs from the uninterrupted run"
  fi
done
mkdir -p corrupt && cp first/cavity.chk corrupt/cavity.chk
size=$(stat -c %s corrupt/cavity.chk)
printf '\x55' | dd of=corrupt/cavity.chk bs=1 seek=$((size / 2)) conv=notrunc status=none
if run_cavity 2 corrupt_chk.log "$examples/lbm_cavity" "${cavity[@]}" --max-steps 2000 --restart --out corrupt; then
  fail "a corrupt checkpoint was accepted"
fi
refusals=$(grep -c "fails its checksum (corrupt)" corrupt_chk.log)
if [ "$refusals" = 2 ]; then
  echo "a corrupt checkpoint is refused by each of 2 ranks: $(grep -m1 'fails its checksum' corrupt_chk.log)"
else
  fail "corrupt checkpoint: $refusals refusals (expected 2)"; cat corrupt_chk.log
fi

[ $failures = 0 ] && echo "=== files agree across 1, 2 and 4 ranks"
exit $((failures > 0))
