#pragma once
// The 16 Dirac matrices, the charge-conjugation matrix and the bar of a
// Dirac matrix, as spin permutations with phases: every product of gamma
// matrices in the DeGrand-Rossi basis (lattice/tensors/gamma.hpp) has one
// nonzero entry per row and per column, a power of i, so it is held as
// 4 columns and 4 phases, multiplied exactly, and applied to a propagator
// by moving and sign-flipping entries (no multiplications).
//
// Numbering (Chroma's): Gamma(n) = gamma_1^b0 gamma_2^b1 gamma_3^b2 gamma_4^b3
// for n = b0 + 2 b1 + 4 b2 + 8 b3, gamma_1..4 our directions x, y, z, t
// (mu = 0..3), so Gamma(1) = gamma_x, Gamma(8) = gamma_t and
// Gamma(15) = gamma_x gamma_y gamma_z gamma_t = gamma_5 = diag(1, 1, -1, -1).
//
// Charge conjugation: C gamma_mu C^-1 = -gamma_mu^T. In this basis gamma_y
// and gamma_t are real and symmetric, gamma_x and gamma_z imaginary and
// antisymmetric, so C = gamma_y gamma_t = Gamma(10) (Chroma's choice): C is
// real, C^T = C^-1 = -C. Then C gamma_5 (the nucleon's diquark) is
// antisymmetric and C gamma_k (the Delta's) symmetric.
//
// The bar: for an operator psibar_1 Gamma psi_2 its adjoint in the
// Hilbert space is psibar_2 Gammabar psi_1 with
//   Gammabar = gamma_4 Gamma^+ gamma_4
// (psibar = psi^+ gamma_4). Every Gamma(n) has Gammabar(n) = +-Gamma(n).
//
// Other codes, so that numbers can be compared:
// - Chroma uses this basis, this numbering, C = Gamma(10) and the same
//   Wilson operator (1 - gamma_mu) U psi(x + mu) forward
//   (lib/actions/ferm/linop/lwldslash_w.h), so its propagators are ours.
// - MILC's Wilson code (include/gammatypes.h, generic_wilson/gammas.c)
//   writes gamma_x, gamma_y, gamma_z, gamma_t and gamma_5 as the very
//   matrices above (its comment: the DeGrand-Rossi convention), but its
//   hopping term takes the other projectors, (1 + gamma_mu) U psi(x + mu)
//   forward (generic_wilson/dslash_w3.c, isign = +1), and M = 1 - kappa D:
//   its operator is 2 kappa gamma_5 M gamma_5 (ours with gamma_mu ->
//   -gamma_mu = gamma_5 gamma_mu gamma_5, kappa = 1 / (2 (4 + m))), so
//   S_MILC = gamma_5 S gamma_5 / (2 kappa). The contractions written here,
//   applied to MILC's propagators, give for a meson (Gamma_src, Gamma_snk)
//   ours times (-1)^(n_src + n_snk) / (2 kappa)^2, n = gamma_factor_count
//   (diagonal channels: 1 / (2 kappa)^2 alone), and for a baryon ours /
//   (2 kappa)^3 when the projector (1 + gamma_4)/2 is replaced by
//   (1 - gamma_4)/2 (C gamma_5 has an even and C gamma_k an odd number of
//   factors on both sides, so the diquarks are unchanged). MILC names its
//   matrices GX .. G5T, G1 with GYZ = i gamma_y gamma_z etc.: phases that
//   differ from Gamma(n)'s cancel in diagonal channels.

#include "lattice/tensors/gamma.hpp"

namespace latte {

// A 4 x 4 matrix whose row r holds i^phase[r] in column column[r] and
// zeros elsewhere (phase 0, 1, 2, 3: 1, i, -1, -i).
struct SpinPermutation {
  int column[4];
  int phase[4];

  static constexpr SpinPermutation identity() { return {{0, 1, 2, 3}, {0, 0, 0, 0}}; }

