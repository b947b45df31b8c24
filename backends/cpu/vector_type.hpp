#pragma once
// The SIMD vector type of the CPU lowering for N lanes of Real. One lane is
// the plain scalar (xsimd 8.1 has no scalar batch); otherwise the xsimd batch
// of the matching register width, which must be enabled by the -m flags the
// build uses (LATTE_SIMD in CMake).

#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "lattice/tensor.hpp"

namespace latte::backend::cpu {

template <int Bytes> struct arch_for_bytes {
  static_assert(Bytes < 0, "Latte: this CPU build has no SIMD vector of this many bytes (an SSE2 build has no "
                           "8-byte float vector for MatchingSingleWidth, and -march must enable the width asked for)");
};
#if XSIMD_WITH_AVX512BW
template <> struct arch_for_bytes<64> { using type = xsimd::avx512bw; };
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

// A vector the optimiser may not look into (lattice/complex.hpp: fused_multiply_add).
template <class T, class A>
struct OpaqueValue<xsimd::batch<T, A>> {
  static inline __attribute__((always_inline)) xsimd::batch<T, A> of(xsimd::batch<T, A> x) {
    auto r = x.data;
    asm("" : "+v"(r));
    return xsimd::batch<T, A>(r);
  }
};
}  // namespace latte
