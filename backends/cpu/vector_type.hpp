#pragma once
// The SIMD vector type of the CPU lowering for N lanes of Real. One lane is
// the plain scalar (xsimd 8.1 has no scalar batch); otherwise the xsimd batch
// of the matching register width, which must be enabled by the -m flags the
// build uses (LATTE_SIMD in CMake).

#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "lattice/tensors/tensor.hpp"

namespace latte::backend::cpu {

template <int Bytes> struct arch_for_bytes {
  static_assert(Bytes < 0, "Latte: this CPU build has no SIMD vector of this many bytes (an SSE2 build has no "
                           "8-byte float vector for MatchingSingleWidth, and -march must enable the width asked for)");
};
// 64 bytes: AVX-512DQ even where the CPU has BW. What BW adds in xsimd 8.1
// is only for 8- and 16-bit integers, which Latte never uses, and one of its
// kernels does not compile unoptimised: at -O0 GCC's blend intrinsics are
// macros, and xsimd's BW select of 64-bit integers, which its log of doubles
// calls, casts a batch to a byte vector there (an error). A Debug
// build, or the CI's -O0 benchmarks, of anything that takes a logarithm
// then failed on an AVX-512 machine.
#if XSIMD_WITH_AVX512DQ
template <> struct arch_for_bytes<64> { using type = xsimd::avx512dq; };
#elif XSIMD_WITH_AVX512F
template <> struct arch_for_bytes<64> { using type = xsimd::avx512f; };
#endif
#if XSIMD_WITH_FMA3_AVX2
template <> struct arch_for_bytes<32> { using type = xsimd::fma3<xsimd::avx2>; };
#elif XSIMD_WITH_AVX2
template <> struct arch_for_bytes<32> { using type = xsimd::avx2; };
#elif XSIMD_WITH_AVX
template <> struct arch_for_bytes<32> { using type = xsimd::avx; };
#endif
#if XSIMD_WITH_SSE4_2
template <> struct arch_for_bytes<16> { using type = xsimd::sse4_2; };
#elif XSIMD_WITH_SSE2
template <> struct arch_for_bytes<16> { using type = xsimd::sse2; };
#endif

template <class Real, int N> struct vector_type {
  using type = xsimd::batch<Real, typename arch_for_bytes<N * static_cast<int>(sizeof(Real))>::type>;
};
template <class Real> struct vector_type<Real, 1> { using type = Real; };

template <class Real, int N> using vector_t = typename vector_type<Real, N>::type;

}  // namespace latte::backend::cpu

namespace latte {
// xsimd batches and masks are real leaves of site tensors.
template <class T, class A> struct is_simd_leaf<xsimd::batch<T, A>> : std::true_type {};
template <class T, class A> struct is_simd_leaf<xsimd::batch_bool<T, A>> : std::true_type {};

// A vector the optimiser may not look into (lattice/tensors/complex.hpp: fused_multiply_add).
template <class T, class A>
struct OpaqueValue<xsimd::batch<T, A>> {
  static inline __attribute__((always_inline)) xsimd::batch<T, A> of(xsimd::batch<T, A> x) {
    auto r = x.data;
    asm("" : "+v"(r));
    return xsimd::batch<T, A>(r);
  }
};

// -x as the compiler's own vector negation (lattice/tensors/complex.hpp: Negation),
// which it folds into a following addition; xsimd's is an xor intrinsic.
template <class T, class A>
struct Negation<xsimd::batch<T, A>> {
  static inline __attribute__((always_inline)) xsimd::batch<T, A> of(const xsimd::batch<T, A>& x) {
    return xsimd::batch<T, A>(-x.data);
  }
};

// x * y + z rounded once on a vector (lattice/tensors/complex.hpp: fused_multiply_add),
// with the FMA instruction itself: xsimd 8.1's fma is x * y + z for AVX-512
// and SSE4.2, one instruction only where the compiler contracts it. Without
// FMA hardware (an SSE2 build) there is no single rounding to be had cheaply,
// and x * y + z stays (reductions then differ from a scalar build's bits).
template <class T, class A>
struct RoundedOnceMultiplyAdd<xsimd::batch<T, A>> {
  using Batch = xsimd::batch<T, A>;
  static_assert(std::is_floating_point_v<T>, "Latte: fused_multiply_add is for real vectors");
  static inline __attribute__((always_inline)) Batch of(const Batch& x, const Batch& y, const Batch& z) {
    constexpr bool is_double = std::is_same_v<T, double>;
#if defined(__AVX512F__)
    if constexpr (sizeof(Batch) == 64) {
      if constexpr (is_double) return _mm512_fmadd_pd(x, y, z);
      else return _mm512_fmadd_ps(x, y, z);
    }
#endif
#if defined(__FMA__)
    if constexpr (sizeof(Batch) == 32) {
      if constexpr (is_double) return _mm256_fmadd_pd(x, y, z);
      else return _mm256_fmadd_ps(x, y, z);
    }
    if constexpr (sizeof(Batch) == 16) {
      if constexpr (is_double) return _mm_fmadd_pd(x, y, z);
      else return _mm_fmadd_ps(x, y, z);
    }
#endif
    return xsimd::fma(x, y, z);
  }
};
}  // namespace latte
