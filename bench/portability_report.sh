#!/usr/bin/env bash
# Performance portability of Latte on this machine: builds the benchmarks in
# every configuration this machine can run, each in its own build folder
# (build/portability/<config>), runs bench_axpy, bench_wilson, bench_lbm and
# bench_peak_flops in each, one file of JSON lines per configuration
# ("platform"), and hands them to bench/portability_report.py, which writes
# portability.md, portability.json and roofline.png into the output folder.
#
# Configurations: scalar, sse2, avx2, avx512 and native (the cpu backend at
# each SIMD width) and simt (per-lane code) on this CPU, each only if the CPU
# has the instructions (/proc/cpuinfo); cuda only where nvidia-smi finds a
# GPU and nvcc is installed (its lines then come from the GPU, with no
# compute ceiling: bench_peak_flops measures CPUs only).
#
# Metric (Pennycook, Sewall, Lee, FGCS 2019), per kernel (bench name,
# precision, lattice) and platform:
#   architectural efficiency  fraction_of_stream, capped at 1;
#   application efficiency    best observed time on the same machine /
#                             Latte's time;
#   Phi(set)                  harmonic mean over the set's platforms, 0 if
#                             one of them has no result.
# What counts as a competitor ("best observed"): Latte itself on every
# configuration of this CPU (the CPU widths and simt are one machine, so
# the fastest of them is a fair best for all), and the yardsticks that
# compute the same thing another way: axpy_plain_loop_yardstick,
# *_plain_sum_yardstick (plain, not reproducible, sums) and
# wilson_dslash_hand_written_yardstick. Not competitors:
# wilson_dslash_access_pattern_yardstick (Dslash's loads and stores with no
# arithmetic: a ceiling, not an implementation) and
# wilson_dslash_local_access_yardstick. Lines given with --extra are
# machines of their own.
#
# Default sets for Phi: cpu_widths = {scalar, avx2, native} and
# cpu_and_simt = {native, simt}; --set adds more.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  cat <<EOF
Usage: bash bench/portability_report.sh [options]

Builds and runs Latte's benchmarks in every configuration this machine can
run and computes the performance-portability metric (Pennycook, Sewall,
Lee, FGCS 2019): portability.md, portability.json and roofline.png in the
output folder, and each configuration's JSON lines (<config>.jsonl),
standard error (<config>.log) and build log (<config>.build.log) beside them.

Options:
  --out DIR            output folder (default: build/portability/report)
  --configs "LIST"     configurations to try (default: "scalar sse2 avx2 avx512
                       native simt cuda"); those this machine cannot run are
                       skipped, and the output says why
  --extra NAME=FILE    JSON lines of another platform to include, e.g.
                       h100=bench/measured/2026-11-22_h100-80gb-hbm3_e591316_reconstructed.jsonl (repeat)
  --set NAME=P1,P2,..  another platform set for Phi (repeat); the defaults
                       cpu_widths=scalar,avx2,native and cpu_and_simt=native,simt
                       are always computed
  --axpy "A B C D"     bench_axpy lattice (default: "48 48 48 48")
  --wilson "L ..."     bench_wilson extents, each lattice L^4 (default: "24")
  --d2q9 "X Y"         bench_lbm D2Q9 lattice (default: "2048 2048")
  --d3q19 "X Y Z"      bench_lbm D3Q19 lattice (default: "128 128 128")
  -r, --repetitions N  timed calls per kernel, the best counts (default: 5)
  --stream-elements N  doubles per STREAM array (default: the benchmarks',
                       2^26: 512 MiB per array)
  --quiet-wait S       each benchmark waits up to S seconds for other
                       processes to leave the CPUs (default: 5)
  --threads N          OpenMP threads (default: nproc = $(nproc))
  --jobs N             parallel compile jobs (default: 2)
  --nice N             niceness of builds and runs (default: 19; on a shared
                       machine, lines measured while others ran are marked
                       "contended" by the benchmarks)
  --quick              tiny sizes and 2 repetitions, to check the pipeline
                       (the figures mean nothing)
  --no-build           use the existing build folders
  --no-run             use the existing <config>.jsonl files in the output
                       folder: only the report is made again
  -h, --help           this help

Example (a real run, with the H100 figures reconstructed from README.md):
  bash bench/portability_report.sh --out build/portability/report \\
      --extra h100=bench/measured/2026-11-22_h100-80gb-hbm3_e591316_reconstructed.jsonl --set cpu_and_h100=native,h100
EOF
}

