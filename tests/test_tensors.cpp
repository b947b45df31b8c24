// Site tensors against std::complex and Eigen's dense 3x3 algebra.

#include <Eigen/Dense>
#include <complex>
#include <random>

#include "eigen_conversions.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using std::complex;

std::mt19937_64 engine(7);
double random_real() { return std::normal_distribution<double>()(engine); }
ComplexD random_complex() { return {random_real(), random_real()}; }

ColourMatrix<double> random_matrix() {
  ColourMatrix<double> m;
  for_each_leaf([](double& x) { x = random_real(); }, m);
  return m;
}
ColourVector<double> random_vector() {
  ColourVector<double> v;
  for_each_leaf([](double& x) { x = random_real(); }, v);
  return v;
}
double difference(const ComplexD& a, const complex<double>& b) { return std::abs(complex<double>(a.re, a.im) - b); }

TEST(Tensors, ComplexArithmeticMatchesStdComplex) {
  for (int trial = 0; trial < 100; ++trial) {
    const ComplexD a = random_complex(), b = random_complex();
    const complex<double> sa(a.re, a.im), sb(b.re, b.im);
    EXPECT_LT(difference(a + b, sa + sb), 1e-15);
    EXPECT_LT(difference(a - b, sa - sb), 1e-15);
    EXPECT_LT(difference(a * b, sa * sb), 1e-14);
    EXPECT_LT(difference(a / b, sa / sb), 1e-12 * (1 + std::abs(sa / sb)));
    EXPECT_LT(difference(conj(a), std::conj(sa)), 1e-15);
    EXPECT_LT(difference(timesI(a), complex<double>(0, 1) * sa), 1e-15);
    EXPECT_LT(difference(timesMinusI(a), complex<double>(0, -1) * sa), 1e-15);
    EXPECT_NEAR(localNorm2(a), std::norm(sa), 1e-14);
    EXPECT_LT(difference(localInnerProduct(a, b), std::conj(sa) * sb), 1e-14);
  }
}

TEST(Tensors, ColourAlgebraMatchesEigen) {
  for (int trial = 0; trial < 50; ++trial) {
    const ColourMatrix<double> u = random_matrix(), v = random_matrix();
    const ColourVector<double> c = random_vector(), d = random_vector();
    const Eigen::Matrix3cd eu = to_eigen(u), ev = to_eigen(v);
    const Eigen::Vector3cd ec = to_eigen(c), ed = to_eigen(d);
    EXPECT_LT((to_eigen(u * c) - eu * ec).norm(), 1e-13);
    EXPECT_LT((to_eigen(u * v) - eu * ev).norm(), 1e-13);
    EXPECT_LT((to_eigen(adj(u)) - eu.adjoint()).norm(), 1e-15);
    EXPECT_LT((to_eigen(transpose(u)) - eu.transpose()).norm(), 1e-15);
    EXPECT_LT((to_eigen(conj(u)) - eu.conjugate()).norm(), 1e-15);
    EXPECT_LT((to_eigen(u + v) - (eu + ev)).norm(), 1e-14);
    EXPECT_LT((to_eigen(u - 2.0 * v) - (eu - 2.0 * ev)).norm(), 1e-14);
    EXPECT_LT(difference(trace(u), eu.trace()), 1e-14);
    EXPECT_LT(difference(localInnerProduct(c, d), ec.dot(ed)), 1e-13);
    EXPECT_NEAR(localNorm2(u), eu.squaredNorm(), 1e-12);
    const ComplexD z = random_complex();
    EXPECT_LT((to_eigen(z * c) - complex<double>(z.re, z.im) * ec).norm(), 1e-14);
  }
}

TEST(Tensors, ColourMatrixMapsOverSpin) {
  const ColourMatrix<double> u = random_matrix();
  Spinor<double> psi;
  for_each_leaf([](double& x) { x = random_real(); }, psi);
  const Spinor<double> chi = u * psi;
  for (int s = 0; s < spins; ++s) EXPECT_LT((to_eigen(chi(s)) - to_eigen(u) * to_eigen(psi(s))).norm(), 1e-13);
}

TEST(Tensors, ShapeTraits) {
  static_assert(words_v<ComplexD> == 2);
  static_assert(words_v<ColourMatrix<float>> == 18);
  static_assert(words_v<Spinor<double>> == 24);
  static_assert(words_v<HalfSpinor<double>> == 12);
  static_assert(words_v<Populations<double, 19>> == 19);
  static_assert(std::is_same_v<rebind_t<Spinor<double>, float>, Spinor<float>>);
  static_assert(std::is_same_v<real_of_t<ColourMatrix<float>>, float>);
  static_assert(sizeof(Spinor<double>) == 24 * sizeof(double), "site tensors are dense arrays of reals");
  // The memory order of leaves is the order for_each_leaf visits them.
  Spinor<double> psi;
  double counter = 0;
  for_each_leaf([&](double& x) { x = counter++; }, psi);
  const double* raw = reinterpret_cast<const double*>(&psi);
  for (int k = 0; k < 24; ++k) EXPECT_EQ(raw[k], k);
}

}  // namespace
}  // namespace latte::testing
