// The reproducible sum (platform/reproducible_sum.hpp): the same bits
// for any order and any grouping of the terms, the exact sum rounded once
// where the terms span fewer than 80 bits, and NaN, infinities, overflow and
// terms far below the largest handled as documented. References are exact
// integer sums computed here.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "platform/reproducible_sum.hpp"

namespace {

using latte::ReproducibleSum;

double sum_in_order(const std::vector<double>& terms) {
  ReproducibleSum s;
  for (double x : terms) s.add(x);
  return s.value();
}

// Sums of the terms in `pieces` accumulators (term k into accumulator
// k % pieces), merged in the order given.
double sum_in_pieces(const std::vector<double>& terms, int pieces, bool reverse_merge) {
  std::vector<ReproducibleSum> partial(pieces);
  for (std::size_t k = 0; k < terms.size(); ++k) partial[k % pieces].add(terms[k]);
  if (reverse_merge) std::reverse(partial.begin(), partial.end());
  ReproducibleSum total;
  for (const auto& p : partial) total.merge(p);
  return total.value();
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

TEST(ReproducibleSum, SameBitsForEveryOrderAndGrouping) {
  std::mt19937_64 random(42);
  std::normal_distribution<double> normal(0, 1);
  for (int trial = 0; trial < 30; ++trial) {
    // Magnitudes over 40 orders of magnitude and scales from 2^-900 to 2^900.
    const double scale = std::ldexp(1.0, static_cast<int>(random() % 1800) - 900);
    std::vector<double> terms(5000);
    for (double& x : terms) x = normal(random) * scale * std::exp(3 * normal(random));
    const double reference = sum_in_order(terms);
    for (int shuffle = 0; shuffle < 3; ++shuffle) {
      std::shuffle(terms.begin(), terms.end(), random);
      EXPECT_EQ(bits(sum_in_order(terms)), bits(reference)) << "trial " << trial;
      EXPECT_EQ(bits(sum_in_pieces(terms, 7, shuffle == 1)), bits(reference)) << "trial " << trial;
    }
  }
}

// Terms that are integers times 2^-30, below 2^40 in size: the exact sum is
// an integer times 2^-30 that an int64 holds, and the result must be that
// sum rounded once to a double.
TEST(ReproducibleSum, ExactSumRoundedOnce) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> terms(2000);
    std::int64_t exact = 0;  // in units of 2^-30
    for (double& x : terms) {
      const std::int64_t units = static_cast<std::int64_t>(random() % (std::uint64_t(1) << 53)) - (std::int64_t(1) << 52);
      const std::int64_t term = units / (std::int64_t(1) << (random() % 50));  // many magnitudes, all exact doubles
      exact += term;
      x = std::ldexp(static_cast<double>(term), -30);
    }
    // The exact sum rounded once (int64 to double rounds to nearest, even).
    const double expected = std::ldexp(static_cast<double>(exact), -30);
    EXPECT_EQ(bits(sum_in_order(terms)), bits(expected)) << "trial " << trial;
  }
  // Cancellation to a tiny remainder: 2^60 + 1 - 2^60 in any order.
  EXPECT_EQ(sum_in_order({std::ldexp(1.0, 60), 1.0, -std::ldexp(1.0, 60)}), 1.0);
  EXPECT_EQ(sum_in_order({1.0, std::ldexp(1.0, 60), -std::ldexp(1.0, 60)}), 1.0);
  // Ties round to even, once: 2^53 + 1 is halfway between two doubles.
  EXPECT_EQ(sum_in_order({std::ldexp(1.0, 53), 1.0}), std::ldexp(1.0, 53));
  EXPECT_EQ(sum_in_order({std::ldexp(1.0, 53), 1.0, 2.0}), std::ldexp(1.0, 53) + 4.0);
}

TEST(ReproducibleSum, SubnormalsZerosAndEmptySums) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_EQ(sum_in_order({tiny, tiny, tiny}), 3 * tiny);
  EXPECT_EQ(sum_in_order({}), 0.0);
  EXPECT_EQ(sum_in_order({0.0, -0.0}), 0.0);
  // A term more than 80 bits below the largest is dropped, whatever the order.
  EXPECT_EQ(sum_in_order({1e-300, 1e300, -1e300}), 0.0);
  EXPECT_EQ(sum_in_order({1e300, -1e300, 1e-300}), 0.0);
}

TEST(ReproducibleSum, NaNInfinitiesAndOverflow) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(sum_in_order({1.0, std::nan(""), 2.0})));
  EXPECT_EQ(sum_in_order({1.0, inf, 2.0}), inf);
  EXPECT_EQ(sum_in_order({1.0, -inf}), -inf);
  EXPECT_TRUE(std::isnan(sum_in_order({inf, 1.0, -inf})));
  EXPECT_EQ(sum_in_order({std::ldexp(1.0, 1010), 1.0}), inf) << "terms beyond 2^1005 overflow the sum";
  EXPECT_EQ(sum_in_order({std::ldexp(1.0, 1000), std::ldexp(1.0, 1000)}), std::ldexp(1.0, 1001));
  // Order does not matter for these either.
  EXPECT_TRUE(std::isnan(sum_in_order({-inf, 1.0, inf})));
  EXPECT_EQ(sum_in_pieces({1.0, inf, 3.0, 4.0}, 3, true), inf);
}

TEST(ReproducibleSum, MergingAccumulatorsAtDifferentWindows) {
  ReproducibleSum small, large;
  for (int k = 0; k < 100; ++k) small.add(std::ldexp(1.0, -60) * (k + 1));
  large.add(1.0);
  large.add(std::ldexp(1.0, -40));
  ReproducibleSum a = small, b = large;
  a.merge(large);
  b.merge(small);
  EXPECT_EQ(bits(a.value()), bits(b.value()));
  ReproducibleSum c;
  for (int k = 0; k < 100; ++k) c.add(std::ldexp(1.0, -60) * (k + 1));
  c.add(1.0);
  c.add(std::ldexp(1.0, -40));
  EXPECT_EQ(bits(a.value()), bits(c.value()));
  EXPECT_EQ(a.value(), 1.0 + std::ldexp(1.0, -40) + std::ldexp(1.0, -60) * 5050);
}

}  // namespace