out=$root/build/portability/report
configs="scalar sse2 avx2 avx512 native simt cuda"
extras=()
sets=()
axpy="48 48 48 48"
wilson="24"
d2q9="2048 2048"
d3q19="128 128 128"
repetitions=5
stream_elements=""
quiet_wait=5
threads=$(nproc)
jobs=2
niceness=19
build=1
run=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift ;;
    --configs) configs=$2; shift ;;
    --extra) extras+=("$2"); shift ;;
    --set) sets+=("$2"); shift ;;
    --axpy) axpy=$2; shift ;;
    --wilson) wilson=$2; shift ;;
    --d2q9) d2q9=$2; shift ;;
    --d3q19) d3q19=$2; shift ;;
    -r | --repetitions) repetitions=$2; shift ;;
    --stream-elements) stream_elements=$2; shift ;;
    --quiet-wait) quiet_wait=$2; shift ;;
    --threads) threads=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --nice) niceness=$2; shift ;;
    --quick) axpy="16 16 16 16"; wilson="8"; d2q9="256 256"; d3q19="32 32 32"; repetitions=2
             stream_elements=$((1 << 24)); quiet_wait=0 ;;
    --no-build) build=0 ;;
    --no-run) run=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "portability_report.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
for extra in ${extras[@]+"${extras[@]}"}; do
  file=${extra#*=}
  if [ "$file" = "$extra" ] || [ ! -f "$file" ]; then
    echo "portability_report.sh: --extra $extra: not NAME=FILE of an existing file" >&2
    exit 2
  fi
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
log() { echo "=== portability: $*"; }
started=$(date +%s)

if [ "$build" = 1 ]; then
  bash "$root/cmake/install_debian_packages.sh"
fi

# Can this machine run a configuration? Prints the reason when it cannot.
cpu_has() {
  local flag
  for flag in "$@"; do grep -qw "$flag" /proc/cpuinfo || { echo "this CPU has no $flag"; return 1; }; done
}
nvcc=${CMAKE_CUDA_COMPILER:-/usr/local/cuda/bin/nvcc}
runnable() {
  case "$1" in
    scalar | native | simt) return 0 ;;
    sse2) cpu_has sse2 ;;
    avx2) cpu_has avx2 fma bmi2 ;;                                # -march=x86-64-v3
    avx512) cpu_has avx512f avx512bw avx512cd avx512dq avx512vl ;; # -march=x86-64-v4
    cuda)
      if ! nvidia-smi -L >/dev/null 2>&1; then echo "nvidia-smi finds no GPU"; return 1; fi
      if [ ! -x "$nvcc" ]; then echo "no CUDA compiler at $nvcc"; return 1; fi ;;
    *) echo "unknown configuration"; return 1 ;;
  esac
}
cmake_options() {
  case "$1" in
    simt) echo "-DLATTE_BACKEND=simt -DLATTE_SIMD=native" ;;
    cuda) echo "-DLATTE_BACKEND=cuda -DCMAKE_CUDA_COMPILER=$nvcc" ;;
    *) echo "-DLATTE_BACKEND=cpu -DLATTE_SIMD=$1" ;;
  esac
}

