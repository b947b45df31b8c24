#pragma once
// A sum of doubles whose bits do not depend on the order of its terms: the
// same result for any number of ranks, process grid, SIMD width, thread
// count and backend. It is the binned summation of Demmel and Nguyen
// (ReproBLAS), with the bins held as integers:
//
// - Exponents are cut into levels 40 bits apart on one fixed grid. A window
//   of three bins sits below a top exponent T on that grid, chosen so that
//   every term satisfies |x| <= 2^(T - 13).
// - A term is split, exactly, into three pieces: q_k = round(r_k) to a
//   multiple of the bin's unit u_k = 2^(T - 40 k - 52), with r_0 = x and
//   r_{k+1} = r_k - q_k. The rounding is done by adding the constant
//   M_k = 1.5 * 2^(T - 40 k): the bits of M_k + r_k minus the bits of M_k
//   are q_k / u_k as an integer (|q_k / u_k| <= 2^40), added to bin k. What
//   is left below the last bin (more than 80 bits below the largest term) is
//   dropped.
// - The split of a term depends only on the term and the grid, so each bin
//   holds the exact integer sum of its pieces: the result is a function of
//   the multiset of terms. When a larger term arrives, the window moves up
//   by whole levels: bins move up by as many places and the lowest ones are
//   dropped, exactly as if the window had been there from the start (the
//   new top bins would have received nothing from the smaller terms).
//
// NaN terms make the sum NaN; terms beyond 2^1005 (including infinities)
// make it +inf, -inf, or NaN if both signs occur: a sum that large has
// overflowed anyway. Everything else is summed to within 2^-80 of the
// largest term, far better than a running double sum, and rounded once.

#include <cstdint>
#include <cstring>

#include "platform/build.hpp"

namespace latte {

struct ReproducibleSum {
  static constexpr int folds = 3;
  static constexpr int bin_bits = 40;
  static constexpr int lowest_top = -942;  // its last bin's unit is 2^-1074, the smallest subnormal
  static constexpr int levels = 50;        // the highest top is 1018: M_0 = 1.5 * 2^1018 is finite
  static constexpr int margin = 13;        // |x| <= 2^(T - 13): pieces stay within 40 bits of their unit
  static constexpr int largest_exponent = lowest_top + (levels - 1) * bin_bits - margin;  // 2^1005
  enum : unsigned { nan_term = 1, positive_overflow = 2, negative_overflow = 4 };

  int level = 0;  // window top T = lowest_top + bin_bits * level
  unsigned flags = 0;
  __int128 bins[folds] = {0, 0, 0};  // bin k counts units of 2^(T - 40 k - 52)

  // ---- IEEE double bits, written out so that host and device code agree ----
  LATTE_INLINE static std::uint64_t bits(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }
  LATTE_INLINE static double from_bits(std::uint64_t b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  }
  LATTE_INLINE static int top_of(int level) { return lowest_top + bin_bits * level; }
  // M = 1.5 * 2^e (a normal double for every e used here)
  LATTE_INLINE static double extractor(int e) {
    return from_bits((static_cast<std::uint64_t>(e + 1023) << 52) | (std::uint64_t(1) << 51));
  }
  // 2^e for a normal exponent
  LATTE_INLINE static double power_of_two(int e) { return from_bits(static_cast<std::uint64_t>(e + 1023) << 52); }
  LATTE_INLINE static double limit_of(int level) { return power_of_two(top_of(level) - margin); }

  // The lowest level whose window admits |x| (x finite, |x| <= 2^1005).
  LATTE_INLINE static int level_for(double magnitude) {
    const int biased = static_cast<int>((bits(magnitude) >> 52) & 0x7ff);
    const int exponent = biased == 0 ? -1023 : biased - 1023;  // |x| < 2^(exponent + 1)
    const int needed = exponent + 1 + margin;                   // the top T must reach this
    if (needed <= lowest_top) return 0;
    return (needed - lowest_top + bin_bits - 1) / bin_bits;
  }

  LATTE_INLINE void add(double x) {
    const double magnitude = from_bits(bits(x) & ~(std::uint64_t(1) << 63));
    if (!(magnitude <= limit_of(level)) && !admit(x, magnitude)) return;
    double rest = x;
    for (int k = 0; k < folds; ++k) {
      const double m = extractor(top_of(level) - bin_bits * k);
      const double t = m + rest;
      bins[k] += static_cast<std::int64_t>(bits(t) - bits(m));
      rest = rest - (t - m);
    }
  }

