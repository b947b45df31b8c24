#pragma once
// What this build is: the one header that reads the build's macros and
// names its backend and field memory, and the compiler-facing macros shared
// by every layer. It is the only place that knows whether device code is
// being compiled, so that site tensors and DSL nodes can be written once for
// the vector path, the per-lane path on the CPU and the per-lane path inside
// CUDA kernels.
//
// The build's backend comes from CMake (LATTE_BACKEND: cpu, simt or cuda,
// passed as LATTE_BACKEND_SIMT or LATTE_BACKEND_CUDA; neither is cpu), and
// with it the field memory (LATTE_EMULATE_DEVICE_MEMORY: simt on emulated
// device memory). LATTE_BUILD_BACKEND and LATTE_BUILD_MEMORY name them for
// the two headers that include a backend's or a memory's files
// (backends/backend.hpp, platform/memory/field_memory.hpp), and
// latte::build:: names them to C++.

#if defined(__CUDACC__)
#define LATTE_HOST_DEVICE __host__ __device__
#else
#define LATTE_HOST_DEVICE
#endif

// Expression evaluation relies on every node and tensor operation being
// inlined into the one loop body of a statement; GCC's heuristics give up on
// deep template nests, so we insist.
#if defined(__CUDACC__)
#define LATTE_INLINE __forceinline__ LATTE_HOST_DEVICE
#else
#define LATTE_INLINE __attribute__((always_inline)) inline LATTE_HOST_DEVICE
#endif

// Bytes per SIMD vector of the virtual-node layout; 0 means one lane (the
// scalar layout). CMake sets it from LATTE_SIMD; otherwise follow the ISA the
// compiler targets.
#ifndef LATTE_SIMD_BYTES
#if defined(__AVX512F__)
#define LATTE_SIMD_BYTES 64
#elif defined(__AVX__)
#define LATTE_SIMD_BYTES 32
#elif defined(__SSE2__)
#define LATTE_SIMD_BYTES 16
#else
#define LATTE_SIMD_BYTES 0
#endif
#endif

// Host-device templates that apply a caller's function (for_each_leaf) are
// also instantiated with host-only functions from host code; nvcc would
// warn about each such instantiation, so the check is switched off for them.
#if defined(__CUDACC__)
#define LATTE_CALLS_HOST_OR_DEVICE _Pragma("nv_exec_check_disable")
#else
#define LATTE_CALLS_HOST_OR_DEVICE
#endif

// The same insistence for lambdas inside tensor operations (placed after the
// parameter list: [](auto x) LATTE_LAMBDA { ... }).
#if defined(__CUDACC__)
#define LATTE_LAMBDA
#else
#define LATTE_LAMBDA __attribute__((always_inline))
#endif

#define LATTE_BUILD_CPU 1
#define LATTE_BUILD_SIMT 2
#define LATTE_BUILD_CUDA 3
#define LATTE_BUILD_HOST_MEMORY 1
#define LATTE_BUILD_EMULATED_DEVICE_MEMORY 2
#define LATTE_BUILD_CUDA_MEMORY 3
#if defined(LATTE_BACKEND_CUDA)
#define LATTE_BUILD_BACKEND LATTE_BUILD_CUDA
#define LATTE_BUILD_MEMORY LATTE_BUILD_CUDA_MEMORY
#elif defined(LATTE_BACKEND_SIMT)
#define LATTE_BUILD_BACKEND LATTE_BUILD_SIMT
#if defined(LATTE_EMULATE_DEVICE_MEMORY)
#define LATTE_BUILD_MEMORY LATTE_BUILD_EMULATED_DEVICE_MEMORY
#else
#define LATTE_BUILD_MEMORY LATTE_BUILD_HOST_MEMORY
#endif
#else
#define LATTE_BUILD_BACKEND LATTE_BUILD_CPU
#define LATTE_BUILD_MEMORY LATTE_BUILD_HOST_MEMORY
#endif

namespace latte::build {
enum class Backend { cpu, simt, cuda };
enum class Memory { host, emulated_device, cuda_device };
inline constexpr Backend backend = LATTE_BUILD_BACKEND == LATTE_BUILD_CUDA   ? Backend::cuda
                                   : LATTE_BUILD_BACKEND == LATTE_BUILD_SIMT ? Backend::simt
                                                                             : Backend::cpu;
inline constexpr Memory memory = LATTE_BUILD_MEMORY == LATTE_BUILD_CUDA_MEMORY ? Memory::cuda_device
                                 : LATTE_BUILD_MEMORY == LATTE_BUILD_EMULATED_DEVICE_MEMORY ? Memory::emulated_device
                                                                                            : Memory::host;
}  // namespace latte::build
