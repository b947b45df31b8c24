// ParallelRng (lattice/fields/random.hpp). Its promise is that a random field is a
// pure function of (seed, global site, stream): the same bits for every SIMD
// width, lane grid and thread count. That is what lets every other test
// compare a vector layout with the scalar one bit for bit, so it is checked
// here bit for bit, for every site type physics uses, before the statistics.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "test_support.hpp"

namespace {

using latte::Coordinate;
using latte::Geometry;
using latte::Lattice;
using latte::ParallelRng;

// Every real of a site, in memory order.
template <class T>
std::vector<double> leaves(const T& value) {
  std::vector<double> out;
  latte::for_each_leaf([&](const auto& x) { out.push_back(static_cast<double>(x)); }, value);
  return out;
}

// Exact equality of every real at every site (peek reads by global site, so
// a and b may use different lane counts or lane grids).
template <class T, class WA, class WB>
::testing::AssertionResult identical(const Lattice<T, WA>& a, const Lattice<T, WB>& b) {
  for (std::int64_t i = 0; i < a.geometry().volume(); ++i) {
    const Coordinate x = latte::coordinate_from_index(i, a.geometry().dims());
    const auto va = leaves(latte::peek(a, x));
    const auto vb = leaves(latte::peek(b, x));
    for (std::size_t k = 0; k < va.size(); ++k)
      if (!(va[k] == vb[k]))
        return ::testing::AssertionFailure() << "site " << latte::to_string(x) << " real " << k << ": " << va[k]
                                             << " vs " << vb[k];
  }
  return ::testing::AssertionSuccess();
}

// How many reals two fields of one layout have in common, position by position.
template <class T, class W>
std::int64_t equal_reals(const Lattice<T, W>& a, const Lattice<T, W>& b) {
  std::int64_t count = 0;
  const std::int64_t n = a.outer_volume() * Lattice<T, W>::site_words * Lattice<T, W>::nsimd;
  const auto* x = a.host_view().data;
  const auto* y = b.host_view().data;
  for (std::int64_t i = 0; i < n; ++i) count += x[i] == y[i];
  return count;
}

// Extents every lane count of a build (up to 16 floats) divides, both by
// the default policy and with all lanes piled on dimension 0.
const Coordinate dims = {16, 4, 6, 4};
constexpr std::uint64_t seed = 0x5eed'1234'abcdULL;

using Fill = std::function<void(ParallelRng&)>;

template <class T>
class RandomFields : public ::testing::Test {};
using SiteTypes = ::testing::Types<double, float, latte::ComplexD, latte::ComplexF, latte::ColourMatrix<double>,
                                   latte::ColourMatrix<float>, latte::Spinor<double>, latte::Spinor<float>>;
TYPED_TEST_SUITE(RandomFields, SiteTypes);

// Two draws through the public calls: a gaussian then a uniform fill, so
// both generators and two streams are covered.
template <class T, class W>
void draw(Lattice<T, W>& gaussian, Lattice<T, W>& uniform) {
  ParallelRng rng(seed);
  rng.gaussian(gaussian);
  rng.uniform(uniform, -2.0, 3.0);
}

TYPED_TEST(RandomFields, SameBitsForEveryWidthLayoutAndThreadCount) {
  using T = TypeParam;
  const latte::testing::TeamForEveryStatement team;
  const Geometry geometry(dims);
  Lattice<T> gaussian(geometry), uniform(geometry);
  draw(gaussian, uniform);

  Lattice<T, latte::ScalarWidth> scalar_gaussian(geometry), scalar_uniform(geometry);
  draw(scalar_gaussian, scalar_uniform);
  EXPECT_TRUE(identical(gaussian, scalar_gaussian));
  EXPECT_TRUE(identical(uniform, scalar_uniform));

  // All lanes piled on dimension 0: another lane grid, same field.
  constexpr int lanes = latte::DefaultWidth::lanes<latte::real_of_t<T>>;
  const Geometry piled(dims, {lanes, 1, 1, 1});
  Lattice<T> piled_gaussian(piled), piled_uniform(piled);
  draw(piled_gaussian, piled_uniform);
  EXPECT_TRUE(identical(gaussian, piled_gaussian));
  EXPECT_TRUE(identical(uniform, piled_uniform));

  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 2, 3, 7}) {
    SCOPED_TRACE(std::to_string(threads) + " OpenMP threads");
    omp_set_num_threads(threads);
    Lattice<T> g(geometry), u(geometry);
    draw(g, u);
    EXPECT_TRUE(identical(gaussian, g));
    EXPECT_TRUE(identical(uniform, u));
  }
  omp_set_num_threads(threads_before);
}

