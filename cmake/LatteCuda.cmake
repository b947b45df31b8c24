# The CUDA backend: nvcc from /usr/local/cuda unless CMAKE_CUDA_COMPILER says
# otherwise, Hopper (sm_90, H100/H200) unless CMAKE_CUDA_ARCHITECTURES says
# otherwise. CMake 3.25 does not know CUDA C++20 (CMAKE_CUDA_STANDARD 20
# silently compiles as C++17), so -std=c++20 is passed by hand.
if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
if(NOT CMAKE_CUDA_HOST_COMPILER)
  set(CMAKE_CUDA_HOST_COMPILER ${CMAKE_CXX_COMPILER})
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
find_program(LATTE_CCACHE ccache)
if(LATTE_CCACHE AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${LATTE_CCACHE})
endif()

# Bytes per virtual-node vector on the GPU: lanes = bytes / sizeof(real),
# consecutive in memory and read by consecutive threads. 64 gives 8 double or
# 16 float lanes: every 32-byte memory sector a warp touches is used whole,
# and lattices need only the divisibility an AVX-512 build needs.
set(LATTE_CUDA_VECTOR_BYTES 64 CACHE STRING "CUDA backend: bytes per virtual-node vector (lanes = bytes / sizeof(real))")

set(LATTE_SIMD_BYTES ${LATTE_CUDA_VECTOR_BYTES})
set(LATTE_SIMD_FLAGS "")
set(LATTE_CUDA_FLAGS -std=c++20 --expt-relaxed-constexpr --extended-lambda -Xcompiler=-fopenmp)
