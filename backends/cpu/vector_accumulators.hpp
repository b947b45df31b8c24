#pragma once
// Reduction accumulators of the CPU lowering, one per SIMD leaf of a site
// value, kept in registers while a block of outer sites is reduced and then
// merged lane by lane into the scalar accumulators of
// backends/common/reduction_blocks.hpp.
//
// A sum splits each term into three integer pieces exactly as
// ReproducibleSum::add does, lane by lane with vector instructions: per
// vector of terms two compares to check the window, three adds and five
// subtractions of doubles and three integer adds. The integers are the
// bits of M_k + r (a sum of raw bit patterns, wrapping modulo 2^64); the
// bits of M_k times the count of terms are subtracted when the vector sum
// is merged, which leaves the exact integer as long as it stays below 2^63
// (2^23 terms per lane; a block has 128).

#include <cstdint>
#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "backends/common/reduction_blocks.hpp"
#include "backends/cpu/vector_type.hpp"

namespace latte::backend::cpu {

// Lanes of the widest double vector this build enables.
inline constexpr int widest_double_lanes = LATTE_SIMD_BYTES >= 64 ? 8 : LATTE_SIMD_BYTES >= 32 ? 4 : LATTE_SIMD_BYTES >= 16 ? 2 : 1;

// The sums of Lanes lanes of double terms (Lanes > 1), one window for all.
template <int Lanes>
class DoubleVectorSum {
 public:
  using D = vector_t<double, Lanes>;
  using U = xsimd::batch<std::uint64_t, typename D::arch_type>;
  static constexpr int folds = ReproducibleSum::folds;

  // The rare path takes and returns a copy: were it called on *this, the
  // accumulator's address would escape and its vectors would live in memory
  // (a store-to-load chain per term); this way they stay in registers.
  LATTE_INLINE void add(const D& x) {
    if (!xsimd::all(xsimd::abs(x) <= D(limit_))) [[unlikely]] {
      *this = with_outside_window(*this, x);
      return;
    }
    add_in_window(x);
  }

  // Fold every lane into one scalar accumulator.
  void merge_into(ReproducibleSum& total) const {
    alignas(64) std::uint64_t raw[folds][Lanes];
    for (int k = 0; k < folds; ++k) raw_[k].store_aligned(raw[k]);
    ReproducibleSum mine;
    mine.level = level_;
    mine.flags = flags_;
    for (int k = 0; k < folds; ++k) {
      const std::uint64_t offset = bits_[k] * static_cast<std::uint64_t>(count_);
      for (int l = 0; l < Lanes; ++l) mine.bins[k] += static_cast<std::int64_t>(raw[k][l] - offset);
    }
    total.merge(mine);
  }

 private:
  LATTE_INLINE void add_in_window(const D& x) {
    D rest = x;
    for (int k = 0; k < folds; ++k) {
      const D m(extractor_[k]);
      const D t = m + rest;
      raw_[k] += xsimd::bitwise_cast<U>(t);
      if (k + 1 < folds) rest = rest - (t - m);
    }
    ++count_;
  }

  // Rare: a term beyond the window, NaN or overflowing. Flag the lanes that
  // cannot be summed (they then add zero) and move the window up to the rest.
  [[gnu::noinline]] static DoubleVectorSum with_outside_window(DoubleVectorSum sum, const D& x) {
    sum.add_outside_window(x);
    return sum;
  }
  void add_outside_window(const D& x) {
    alignas(64) double lanes[Lanes];
    x.store_aligned(lanes);
    int wanted = level_;
    for (int l = 0; l < Lanes; ++l) {
      ReproducibleSum probe;
      probe.level = level_;
      const double magnitude = lanes[l] < 0 ? -lanes[l] : lanes[l];
      if (magnitude <= ReproducibleSum::limit_of(level_)) continue;
      if (!probe.admit(lanes[l], magnitude)) {
        flags_ |= probe.flags;
        lanes[l] = 0;
      } else if (probe.level > wanted) {
        wanted = probe.level;
      }
    }
    move_window(wanted);
    add_in_window(D::load_aligned(lanes));
  }

  void move_window(int new_level) {
    const int steps = new_level - level_;
    if (steps <= 0) return;
    U exact[folds];
    for (int k = 0; k < folds; ++k) exact[k] = raw_[k] - U(bits_[k] * static_cast<std::uint64_t>(count_));
    for (int k = folds - 1; k >= 0; --k) raw_[k] = k >= steps ? exact[k - steps] : U(std::uint64_t(0));
    count_ = 0;
    set_level(new_level);
  }

  void set_level(int level) {
    level_ = level;
    limit_ = ReproducibleSum::limit_of(level);
    for (int k = 0; k < folds; ++k) {
      extractor_[k] = ReproducibleSum::extractor(ReproducibleSum::top_of(level) - ReproducibleSum::bin_bits * k);
      bits_[k] = ReproducibleSum::bits(extractor_[k]);
    }
  }

