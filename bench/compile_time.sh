#!/usr/bin/env bash
# Compile time as a benchmark: the from-scratch native build (library, tests,
# examples, benchmarks) of one commit, in a fresh clone, without the
# compiler cache, every file timed by /usr/bin/time. JSON lines on standard
# output: one per translation unit (seconds of wall and CPU time, peak
# compiler memory), then the whole build.
#   bash bench/compile_time.sh [commit] [jobs] [targets...] > compile_time.jsonl
# Compare two commits by running them one after the other: on a shared
# machine the same build varies by 20 % or more between hours.
# LATTE_KEEP_BUILD=DIR keeps the clone and its Release build in DIR (src/,
# build/), so that bench/compare_builds.sh can run the benchmarks the
# timing built instead of building them a second time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
commit=${1:-HEAD}
jobs=${2:-$(nproc)}
shift $(( $# > 2 ? 2 : $# ))
if [ -n "${LATTE_KEEP_BUILD:-}" ]; then
  work=$LATTE_KEEP_BUILD
  if [ -e "$work" ]; then echo "compile_time.sh: $work exists; LATTE_KEEP_BUILD names a new folder" >&2; exit 2; fi
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/latte-compile-time.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
git clone -q "$root" "$work/src"
git -C "$work/src" checkout -q "$commit"
revision=$(git -C "$work/src" rev-parse --short HEAD)

# The compiler launcher: times each compile and appends "wall cpu kB object".
cat > "$work/time_compile.sh" <<EOS
#!/usr/bin/env bash
object=\$(printf '%s\n' "\$@" | grep -A1 '^-o\$' | tail -1)
exec /usr/bin/time -a -o "$work/files.txt" -f "%e %U %S %M \$object" "\$@"
EOS
chmod +x "$work/time_compile.sh"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLATTE_BACKEND=cpu -DLATTE_SIMD=native \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$work/time_compile.sh" >/dev/null
CCACHE_DISABLE=1 /usr/bin/time -o "$work/whole.txt" -f "%e %U %S %M" ninja -C "$work/build" -j "$jobs" "$@" >/dev/null

cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
while read -r wall user system kilobytes object; do
  printf '{"bench":"compile_file","commit":"%s","file":"%s","wall_s":%s,"cpu_s":%.2f,"peak_memory_kb":%s}\n' \
    "$revision" "$object" "$wall" "$(awk -v a="$user" -v b="$system" 'BEGIN { print a + b }')" "$kilobytes"
done < <(sort -k2 -rn "$work/files.txt")
read -r wall user system kilobytes < "$work/whole.txt"
printf '{"bench":"compile_whole","commit":"%s","jobs":%s,"cores":%s,"cpu":"%s","files":%s,"wall_s":%s,"cpu_s":%.2f,"largest_compiler_memory_kb":%s}\n' \
  "$revision" "$jobs" "$(nproc)" "$cpu_model" "$(wc -l < "$work/files.txt")" "$wall" "$(awk -v a="$user" -v b="$system" 'BEGIN { print a + b }')" \
  "$(sort -k4 -n "$work/files.txt" | tail -1 | cut -d' ' -f4)"
