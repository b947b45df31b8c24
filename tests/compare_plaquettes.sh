#!/usr/bin/env bash
# Compare the average plaquettes of two gauge_ensemble runs (their printed
# "average plaquette M +- E" lines, E from blocked data).
# Usage: compare_plaquettes.sh agree|differ LOG_A LOG_B
#   agree:  passes when |M_A - M_B| < 3 sigma, sigma^2 = E_A^2 + E_B^2
#           (the same physics by two algorithms);
#   differ: passes when |M_A - M_B| > 3 sigma (the chains are long enough to
#           see the difference the agreement tests must not miss).
# The chains are deterministic (fixed seeds, the same bits on any rank count,
# width and thread count), so a comparison passes or fails the same way on
# every run: the 3 sigma is a judgement made once, not a flaky draw.
set -euo pipefail
mode=$1 a=$2 b=$3
read_plaquette() {
  local line
  line=$(grep -E '^average plaquette [0-9.]+ [+]- [0-9.]+' "$1") ||
    { echo "compare_plaquettes: no 'average plaquette M +- E' line in $1" >&2; exit 2; }
  echo "$line" | awk '{print $3, $5}'
}
read -r mean_a error_a <<<"$(read_plaquette "$a")"
read -r mean_b error_b <<<"$(read_plaquette "$b")"
awk -v mode="$mode" -v a="$(basename "$a" .log)" -v b="$(basename "$b" .log)" \
    -v ma="$mean_a" -v ea="$error_a" -v mb="$mean_b" -v eb="$error_b" 'BEGIN {
  sigma = sqrt(ea * ea + eb * eb)
  if (sigma <= 0) { print "compare_plaquettes: zero error, nothing to compare"; exit 2 }
  d = ma - mb; n = (d < 0 ? -d : d) / sigma
  printf "%s %.6f(%.0f) - %s %.6f(%.0f) = %+.6f, %.2f sigma\n", a, ma, ea * 1e6, b, mb, eb * 1e6, d, n
  if (mode == "agree") { ok = n < 3; printf "%s\n", ok ? "agree within 3 sigma" : "DISAGREE: more than 3 sigma apart" }
  else if (mode == "differ") { ok = n > 3; printf "%s\n", ok ? "differ by more than 3 sigma" : "NOT RESOLVED: less than 3 sigma apart" }
  else { print "compare_plaquettes: the mode is agree or differ, not " mode; exit 2 }
  exit ok ? 0 : 1
}'