// The documented contract itself: the reals of site x, in memory order, are
// the successive draws of SiteRandomStream(seed, global index of x, stream),
// with streams numbered 0, 1, ... by fill.
TYPED_TEST(RandomFields, FieldIsTheSiteStreamOfEachGlobalSite) {
  using T = TypeParam;
  using R = latte::real_of_t<T>;
  const Geometry geometry(dims);
  Lattice<T> gaussian(geometry), uniform(geometry);
  draw(gaussian, uniform);
  for (std::int64_t i = 0; i < geometry.volume(); ++i) {
    const Coordinate x = latte::coordinate_from_index(i, dims);
    ASSERT_EQ(geometry.global_index(x), i);
    latte::SiteRandomStream gaussian_stream(seed, i, 0), uniform_stream(seed, i, 1);
    const auto g = leaves(latte::peek(gaussian, x));
    const auto u = leaves(latte::peek(uniform, x));
    for (std::size_t k = 0; k < g.size(); ++k) {
      ASSERT_EQ(g[k], static_cast<R>(gaussian_stream.gaussian())) << "site " << latte::to_string(x) << " real " << k;
      // low + (high - low) * u may or may not be fused into an FMA, which
      // moves the result by at most an ulp of R on [-2, 3).
      const double expected = static_cast<R>(-2.0 + 5.0 * uniform_stream.uniform());
      ASSERT_NEAR(u[k], expected, 4 * std::numeric_limits<R>::epsilon()) << "site " << latte::to_string(x);
    }
  }
}

TYPED_TEST(RandomFields, SeedsAndSuccessiveFillsDiffer) {
  using T = TypeParam;
  const Geometry geometry(dims);
  Lattice<T> first(geometry), second(geometry), other_seed(geometry), high_seed(geometry);
  ParallelRng rng(seed);
  EXPECT_EQ(rng.streams_used(), 0u);
  rng.gaussian(first);
  rng.gaussian(second);
  EXPECT_EQ(rng.streams_used(), 2u);
  ParallelRng(seed + 1).gaussian(other_seed);
  // The seed is 64 bits: its upper half must matter too.
  ParallelRng(seed + (std::uint64_t{1} << 32)).gaussian(high_seed);

  // Independent continuous draws essentially never coincide; allow a
  // handful of chance float collisions, not a repeated stream.
  const std::int64_t reals = geometry.volume() * latte::words_v<T>;
  EXPECT_LT(equal_reals(first, second), reals / 1000 + 1);
  EXPECT_LT(equal_reals(first, other_seed), reals / 1000 + 1);
  EXPECT_LT(equal_reals(first, high_seed), reals / 1000 + 1);
}

// Same seed and stream in single and double precision: the float field is
// the double field rounded, so they differ by at most half a float ulp.
TYPED_TEST(RandomFields, FloatAndDoubleAgreeToFloatRounding) {
  using T = TypeParam;
  using Double = latte::rebind_t<T, double>;
  using Float = latte::rebind_t<T, float>;
  const Geometry geometry(dims);
  Lattice<Double> gaussian_double(geometry), uniform_double(geometry);
  Lattice<Float> gaussian_float(geometry), uniform_float(geometry);
  draw(gaussian_double, uniform_double);
  draw(gaussian_float, uniform_float);
  // Rounding to float moves a value by at most half an ulp; the double
  // itself may move by an ulp where the compiler fuses low + w * u.
  const double half_ulp = std::numeric_limits<float>::epsilon() / 2 + 4 * std::numeric_limits<double>::epsilon();
  for (std::int64_t i = 0; i < geometry.volume(); ++i) {
    const Coordinate x = latte::coordinate_from_index(i, dims);
    const auto gd = leaves(latte::peek(gaussian_double, x)), gf = leaves(latte::peek(gaussian_float, x));
    const auto ud = leaves(latte::peek(uniform_double, x)), uf = leaves(latte::peek(uniform_float, x));
    for (std::size_t k = 0; k < gd.size(); ++k) {
      ASSERT_LE(std::abs(gf[k] - gd[k]), half_ulp * std::abs(gd[k])) << "site " << latte::to_string(x);
      ASSERT_LE(std::abs(uf[k] - ud[k]), half_ulp * std::abs(ud[k])) << "site " << latte::to_string(x);
    }
  }
}