  int level_ = 0;
  unsigned flags_ = 0;
  std::int64_t count_ = 0;
  double limit_ = ReproducibleSum::limit_of(0);
  double extractor_[folds] = {ReproducibleSum::extractor(ReproducibleSum::top_of(0)),
                              ReproducibleSum::extractor(ReproducibleSum::top_of(0) - ReproducibleSum::bin_bits),
                              ReproducibleSum::extractor(ReproducibleSum::top_of(0) - 2 * ReproducibleSum::bin_bits)};
  std::uint64_t bits_[folds] = {ReproducibleSum::bits(extractor_[0]), ReproducibleSum::bits(extractor_[1]),
                                ReproducibleSum::bits(extractor_[2])};
  U raw_[folds] = {U(std::uint64_t(0)), U(std::uint64_t(0)), U(std::uint64_t(0))};
};

// The sum accumulator of one SIMD leaf V (float or double, any lane count):
// the lanes go, converted to double, into vectors of the widest double width.
template <class V>
class VectorSum {
 public:
  using Real = typename V::value_type;
  static constexpr int lanes = static_cast<int>(V::size);
  static constexpr int chunk = lanes < widest_double_lanes ? lanes : widest_double_lanes;
  static constexpr int chunks = lanes / chunk;

  LATTE_INLINE void add(const V& x) {
    if constexpr (chunk == 1) {
      alignas(64) Real in[lanes];
      x.store_aligned(in);
      for (int l = 0; l < lanes; ++l) scalar_[l].add(static_cast<double>(in[l]));
    } else if constexpr (std::is_same_v<Real, double> && chunks == 1) {
      part_[0].add(x);
    } else {
      alignas(64) Real in[lanes];
      x.store_aligned(in);
      for (int c = 0; c < chunks; ++c) {
        alignas(64) double d[chunk];
        for (int i = 0; i < chunk; ++i) d[i] = static_cast<double>(in[c * chunk + i]);
        part_[c].add(vector_t<double, chunk>::load_aligned(d));
      }
    }
  }
  void merge_into(ReproducibleSum& total) const {
    if constexpr (chunk == 1) {
      for (const auto& s : scalar_) total.merge(s);
    } else {
      for (const auto& p : part_) p.merge_into(total);
    }
  }

 private:
  struct None {};
  std::conditional_t<chunk == 1, ReproducibleSum[lanes], None> scalar_{};
  std::conditional_t<chunk == 1, None[chunks], DoubleVectorSum<chunk>[chunks]> part_{};
};

// The maximum or minimum of one SIMD leaf: exact in the field's precision.
template <class Combine, class V>
class VectorExtremum {
 public:
  LATTE_INLINE void add(const V& x) {
    value_ = started_ ? Combine::leaf(value_, x) : x;
    started_ = true;
  }
  void merge_into(double& total) const {
    if (!started_) return;
    alignas(64) typename V::value_type lanes[V::size];
    value_.store_aligned(lanes);
    for (std::size_t l = 0; l < V::size; ++l) Combine::merge(total, static_cast<double>(lanes[l]));
  }

 private:
  V value_{};
  bool started_ = false;
};

// The accumulator of a leaf: SIMD vectors get the classes above, a one-lane
// layout's plain reals the scalar accumulators themselves.
template <class Combine, class Leaf> struct vector_accumulator {
  using type = std::conditional_t<std::is_same_v<Combine, SumCombine>, VectorSum<Leaf>, VectorExtremum<Combine, Leaf>>;
};
template <class Combine> struct vector_accumulator<Combine, double> { using type = typename Combine::accumulator; };
template <class Combine> struct vector_accumulator<Combine, float> { using type = typename Combine::accumulator; };

// Per-leaf operations on site tensors of vector accumulators.
template <class Combine, class A>
LATTE_INLINE A start_vector_accumulators() {
  A a{};
  for_each_leaf([](auto& acc) LATTE_LAMBDA {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(acc)>, typename Combine::accumulator>) acc = Combine::start();
  }, a);
  return a;
}
template <class Combine, class A, class Value>
LATTE_INLINE void vector_accumulate(A& a, const Value& value) {
  for_each_leaf([](auto& acc, const auto& x) LATTE_LAMBDA {
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(x)>>) Combine::add(acc, static_cast<double>(x));
    else acc.add(x);
  }, a, value);
}
template <class Combine, class Total, class A>
void vector_merge_into(Total& total, const A& a) {
  for_each_leaf([](auto& t, const auto& acc) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(acc)>, typename Combine::accumulator>) Combine::merge(t, acc);
    else acc.merge_into(t);
  }, total, a);
}

}  // namespace latte::backend::cpu
