#!/usr/bin/env bash
# Build and run the whole test suite, once per configuration.
# Default: the native CPU build and the simt (per-lane) build. Choose others
# with LATTE_TEST_CONFIGS, e.g. "native scalar avx2 avx512 simt".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/cmake/install_debian_packages.sh"

configs=${LATTE_TEST_CONFIGS:-"native simt"}
jobs=${LATTE_JOBS:-$(nproc)}

for config in $configs; do
  case "$config" in
    simt) options=(-DLATTE_BACKEND=simt -DLATTE_SIMD=native) ;;
    native | scalar | avx2 | avx512 | sse2) options=(-DLATTE_BACKEND=cpu -DLATTE_SIMD="$config") ;;
    *) echo "unknown test configuration '$config'" >&2; exit 2 ;;
  esac
  build="$root/build/test-$config"
  echo "=== Latte tests: configuration '$config' (${options[*]}) ==="
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${options[@]}" >/dev/null
  cmake --build "$build" -j "$jobs"
  # Tests run side by side, each with its own OpenMP threads: let idle
  # threads sleep rather than spin, or they steal the cores the others need.
  (cd "$build" && OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} ctest --output-on-failure -j "$jobs")
done