// ---- statistics -------------------------------------------------------------------
// 8^4 spinor sites = 98304 reals. Bounds are five standard errors of the
// estimator (mean: 1/sqrt(N); variance of N(0,1): sqrt(2/N); fourth moment:
// sqrt((105 - 9)/N)); the seeds are fixed, so the test is deterministic.

template <class R>
std::vector<double> all_reals(const Lattice<latte::Spinor<R>>& field) {
  std::vector<double> out;
  latte::testing::for_each_coordinate(field.geometry(), [&](const Coordinate& x) {
    for (double v : leaves(latte::peek(field, x))) out.push_back(v);
  });
  return out;
}

template <class R>
void check_gaussian_moments() {
  const Geometry geometry({8, 8, 8, 8});
  Lattice<latte::Spinor<R>> field(geometry);
  ParallelRng(2718281828).gaussian(field);
  const std::vector<double> x = all_reals(field);
  const double n = static_cast<double>(x.size());
  double mean = 0, second = 0, fourth = 0, pair = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mean += x[i];
    second += x[i] * x[i];
    fourth += x[i] * x[i] * x[i] * x[i];
    if (i % 2 == 0) pair += x[i] * x[i + 1];  // Box-Muller partners must be uncorrelated
  }
  mean /= n;
  second /= n;
  fourth /= n;
  pair /= n / 2;
  EXPECT_LT(std::abs(mean), 5 / std::sqrt(n));
  EXPECT_LT(std::abs(second - mean * mean - 1), 5 * std::sqrt(2 / n));
  EXPECT_LT(std::abs(fourth - 3), 5 * std::sqrt(96 / n));
  EXPECT_LT(std::abs(pair), 5 / std::sqrt(n / 2));
}

TEST(RandomStatistics, GaussianHasMeanZeroAndUnitVariance) {
  check_gaussian_moments<double>();
  check_gaussian_moments<float>();
}

// Uniform on [low, high), width w: mean (low + high)/2 with standard error
// w/sqrt(12 N), variance w^2/12 with standard error w^2/sqrt(180 N), and each
// of ten equal bins holds N/10 +- sqrt(N * 0.1 * 0.9).
template <class R>
void check_uniform(double low, double high) {
  SCOPED_TRACE("uniform in [" + std::to_string(low) + ", " + std::to_string(high) + ")");
  const Geometry geometry({8, 8, 8, 8});
  Lattice<latte::Spinor<R>> field(geometry);
  ParallelRng rng(314159);
  if (low == 0.0 && high == 1.0) rng.uniform(field);  // the default interval
  else rng.uniform(field, low, high);
  const std::vector<double> x = all_reals(field);
  const double n = static_cast<double>(x.size()), width = high - low;
  double mean = 0, second = 0;
  std::vector<int> bins(10, 0);
  for (double v : x) {
    ASSERT_GE(v, low);
    ASSERT_LT(v, high);
    mean += v;
    second += v * v;
    ++bins[std::min(9, static_cast<int>((v - low) / width * 10))];
  }
  mean /= n;
  const double variance = second / n - mean * mean;
  EXPECT_LT(std::abs(mean - (low + high) / 2), 5 * width / std::sqrt(12 * n));
  EXPECT_LT(std::abs(variance - width * width / 12), 5 * width * width / std::sqrt(180 * n));
  for (int count : bins) EXPECT_LT(std::abs(count - n / 10), 5 * std::sqrt(n * 0.09));
}

TEST(RandomStatistics, UniformCoversItsIntervalEvenly) {
  check_uniform<double>(0.0, 1.0);
  check_uniform<double>(-1.5, 2.5);
  check_uniform<float>(0.0, 1.0);
  check_uniform<float>(10.0, 12.0);
}

// Seed 4359 once produced a float exactly equal to high = 1 at site [0 5 4 6]:
// a double just below 1 rounds up to 1.0f.
TEST(RandomRegression, SinglePrecisionUniformStaysBelowHigh) {
  Geometry geometry({8, 8, 8, 8});
  Lattice<float> field(geometry);
  ParallelRng(4359).uniform(field);
  EXPECT_LT(maxval(field), 1.0);
  EXPECT_GE(minval(field), 0.0);
}

}  // namespace
