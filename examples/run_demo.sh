#!/usr/bin/env bash
# Build and run Latte's main demo (native CPU build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/cmake/install_debian_packages.sh"

build="$root/build/demo"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLATTE_SIMD=native \
      -DLATTE_BUILD_TESTS=OFF -DLATTE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target heat_diffusion
"$build/examples/heat_diffusion" "$@"