cpu_machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
cpu_platforms=()
gpu_platforms=()
inputs=()
for config in $configs; do
  if ! reason=$(runnable "$config"); then
    log "$config skipped: $reason"
    if [ "$config" = cuda ]; then
      log "cuda: no GPU here, so there are no cuda lines; give a GPU's lines with --extra NAME=FILE"
    fi
    continue
  fi
  dir=$root/build/portability/$config
  bin=$dir/bench
  targets="bench_axpy bench_wilson bench_lbm"
  [ "$config" = cuda ] || targets="$targets bench_peak_flops"
  if [ "$build" = 1 ]; then
    log "$config: building ($(cmake_options "$config")) in $dir"
    t0=$(date +%s)
    # shellcheck disable=SC2046
    nice -n "$niceness" cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release $(cmake_options "$config") \
      -DLATTE_BUILD_TESTS=OFF -DLATTE_BUILD_EXAMPLES=OFF >/dev/null
    # shellcheck disable=SC2086
    if ! nice -n "$niceness" cmake --build "$dir" -j "$jobs" --target $targets > "$out/$config.build.log" 2>&1; then
      tail -30 "$out/$config.build.log"
      log "$config: build failed (whole log: $out/$config.build.log)"
      exit 1
    fi
    log "$config: built in $(( $(date +%s) - t0 )) s"
  fi
  jsonl=$out/$config.jsonl
  if [ "$run" = 1 ]; then
    log "$config: running (OMP_NUM_THREADS=$threads, axpy $axpy, wilson L $wilson, d2q9 $d2q9, d3q19 $d3q19, -r $repetitions)"
    t0=$(date +%s)
    common=(-r "$repetitions" --quiet-wait "$quiet_wait")
    [ -z "$stream_elements" ] || common+=(--stream-elements "$stream_elements")
    : > "$jsonl"
    : > "$out/$config.log"
    status=0
    # shellcheck disable=SC2086
    {
      OMP_NUM_THREADS=$threads nice -n "$niceness" "$bin/bench_axpy" -L $axpy "${common[@]}" || status=1
      OMP_NUM_THREADS=$threads nice -n "$niceness" "$bin/bench_wilson" -L $wilson "${common[@]}" || status=1
      OMP_NUM_THREADS=$threads nice -n "$niceness" "$bin/bench_lbm" --d2q9 $d2q9 --d3q19 $d3q19 "${common[@]}" || status=1
      if [ -x "$bin/bench_peak_flops" ]; then
        OMP_NUM_THREADS=$threads nice -n "$niceness" "$bin/bench_peak_flops" -r "$repetitions" --quiet-wait "$quiet_wait" || status=1
      fi
    } >> "$jsonl" 2>> "$out/$config.log"
    [ "$status" = 0 ] || log "$config: a benchmark failed (see $out/$config.log); its kernels count as missing"
    log "$config: $(grep -c '^{' "$jsonl") lines in $(( $(date +%s) - t0 )) s -> $jsonl"
  fi
  # The peak loop must be vector FMAs on this build's widest registers.
  if [ -x "$bin/bench_peak_flops" ] && command -v objdump >/dev/null; then
    objdump -d --no-show-raw-insn -C "$bin/bench_peak_flops" |
      awk '/^[0-9a-f]+ <.*fma_chains<double>.*>:$/ { inside = 1; next } inside && /^$/ { inside = 0 } inside' |
      grep -oE '(v?fmadd[0-9]*pd|v?mulpd|v?addpd) +%[xyz]mm' | sort | uniq -c | tr -s ' \n' '  ' |
      { read -r summary || true; log "$config: bench_peak_flops double loop:${summary:- no vector arithmetic found}"; }
  fi
  [ -s "$jsonl" ] || { log "$config: no lines"; continue; }
  inputs+=(--input "$config=$jsonl")
  if [ "$config" = cuda ]; then gpu_platforms+=("$config"); else cpu_platforms+=("$config"); fi
done

report_options=(--set "cpu_widths=scalar,avx2,native" --set "cpu_and_simt=native,simt")
for s in ${sets[@]+"${sets[@]}"}; do report_options+=(--set "$s"); done
for extra in ${extras[@]+"${extras[@]}"}; do report_options+=(--input "$extra"); done
if [ ${#cpu_platforms[@]} -gt 0 ]; then
  report_options+=(--machine "$cpu_machine=$(IFS=,; echo "${cpu_platforms[*]}")")
fi
if [ ${#gpu_platforms[@]} -gt 0 ]; then
  report_options+=(--machine "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)=cuda")
fi

# Debian's python3 (where python3-matplotlib installs), not another first on PATH.
python=${PYTHON:-python3}
[ -n "${PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] || python=/usr/bin/python3
if ! "$python" -c 'import matplotlib' 2>/dev/null && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  log "installing python3-matplotlib for the roofline plot"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-matplotlib >/dev/null || true
fi
if ! "$python" -c 'import matplotlib' 2>/dev/null; then
  log "no matplotlib for $python: no roofline.png"
  report_options+=(--no-plot)
fi
log "report: $python bench/portability_report.py ${inputs[*]} ${report_options[*]} --out $out"
"$python" "$root/bench/portability_report.py" ${inputs[@]+"${inputs[@]}"} "${report_options[@]}" --out "$out"
log "done in $(( $(date +%s) - started )) s: $out/portability.md, $out/portability.json, $out/roofline.png"
