// The 16 Dirac matrices as spin permutations (solvers/qcd/measure/dirac_matrices.hpp)
// and the meson table (meson_channels.hpp) against dense products of the
// gamma matrices of lattice/tensors/gamma.hpp: Chroma's numbering, the
// Clifford algebra, C's defining relation, the bar, and J^PC recomputed
// from the matrices.

#include <Eigen/Dense>
#include <complex>
#include <string>

#include "eigen_conversions.hpp"
#include "hadron_references.hpp"
#include "solvers/qcd/measure/meson_channels.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using hadrons::Gamma_dense;
using hadrons::gamma_dense;

Eigen::Matrix4cd dense(const SpinPermutation& p) { return to_eigen(dense_spin_matrix(p)); }

// +1 or -1 if a = +-b, 0 otherwise.
int relative_sign(const Eigen::Matrix4cd& a, const Eigen::Matrix4cd& b) {
  if ((a - b).norm() < 1e-14) return 1;
  if ((a + b).norm() < 1e-14) return -1;
  return 0;
}

TEST(DiracMatrices, GammaOfNIsTheProductInChromasOrder) {
  for (int n = 0; n < dirac_matrix_count; ++n)
    EXPECT_LT((dense(dirac_gamma(n)) - Gamma_dense(n)).norm(), 1e-15) << "Gamma(" << n << ")";
  for (int mu = 0; mu < 5; ++mu)
    EXPECT_LT((dense(gamma_permutation(mu)) - gamma_dense(mu)).norm(), 1e-15) << "mu = " << mu;
  // Gamma(15) is gamma_5 = diag(1, 1, -1, -1), Gamma(8) gamma_t.
  EXPECT_EQ(dirac_gamma(15), gamma_permutation(4));
  EXPECT_EQ(dirac_gamma(8), gamma_permutation(3));
  const Eigen::Vector4cd diagonal = dense(dirac_gamma(15)).diagonal();
  EXPECT_EQ((diagonal - Eigen::Vector4cd(1.0, 1.0, -1.0, -1.0)).norm(), 0.0);
}

TEST(DiracMatrices, CliffordAlgebraAndTheSixteenAreABasis) {
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = 0; nu < 4; ++nu) {
      const Eigen::Matrix4cd anticommutator =
          dense(gamma_permutation(mu) * gamma_permutation(nu)) + dense(gamma_permutation(nu) * gamma_permutation(mu));
      EXPECT_LT((anticommutator - 2.0 * (mu == nu) * Eigen::Matrix4cd::Identity()).norm(), 1e-15) << mu << nu;
    }
  // tr[Gamma(m)^+ Gamma(n)] = 4 delta_mn: orthogonal, so linearly independent.
  for (int m = 0; m < dirac_matrix_count; ++m)
    for (int n = 0; n < dirac_matrix_count; ++n)
      EXPECT_NEAR(std::abs((dense(dirac_gamma(m)).adjoint() * dense(dirac_gamma(n))).trace()), m == n ? 4.0 : 0.0,
                  1e-15);
}

TEST(DiracMatrices, PermutationAlgebraMatchesDenseAlgebra) {
  for (int m = 0; m < dirac_matrix_count; ++m) {
    const SpinPermutation a = dirac_gamma(m).times_i_power(m);  // phases beyond +-1 too
    EXPECT_LT((dense(a.adjoint()) - dense(a).adjoint()).norm(), 1e-15);
    EXPECT_LT((dense(a.transpose()) - dense(a).transpose()).norm(), 1e-15);
    for (int r = 0; r < 4; ++r) EXPECT_EQ(a.row_of(a.column[r]), r);
    for (int n = 0; n < dirac_matrix_count; ++n)
      EXPECT_LT((dense(a * dirac_gamma(n)) - dense(a) * dense(dirac_gamma(n))).norm(), 1e-15) << m << " " << n;
  }
}

