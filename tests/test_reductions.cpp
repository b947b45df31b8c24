// Reductions against Eigen and long-double references, across lowerings,
// and their determinism: the same bits on every run and every thread count.

#include <omp.h>

#include <Eigen/Dense>
#include <complex>
#include <cstring>

#include "test_support.hpp"

namespace latte::testing {
namespace {

// Tolerance relative to the magnitude of the result: the sums below add
// ~10^4 terms of order one, so double round-off is far below this.
constexpr double relative_tolerance = 1e-12;

template <class T, class W>
Eigen::VectorXcd as_eigen(const Lattice<T, W>& field) {
  Eigen::VectorXcd v(field.geometry().volume() * (words_v<T> / 2));
  Eigen::Index k = 0;
  for_each_coordinate(field.geometry(), [&](const Coordinate& x) {
    const T value = peek(field, x);
    bool re = true;
    double pending = 0;
    for_each_leaf([&](double leaf) {
      if (re) pending = leaf;
      else v(k++) = std::complex<double>(pending, leaf);
      re = !re;
    }, value);
  });
  return v;
}

class Reductions : public ::testing::Test {
 protected:
  Geometry geometry{{8, 4, 4, 8}};
  Lattice<Spinor<double>> psi{geometry}, phi{geometry};
  Lattice<Spinor<double>, ScalarWidth> psi_scalar{geometry}, phi_scalar{geometry};
  Lattice<double> r{geometry};

  void SetUp() override {
    ParallelRng rng(11), rng_scalar(11);
    rng.gaussian(psi);
    rng.gaussian(phi);
    rng_scalar.gaussian(psi_scalar);
    rng_scalar.gaussian(phi_scalar);
    rng.uniform(r, -3.0, 5.0);
  }
};

TEST_F(Reductions, Norm2AndInnerProductMatchEigen) {
  const Eigen::VectorXcd a = as_eigen(psi), b = as_eigen(phi);
  const double n = norm2(psi);
  EXPECT_NEAR(n, a.squaredNorm(), relative_tolerance * n);
  const ComplexD ip = innerProduct(psi, phi);
  const std::complex<double> reference = a.dot(b);  // Eigen's dot conjugates its first argument, as we do
  EXPECT_NEAR(ip.re, reference.real(), relative_tolerance * n);
  EXPECT_NEAR(ip.im, reference.imag(), relative_tolerance * n);
}

TEST_F(Reductions, SumOfATensorFieldMatchesLongDouble) {
  const Spinor<double> total = sum(psi);
  Vec<long double, words_v<Spinor<double>>> reference{};
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    int k = 0;
    for_each_leaf([&](double v) { reference.v[k++] += v; }, peek(psi, x));
  });
  int k = 0;
  for_each_leaf([&](double v) {
    EXPECT_NEAR(v, static_cast<double>(reference.v[k]), 1e-11) << "component " << k;
    ++k;
  }, total);
}

TEST_F(Reductions, FusedExpressionEqualsMaterialisedField) {
  const ComplexD alpha(0.3, -0.7);
  Lattice<Spinor<double>> difference(geometry);
  difference = psi - alpha * phi;
  const double fused = norm2(psi - alpha * phi);
  EXPECT_NEAR(fused, norm2(difference), relative_tolerance * fused);
  // A temporary field may be reduced directly: it lives until the sum is done.
  EXPECT_DOUBLE_EQ(norm2(Lattice<Spinor<double>>(difference)), norm2(difference));
}

TEST_F(Reductions, LoweringsAgree) {
  const double vector_path = norm2(psi);
  const double lane_path = norm2<backend::Simt>(psi);
  const double scalar_layout = norm2(psi_scalar);
  EXPECT_NEAR(lane_path, vector_path, relative_tolerance * vector_path);
  EXPECT_NEAR(scalar_layout, vector_path, relative_tolerance * vector_path);
  const ComplexD ip_vector = innerProduct(psi, phi), ip_scalar = innerProduct(psi_scalar, phi_scalar);
  EXPECT_NEAR(ip_vector.re, ip_scalar.re, relative_tolerance * vector_path);
  EXPECT_NEAR(ip_vector.im, ip_scalar.im, relative_tolerance * vector_path);
}

