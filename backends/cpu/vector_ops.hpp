#pragma once
// Lane-crossing operations of the CPU lowering: the runtime lane permute that
// a shift needs where it crosses a virtual-node boundary, precision
// conversions, prefetches and streaming stores. Permutes use one variable-index shuffle
// where the ISA has it (vpermpd/vpermps on AVX-512, vpermps on AVX2) and a
// store/gather/load otherwise.

#include <cstdint>
#include <type_traits>

#include <immintrin.h>

#include "backends/cpu/vector_type.hpp"
#include "platform/build.hpp"

namespace latte::backend::cpu {

struct VectorOps {
  // The vector of N lanes of another precision (precision_cast), and the
  // lane-wise conversion to it.
  template <class Real, int N> using vector_for = vector_t<Real, N>;
  template <class To, class From>
  LATTE_INLINE static To convert(const From& x) {
    if constexpr (std::is_arithmetic_v<From>) {
      return static_cast<To>(x);
    } else {
      using ToReal = typename To::value_type;
      using FromReal = typename From::value_type;
      constexpr int lanes = From::size;
      static_assert(To::size == lanes, "a precision conversion keeps the lane count");
#if defined(__AVX512F__)
      if constexpr (std::is_same_v<FromReal, double> && std::is_same_v<ToReal, float> && lanes == 8)
        return To(_mm512_cvtpd_ps(x));
      if constexpr (std::is_same_v<FromReal, float> && std::is_same_v<ToReal, double> && lanes == 8)
        return To(_mm512_cvtps_pd(x));
#endif
#if defined(__AVX__)
      if constexpr (std::is_same_v<FromReal, double> && std::is_same_v<ToReal, float> && lanes == 4)
        return To(_mm256_cvtpd_ps(x));
      if constexpr (std::is_same_v<FromReal, float> && std::is_same_v<ToReal, double> && lanes == 4)
        return To(_mm256_cvtps_pd(x));
#endif
      alignas(64) FromReal in[lanes];
      alignas(64) ToReal out[lanes];
      x.store_aligned(in);
      for (int l = 0; l < lanes; ++l) out[l] = static_cast<ToReal>(in[l]);
      return To::load_aligned(out);
    }
  }

  // result lane l = x lane map[l]
  template <class V>
  LATTE_INLINE static V permute(const V& x, const std::int32_t* map) {
    if constexpr (std::is_arithmetic_v<V>) {
      return x;  // one lane: nothing to permute
    } else {
      using Real = typename V::value_type;
      constexpr int lanes = V::size;
#if defined(__AVX512F__)
      if constexpr (std::is_same_v<Real, double> && lanes == 8) {
        const __m512i index = _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(map)));
        return V(_mm512_permutexvar_pd(index, x));
      }
      if constexpr (std::is_same_v<Real, float> && lanes == 16) {
        return V(_mm512_permutexvar_ps(_mm512_loadu_si512(map), x));
      }
#endif
#if defined(__AVX2__)
      if constexpr (std::is_same_v<Real, float> && lanes == 8) {
        return V(_mm256_permutevar8x32_ps(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(map))));
      }
      if constexpr (std::is_same_v<Real, double> && lanes == 4) {
        // Each double is two 32-bit words: lane s becomes words (2s, 2s+1).
        const __m256i s = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(map)));
        const __m256i low = _mm256_slli_epi64(s, 1);
        const __m256i high = _mm256_slli_epi64(_mm256_add_epi64(low, _mm256_set1_epi64x(1)), 32);
        const __m256i words = _mm256_or_si256(low, high);
        return V(_mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(x), words)));
      }
#endif
      alignas(64) Real in[lanes];
      alignas(64) Real out[lanes];
      x.store_aligned(in);
      for (int l = 0; l < lanes; ++l) out[l] = in[map[l]];
      return V::load_aligned(out);
    }
  }

  // Ask for the cache lines of [p, p + bytes) ahead of use. Stencils read
  // many streams at once (Dslash: 8 neighbours and 8 links per site); the
  // hardware prefetchers do not keep that many ahead, and a site costs far
  // longer than a memory latency to compute, so one site ahead is enough.
  LATTE_INLINE static void prefetch(const void* p, std::size_t bytes) { prefetch_lines<3>(p, bytes); }

  // Every 64-byte line of [p, p + bytes), with the prefetch's temporal
  // locality hint (3: all cache levels, 1: not the first).
  template <int Locality>
  LATTE_INLINE static void prefetch_lines(const void* p, std::size_t bytes) {
    const char* first = static_cast<const char*>(p);
    for (std::size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(first + offset, 0, Locality);
  }

  // Store that bypasses the caches (non-temporal). A statement that
  // overwrites a field far larger than the caches otherwise reads every
  // destination line first (write-allocate), a third more traffic for an
  // axpy and half again for a lattice-Boltzmann step. The OpenMP barrier
  // that ends the loop (locked instructions) drains the write-combining
  // buffers, so later statements see the data.
  template <class V>
  LATTE_INLINE static void stream(V& target, const V& value) {
    if constexpr (std::is_arithmetic_v<V>) {
      target = value;
    } else {
      using Real = typename V::value_type;
      constexpr int bytes = static_cast<int>(V::size * sizeof(Real));
      auto* address = reinterpret_cast<Real*>(&target);
#if defined(__AVX512F__)
      if constexpr (bytes == 64 && std::is_same_v<Real, double>) return _mm512_stream_pd(address, value);
      if constexpr (bytes == 64 && std::is_same_v<Real, float>) return _mm512_stream_ps(address, value);
#endif
#if defined(__AVX__)
      if constexpr (bytes == 32 && std::is_same_v<Real, double>) return _mm256_stream_pd(address, value);
      if constexpr (bytes == 32 && std::is_same_v<Real, float>) return _mm256_stream_ps(address, value);
#endif
      if constexpr (bytes == 16 && std::is_same_v<Real, double>) return _mm_stream_pd(address, value);
      if constexpr (bytes == 16 && std::is_same_v<Real, float>) return _mm_stream_ps(address, value);
      target = value;
    }
  }

  // The same operations, but prefetches fill the second-level cache only:
  // for data wanted a whole batch of right-hand sides ahead (RhsLoop,
  // dsl/expr/batch_lowering.hpp), more than the first-level cache holds.
  struct ToSecondLevel;
};

struct VectorOps::ToSecondLevel : VectorOps {
  LATTE_INLINE static void prefetch(const void* p, std::size_t bytes) { prefetch_lines<1>(p, bytes); }
};

}  // namespace latte::backend::cpu