TEST(DiracMatrices, ChargeConjugation) {
  const Eigen::Matrix4cd C = dense(charge_conjugation());
  for (int mu = 0; mu < 4; ++mu)
    EXPECT_LT((C * gamma_dense(mu) * C.inverse() + gamma_dense(mu).transpose()).norm(), 1e-15) << "mu = " << mu;
  EXPECT_EQ(charge_conjugation(), dirac_gamma(10));  // gamma_2 gamma_4
  EXPECT_LT((C.transpose() + C).norm(), 1e-15);       // C^T = -C = C^-1
  EXPECT_LT((C * C + Eigen::Matrix4cd::Identity()).norm(), 1e-15);
  // The diquarks: C gamma_5 antisymmetric, C gamma_k symmetric.
  const Eigen::Matrix4cd Cg5 = C * gamma_dense(4);
  EXPECT_LT((Cg5.transpose() + Cg5).norm(), 1e-15);
  for (int k = 0; k < 3; ++k) {
    const Eigen::Matrix4cd Cgk = C * gamma_dense(k);
    EXPECT_LT((Cgk.transpose() - Cgk).norm(), 1e-15) << "k = " << k;
  }
}

TEST(DiracMatrices, BarIsGammaFourAdjointGammaFour) {
  const Eigen::Matrix4cd g4 = gamma_dense(3);
  for (int n = 0; n < dirac_matrix_count; ++n) {
    const Eigen::Matrix4cd G = dense(dirac_gamma(n).times_i_power(1));
    EXPECT_LT((dense(barred(dirac_gamma(n).times_i_power(1))) - g4 * G.adjoint() * g4).norm(), 1e-15);
    EXPECT_NE(relative_sign(dense(barred(dirac_gamma(n))), dense(dirac_gamma(n))), 0) << "Gamma(" << n << ")";
  }
  EXPECT_EQ(relative_sign(dense(barred(dirac_gamma(15))), dense(dirac_gamma(15))), -1);  // gamma_5-bar = -gamma_5
  EXPECT_EQ(relative_sign(dense(barred(dirac_gamma(8))), dense(dirac_gamma(8))), 1);
}

TEST(DiracMatrices, TableQuantumNumbersFollowFromTheMatrices) {
  const Eigen::Matrix4cd g4 = gamma_dense(3), C = dense(charge_conjugation());
  for (int n = 0; n < dirac_matrix_count; ++n) {
    const Eigen::Matrix4cd G = Gamma_dense(n);
    const int P = relative_sign(g4 * G * g4, G);
    const int Cc = relative_sign(C * G.transpose() * C.inverse(), G);
    EXPECT_EQ(P, meson_table[n].P) << meson_table[n].name;
    EXPECT_EQ(Cc, meson_table[n].C) << meson_table[n].name;
    // J = 0 exactly when Gamma commutes with every spatial rotation
    // generator sigma_ij = gamma_i gamma_j.
    bool scalar = true;
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j) {
        const Eigen::Matrix4cd sigma = gamma_dense(i) * gamma_dense(j);
        scalar = scalar && (sigma * G - G * sigma).norm() < 1e-14;
      }
    EXPECT_EQ(meson_table[n].J, scalar ? 0 : 1) << meson_table[n].name;
  }
  EXPECT_EQ(quantum_numbers_text(gamma_index::pion), "0-+");
  EXPECT_EQ(quantum_numbers_text(gamma_index::b0), "0+-");
  EXPECT_EQ(std::string(meson_table[gamma_index::a1_x].name), "a1_x");
  EXPECT_EQ(channel_name({gamma_index::pion, gamma_index::pion}), "pion");
  EXPECT_EQ(channel_name({gamma_index::pion_2, gamma_index::pion}), "pion_2-pion");
  // the named forms: pion_2 ~ gamma_4 gamma_5, a1_x ~ gamma_1 gamma_5, b1_z ~ gamma_3 gamma_4 gamma_5
  EXPECT_NE(relative_sign(Gamma_dense(7), gamma_dense(3) * gamma_dense(4)), 0);
  EXPECT_NE(relative_sign(Gamma_dense(14), gamma_dense(0) * gamma_dense(4)), 0);
  EXPECT_NE(relative_sign(Gamma_dense(3), gamma_dense(2) * gamma_dense(3) * gamma_dense(4)), 0);
}

}  // namespace
}  // namespace latte::testing
