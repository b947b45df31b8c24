#!/usr/bin/env bash
# Build the cuda configuration here and pack what a GPU machine needs to run
# its tests and benchmarks (bench/gpu_session.sh) into .gpu/ beside the
# repository root: the build tree without object files, and the shared
# libraries the binaries link that a bare CUDA image may lack.
# The build is one-rank (LATTE_MPI=OFF): a CUDA image need not carry Open MPI,
# whose libraries, plugins and mpirun a copied binary would otherwise need.
# Forced communication (LATTE_FORCE_COMMUNICATION=all) still takes every halo
# through the exchange on one rank (pack kernels, halo stream, unpack); the
# pinned staging of messages between ranks needs MPI and is not run.
# On the GPU machine, from the repository root:
#   mkdir -p /work && ln -sfn "$PWD" /work/main   # CTest files hold absolute paths (only if the root differs)
#   tar -xzf .gpu/build-cuda.tar.gz && export LD_LIBRARY_PATH=$PWD/.gpu/lib
#   bash bench/gpu_session.sh build-cuda all
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release -DLATTE_BACKEND=cuda -DLATTE_MPI=OFF >/dev/null
cmake --build build-cuda -j "$(nproc)"
rm -rf .gpu && mkdir -p .gpu/lib
tar --exclude='*.o' --exclude='*.o.d' -czf .gpu/build-cuda.tar.gz build-cuda
# Every executable of the build, so that a renamed test suite cannot slip out.
find build-cuda -type f -perm -u+x -not -name '*.so*' -not -name '*.sh' | while read -r binary; do
  ldd "$binary" 2>/dev/null | awk '/libgomp|libcudart|libpng/ {print $3}'
done | sort -u | while read -r library; do cp -L -n "$library" .gpu/lib/; done
du -sh .gpu