  // A term outside the window: flag it, or move the window up to it.
  LATTE_INLINE bool admit(double x, double magnitude) {
    if (x != x) {
      flags |= nan_term;
      return false;
    }
    if (!(magnitude <= power_of_two(largest_exponent))) {
      flags |= x > 0 ? positive_overflow : negative_overflow;
      return false;
    }
    raise(level_for(magnitude));
    return true;
  }

  LATTE_INLINE void raise(int new_level) {
    const int steps = new_level - level;
    if (steps <= 0) return;
    for (int k = folds - 1; k >= 0; --k) bins[k] = k >= steps ? bins[k - steps] : __int128(0);
    level = new_level;
  }

  LATTE_INLINE void merge(const ReproducibleSum& other) {
    ReproducibleSum aligned = other;
    aligned.raise(level);
    raise(aligned.level);
    for (int k = 0; k < folds; ++k) bins[k] += aligned.bins[k];
    flags |= aligned.flags;
  }

  // The sum, rounded once to the nearest double (ties to even).
  double value() const {
    if ((flags & nan_term) || (flags & positive_overflow && flags & negative_overflow))
      return from_bits(0x7ff8000000000000ull);
    if (flags & positive_overflow) return from_bits(0x7ff0000000000000ull);
    if (flags & negative_overflow) return -from_bits(0x7ff0000000000000ull);
    // N = bins[0] 2^80 + bins[1] 2^40 + bins[2] in 256-bit two's complement,
    // in units of the last bin's 2^(T - 132).
    std::uint64_t limb[4] = {0, 0, 0, 0};
    for (int k = 0; k < folds; ++k) add_shifted(limb, bins[k], bin_bits * (folds - 1 - k));
    const bool negative = limb[3] >> 63;
    if (negative) negate(limb);
    int high = -1;
    for (int i = 3; i >= 0 && high < 0; --i)
      if (limb[i]) high = 64 * i + 63 - __builtin_clzll(limb[i]);
    if (high < 0) return 0.0;
    std::uint64_t mantissa = 0;
    int shift = 0;  // the value is mantissa * 2^shift units
    if (high <= 52) {
      mantissa = limb[0];
    } else {
      shift = high - 52;
      mantissa = bits_at(limb, shift, 53);
      const bool round = bit(limb, shift - 1);
      bool sticky = false;
      for (int b = 0; b < shift - 1 && !sticky; ++b) sticky = bit(limb, b);
      if (round && (sticky || (mantissa & 1))) ++mantissa;  // 2^53 is still exact
    }
    const double magnitude = scale(static_cast<double>(mantissa), shift + top_of(level) - 132);
    return negative ? -magnitude : magnitude;
  }

 private:
  static void add_shifted(std::uint64_t limb[4], __int128 value, int shift) {
    // Sign-extend to 256 bits, shift left by whole limbs and then bits, add.
    const std::uint64_t extension = value < 0 ? ~std::uint64_t(0) : 0;
    const std::uint64_t wide[4] = {static_cast<std::uint64_t>(value), static_cast<std::uint64_t>(value >> 64), extension,
                                   extension};
    std::uint64_t v[4] = {0, 0, 0, 0};
    const int limbs = shift / 64, bits = shift % 64;
    for (int i = 3; i >= limbs; --i) {
      v[i] = wide[i - limbs] << bits;
      if (bits && i - limbs - 1 >= 0) v[i] |= wide[i - limbs - 1] >> (64 - bits);
    }
    unsigned carry = 0;
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t sum = limb[i] + v[i];
      const unsigned carry_out = sum < limb[i];
      limb[i] = sum + carry;
      carry = carry_out | (limb[i] < sum);
    }
  }
  static void negate(std::uint64_t limb[4]) {
    unsigned carry = 1;
    for (int i = 0; i < 4; ++i) {
      limb[i] = ~limb[i] + carry;
      carry = carry && limb[i] == 0;
    }
  }
  static bool bit(const std::uint64_t limb[4], int b) { return b >= 0 && (limb[b / 64] >> (b % 64)) & 1; }
  static std::uint64_t bits_at(const std::uint64_t limb[4], int from, int count) {
    std::uint64_t out = 0;
    for (int b = count - 1; b >= 0; --b) out = (out << 1) | static_cast<std::uint64_t>(bit(limb, from + b));
    return out;
  }
  // m * 2^e for an integer-valued 0 < m <= 2^53 and e >= -1074, rounded once.
  static double scale(double m, int e) {
    if (e > 1023) return from_bits(0x7ff0000000000000ull);  // m * 2^e >= 2^1024
    if (e >= -1022) return m * power_of_two(e);
    return m * from_bits(std::uint64_t(1) << (e + 1074));  // a subnormal power of two
  }
};

}  // namespace latte
