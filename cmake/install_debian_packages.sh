#!/usr/bin/env bash
# Install the Debian packages Latte needs that are not installed yet.
# Sourced or run by examples/run_demo.sh and tests/run_all.sh; with the
# argument fuzz, by tests/fuzz/run_fuzzers.sh.
set -euo pipefail

latte_packages=(g++ make cmake ninja-build ccache libgtest-dev libxsimd-dev librandom123-dev libeigen3-dev
                libcli11-dev nlohmann-json3-dev libpng-dev libopenmpi-dev openmpi-bin
                libhdf5-dev  # the spectroscopy example's correlator files (examples/correlator_file.hpp)
                libboost-dev  # Boost.Math and Boost.Multiprecision: the rational approximations (solvers/rational/)
                python3)  # python3: bench/render_performance.py, run by the test docs_performance_tables
# "fuzz" (tests/fuzz/run_fuzzers.sh): clang's libFuzzer, its sanitizer
# runtimes and its OpenMP.
if [ "${1:-}" = fuzz ]; then
  latte_packages+=(clang-14 libclang-rt-14-dev libomp-14-dev)
fi

missing=()
for package in "${latte_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sudo_command=()
  elif command -v sudo >/dev/null; then
    sudo_command=(sudo)
  else
    echo "error: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_command[@]}" apt-get update -qq
  "${sudo_command[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
