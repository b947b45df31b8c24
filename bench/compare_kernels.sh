#!/usr/bin/env bash
# Which loop kernels two builds of one program share instruction for
# instruction. Every OpenMP-outlined function (the body of a site loop: a
# statement's kernel, a reduction, a field fill) is disassembled, its
# addresses masked (calls, jumps, RIP-relative constants), and hashed; the
# old build's kernels are matched to the new build's as multisets.
#   bash bench/compare_kernels.sh <old program> <new program> [--names]
# Why: on the shared VMs the same code in two binaries times 0.94-1.07 of
# itself (the yardsticks of compare_builds.sh), so a median below 0.97 there
# does not say whether a change made a kernel slower. Where the kernel a
# benchmark line times is identical in both builds, the line's difference
# is the machine's, not the code's; where it is not, read the two
# disassemblies (objdump -d --disassemble=<symbol>).
# --names lists, demangled, the old build's kernels that have no identical
# kernel in the new build.
set -euo pipefail
old=${1:?usage: compare_kernels.sh <old program> <new program> [--names]}
new=${2:?usage: compare_kernels.sh <old program> <new program> [--names]}
names=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "hash mangled-name" per outlined function, sorted by hash.
kernel_hashes() {
  objdump -d --no-show-raw-insn "$1" | awk '
    /^[0-9a-f]+ <.*\._omp_fn\.[0-9]+>:$/ { name = $2; inside = 1; body = ""; next }
    /^$/ { if (inside) print name "\t" body; inside = 0; next }
    inside {
      sub(/^ *[0-9a-f]+:[ \t]*/, "")
      gsub(/[0-9a-f]+ <[^>]*>/, "ADDRESS")
      gsub(/0x[0-9a-f]+\(%rip\)/, "RIP")
      gsub(/#.*/, "")
      body = body ";" $0
    }' |
    while IFS=$'\t' read -r name body; do
      printf '%s %s\n' "$(printf '%s' "$body" | md5sum | cut -c1-16)" "$name"
    done | sort
}
kernel_hashes "$old" > "$work/old"
kernel_hashes "$new" > "$work/new"
cut -d' ' -f1 "$work/old" > "$work/old_hashes"
cut -d' ' -f1 "$work/new" > "$work/new_hashes"
identical=$(comm -12 "$work/old_hashes" "$work/new_hashes" | wc -l)
echo "$(basename "$new"): old kernels $(wc -l < "$work/old"), new kernels $(wc -l < "$work/new"), old kernels with an instruction-identical new one: $identical"
if [ "$names" = --names ]; then
  comm -23 "$work/old_hashes" "$work/new_hashes" > "$work/missing"
  if [ -s "$work/missing" ]; then
    grep -F -f "$work/missing" "$work/old" | cut -d' ' -f2 | tr -d '<>:' | c++filt | cut -c1-300
  fi
fi
