#!/usr/bin/env bash
# Fuzz the file readers with libFuzzer (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer): one harness per reader, fuzz_<reader>.cpp.
#   tests/fuzz/run_fuzzers.sh [LIMIT] [READER...]
# LIMIT is a number of executions per reader (default 100000) or a time per
# reader in seconds with an s (e.g. 600s); READER is nersc, ildg, openqcd,
# milc or checkpoint (default all, one after the other). Inputs grow from
# the committed seeds (corpus/<reader>/) in build/fuzz/corpus/<reader>/;
# an input that crashes, hangs (30 s), leaks or allocates more than 2 GiB
# is written to build/fuzz/crashes/<reader>/ and the script stops with
# libFuzzer's report. Keep such an input, once the bug
# is fixed, in tests/fuzz/crashes/<reader>/: the test suite replays it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/cmake/install_debian_packages.sh" fuzz

limit=${1:-100000}
shift || true
readers=("$@")
[ ${#readers[@]} -gt 0 ] || readers=(nersc ildg openqcd milc checkpoint)
case "$limit" in
  *s) limit_option=(-max_total_time="${limit%s}") ;;
  *) limit_option=(-runs="$limit") ;;
esac

out="$root/build/fuzz"
mkdir -p "$out"
for reader in "${readers[@]}"; do
  # One lane, the simt backend and no MPI: the readers' code is the same on
  # every backend, and one lane lets any lattice in a header be read.
  binary="$out/fuzz_$reader"
  echo "=== Latte fuzzing: building $binary ==="
  clang++-14 -std=c++20 -O1 -g -fno-omit-frame-pointer -fopenmp -DLATTE_BACKEND_SIMT -DLATTE_SIMD_BYTES=0 \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I"$root" \
    "$root/tests/fuzz/fuzz_$reader.cpp" -o "$binary"
  mkdir -p "$out/corpus/$reader" "$out/crashes/$reader"
  echo "=== Latte fuzzing: $reader, ${limit_option[*]} ==="
  # A time limit of 30 s per input, not 10: an input takes well under a
  # second, but on a loaded machine a 10 s alarm fired spuriously (and
  # libFuzzer's handler then deadlocked inside ASan's allocator).
  # The dictionary (not_finite.dict: NaN and infinity in 32 and 64 bits,
  # both byte orders, and as text) lets mutations put them into links and
  # header numbers; the harness refuses a reader that accepts them.
  dictionary=()
  [ "$reader" = checkpoint ] || dictionary=(-dict="$root/tests/fuzz/not_finite.dict")
  OMP_NUM_THREADS=1 "$binary" "${limit_option[@]}" "${dictionary[@]}" -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/crashes/$reader/" \
    "$out/corpus/$reader" "$root/tests/fuzz/corpus/$reader"
done