  // (A B)_{r, B.column[A.column[r]]} = A_{r, A.column[r]} B_{A.column[r], B.column[A.column[r]]}
  friend constexpr SpinPermutation operator*(const SpinPermutation& a, const SpinPermutation& b) {
    SpinPermutation p{};
    for (int r = 0; r < 4; ++r) {
      p.column[r] = b.column[a.column[r]];
      p.phase[r] = (a.phase[r] + b.phase[a.column[r]]) % 4;
    }
    return p;
  }
  // i^k A
  constexpr SpinPermutation times_i_power(int k) const {
    SpinPermutation p = *this;
    for (int r = 0; r < 4; ++r) p.phase[r] = ((phase[r] + k) % 4 + 4) % 4;
    return p;
  }
  constexpr SpinPermutation transpose() const {
    SpinPermutation p{};
    for (int r = 0; r < 4; ++r) {
      p.column[column[r]] = r;
      p.phase[column[r]] = phase[r];
    }
    return p;
  }
  constexpr SpinPermutation adjoint() const {
    SpinPermutation p = transpose();
    for (int r = 0; r < 4; ++r) p.phase[r] = (4 - p.phase[r]) % 4;
    return p;
  }
  // The row whose nonzero entry is in column c.
  constexpr int row_of(int c) const {
    for (int r = 0; r < 4; ++r)
      if (column[r] == c) return r;
    return -1;
  }
  friend constexpr bool operator==(const SpinPermutation&, const SpinPermutation&) = default;
};

// gamma_mu for mu = 0..3 (x, y, z, t) from the blocks of lattice/tensors/gamma.hpp,
// and gamma_5 for mu = 4.
constexpr SpinPermutation gamma_permutation(int mu) {
  if (mu == 4) return {{0, 1, 2, 3}, {0, 0, 2, 2}};
  SpinPermutation g{};
  for (int r = 0; r < 2; ++r) {
    const int c = GammaBlocks::column[mu][r], k = GammaBlocks::phase[mu][r];
    g.column[r] = 2 + c;
    g.phase[r] = k;
    g.column[2 + c] = r;
    g.phase[2 + c] = (4 - k) % 4;
  }
  return g;
}

inline constexpr int dirac_matrix_count = 16;

// Gamma(n) = gamma_1^b0 gamma_2^b1 gamma_3^b2 gamma_4^b3, n = b0 + 2 b1 + 4 b2 + 8 b3.
constexpr SpinPermutation dirac_gamma(int n) {
  SpinPermutation g = SpinPermutation::identity();
  for (int mu = 0; mu < 4; ++mu)
    if ((n >> mu) & 1) g = g * gamma_permutation(mu);
  return g;
}

// How many of gamma_1..4 Gamma(n) multiplies: its sign under gamma_mu -> -gamma_mu.
constexpr int gamma_factor_count(int n) { return (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1); }

// C = gamma_2 gamma_4 = Gamma(10): C gamma_mu C^-1 = -gamma_mu^T.
constexpr SpinPermutation charge_conjugation() { return gamma_permutation(1) * gamma_permutation(3); }

// Gammabar = gamma_4 Gamma^+ gamma_4.
constexpr SpinPermutation barred(const SpinPermutation& g) {
  return gamma_permutation(3) * g.adjoint() * gamma_permutation(3);
}

// i^k z for a run-time k (a table's phase): sign flips and swaps only.
template <class R>
LATTE_INLINE Complex<R> times_i_to_the(const Complex<R>& z, int k) {
  switch (k & 3) {
    case 0: return z;
    case 1: return timesI(z);
    case 2: return -z;
    default: return timesMinusI(z);
  }
}

// The dense matrix, for tests and references.
inline SpinMatrix<double> dense_spin_matrix(const SpinPermutation& g) {
  const ComplexD phases[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  SpinMatrix<double> m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m(r, c) = c == g.column[r] ? phases[g.phase[r]] : ComplexD(0.0, 0.0);
  return m;
}

}  // namespace latte
