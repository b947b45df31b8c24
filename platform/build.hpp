#pragma once
// Compiler-facing macros shared by every layer. This is the only place that
// knows whether device code is being compiled, so that site tensors and DSL
// nodes can be written once for the vector path, the per-lane path on the CPU
// and (later) the per-lane path inside CUDA kernels.

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
