// The gamma basis (lattice/tensors/gamma.hpp): Clifford algebra, hermiticity,
// gamma_5, and the spin projection/reconstruction against dense matrices.

#include <Eigen/Dense>
#include <complex>
#include <random>

#include "eigen_conversions.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using Matrix4 = Eigen::Matrix4cd;

std::array<Matrix4, 5> gammas() {
  return {to_eigen(gamma_matrix<0>()), to_eigen(gamma_matrix<1>()), to_eigen(gamma_matrix<2>()),
          to_eigen(gamma_matrix<3>()), to_eigen(gamma_matrix<4>())};
}

Spinor<double> random_spinor(std::mt19937_64& engine) {
  Spinor<double> psi;
  for_each_leaf([&](double& x) { x = std::normal_distribution<double>()(engine); }, psi);
  return psi;
}

TEST(Gamma, CliffordAlgebra) {
  const auto g = gammas();
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = 0; nu < 4; ++nu) {
      const Matrix4 anticommutator = g[mu] * g[nu] + g[nu] * g[mu];
      const Matrix4 expected = (mu == nu ? 2.0 : 0.0) * Matrix4::Identity();
      EXPECT_LT((anticommutator - expected).norm(), 1e-15) << "mu " << mu << " nu " << nu;
    }
}

TEST(Gamma, HermitianAndGamma5IsTheirProduct) {
  const auto g = gammas();
  for (int mu = 0; mu < 5; ++mu) EXPECT_LT((g[mu] - g[mu].adjoint()).norm(), 1e-15) << mu;
  EXPECT_LT((g[4] - g[0] * g[1] * g[2] * g[3]).norm(), 1e-15);
  for (int mu = 0; mu < 4; ++mu) EXPECT_LT((g[4] * g[mu] + g[mu] * g[4]).norm(), 1e-15) << mu;
}

TEST(Gamma, GammaTimesSpinorMatchesDenseMatrices) {
  std::mt19937_64 engine(3);
  const auto g = gammas();
  const Spinor<double> psi = random_spinor(engine);
  const auto dense = to_eigen(psi);
  EXPECT_LT((to_eigen(gamma_times<0>(psi)) - g[0] * dense).norm(), 1e-14);
  EXPECT_LT((to_eigen(gamma_times<1>(psi)) - g[1] * dense).norm(), 1e-14);
  EXPECT_LT((to_eigen(gamma_times<2>(psi)) - g[2] * dense).norm(), 1e-14);
  EXPECT_LT((to_eigen(gamma_times<3>(psi)) - g[3] * dense).norm(), 1e-14);
  EXPECT_LT((to_eigen(gamma_times<4>(psi)) - g[4] * dense).norm(), 1e-14);
}

template <int Mu, int Sign>
void expect_projection_matches(const Spinor<double>& psi) {
  const Matrix4 projector = Matrix4::Identity() + double(Sign) * to_eigen(gamma_matrix<Mu>());
  const SpinColour expected = projector * to_eigen(psi);
  const Spinor<double> rebuilt = spin_reconstruct<Mu, Sign>(spin_project<Mu, Sign>(psi));
  EXPECT_LT((to_eigen(rebuilt) - expected).norm(), 1e-14) << "mu " << Mu << " sign " << Sign;
  // The half spinor is the upper half of the projected spinor.
  const HalfSpinor<double> h = spin_project<Mu, Sign>(psi);
  for (int s = 0; s < 2; ++s)
    for (int c = 0; c < 3; ++c)
      EXPECT_LT(std::abs(std::complex<double>(h(s)(c).re, h(s)(c).im) - expected(s, c)), 1e-14);
}

TEST(Gamma, TwoComponentProjectionEqualsOnePlusMinusGamma) {
  std::mt19937_64 engine(5);
  for (int trial = 0; trial < 10; ++trial) {
    const Spinor<double> psi = random_spinor(engine);
    expect_projection_matches<0, +1>(psi);
    expect_projection_matches<0, -1>(psi);
    expect_projection_matches<1, +1>(psi);
    expect_projection_matches<1, -1>(psi);
    expect_projection_matches<2, +1>(psi);
    expect_projection_matches<2, -1>(psi);
    expect_projection_matches<3, +1>(psi);
    expect_projection_matches<3, -1>(psi);
  }
}

TEST(Gamma, ProjectorsAreComplementary) {
  // (1 + gamma)/2 + (1 - gamma)/2 = 1 through the half-spinor path.
  std::mt19937_64 engine(9);
  const Spinor<double> psi = random_spinor(engine);
  const Spinor<double> sum = spin_reconstruct<2, +1>(spin_project<2, +1>(psi)) +
                             spin_reconstruct<2, -1>(spin_project<2, -1>(psi));
  EXPECT_LT(max_abs_difference(sum, 2.0 * psi), 1e-14);
}

}  // namespace
}  // namespace latte::testing