TEST_F(Reductions, MaximumAndMinimumAreExact) {
  double largest = -1e300, smallest = 1e300;
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    largest = std::max(largest, peek(r, x));
    smallest = std::min(smallest, peek(r, x));
  });
  EXPECT_EQ(maxval(r), largest);
  EXPECT_EQ(minval(r), smallest);
  EXPECT_EQ(maxval<backend::Simt>(r), largest);
  EXPECT_EQ(maxval(-1.0 * r), -smallest);
}

TEST_F(Reductions, SinglePrecisionFieldsAccumulateAccurately) {
  Lattice<Spinor<float>> psi_float(geometry);
  ParallelRng(11).gaussian(psi_float);
  long double reference = 0;
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    for_each_leaf([&](float v) { reference += static_cast<long double>(v) * v; }, peek(psi_float, x));
  });
  EXPECT_NEAR(norm2(psi_float), static_cast<double>(reference), 1e-6 * static_cast<double>(reference));
}

TEST_F(Reductions, BitwiseReproducibleAcrossRunsAndThreadCounts) {
  const TeamForEveryStatement team;
  const int threads = omp_get_max_threads();
  const double first = norm2(psi - 0.5 * phi);
  const ComplexD first_ip = innerProduct(psi, phi);
  for (int repeat = 0; repeat < 3; ++repeat) {
    EXPECT_EQ(norm2(psi - 0.5 * phi), first);
    const ComplexD ip = innerProduct(psi, phi);
    EXPECT_EQ(ip.re, first_ip.re);
    EXPECT_EQ(ip.im, first_ip.im);
  }
  for (int t : {1, 2, 3}) {
    omp_set_num_threads(t);
    EXPECT_EQ(norm2(psi - 0.5 * phi), first) << t << " threads";
    EXPECT_EQ(norm2<backend::Simt>(psi), norm2<backend::Simt>(psi)) << t << " threads";
  }
  omp_set_num_threads(threads);
}

// Reductions are reproducible: a stored field sums to the same bits on the
// build's SIMD width, the one-lane layout, the per-lane lowering and any
// thread count (the terms are the same numbers, and the sum does not depend
// on their order). norm2 and innerProduct add per-site products, computed by
// vector or scalar code; written with explicit fused multiply-adds they are
// the same numbers too (not on SSE2, which has no FMA).
TEST_F(Reductions, SameBitsForEveryWidthThreadCountAndBackend) {
  const TeamForEveryStatement team;
  const Spinor<double> total = sum(psi);
  const double r_total = sum(r), r_max = maxval(r), r_min = minval(r);
  const auto same = [](const auto& a, const auto& b) { return std::memcmp(&a, &b, sizeof(a)) == 0; };
  EXPECT_TRUE(same(sum(psi_scalar), total)) << "one-lane layout";
  EXPECT_TRUE(same(sum<backend::Simt>(psi), total)) << "per-lane lowering";
  const int threads = omp_get_max_threads();
  for (int t : {1, 2, 3}) {
    omp_set_num_threads(t);
    EXPECT_TRUE(same(sum(psi), total)) << t << " threads";
    EXPECT_TRUE(same(sum(r), r_total)) << t << " threads";
    EXPECT_TRUE(same(maxval(r), r_max) && same(minval(r), r_min)) << t << " threads";
  }
  omp_set_num_threads(threads);
#if LATTE_SIMD_BYTES != 16 || defined(__FMA__)
  EXPECT_TRUE(same(norm2(psi_scalar), norm2(psi))) << "per-site |psi|^2 differs between the vector and scalar code";
  EXPECT_TRUE(same(innerProduct(psi_scalar, phi_scalar), innerProduct(psi, phi)))
      << "per-site <psi, phi> differs between the vector and scalar code";
  EXPECT_TRUE(same(innerProduct<backend::Simt>(psi, phi), innerProduct(psi, phi))) << "per-lane lowering";
#endif
}

}  // namespace
}  // namespace latte::testing
