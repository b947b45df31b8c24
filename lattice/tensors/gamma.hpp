#pragma once
// Euclidean Dirac matrices and spin projection, in the DeGrand-Rossi (chiral)
// basis used by Chroma and Grid. Directions mu = 0, 1, 2, 3 are x, y, z, t.
// Every gamma_mu is hermitian and off-diagonal in 2x2 blocks,
//
//     gamma_mu = [ 0        A_mu ]      A_x = i sigma_x = [[0, i], [i, 0]]
//                [ A_mu^+   0    ]      A_y = -i sigma_y = [[0, -1], [1, 0]]
//                                       A_z = i sigma_z = [[i, 0], [0, -i]]
//                                       A_t = 1
//
// with A_mu unitary, so {gamma_mu, gamma_nu} = 2 delta_mu_nu and
// gamma_5 = gamma_x gamma_y gamma_z gamma_t = diag(1, 1, -1, -1).
//
// Spin projection, the two-independent-components trick: for s = +-1,
//     (1 + s gamma_mu) psi = ( h , s A_mu^+ h ),   h = psi_up + s A_mu psi_down
// so only the half spinor h (2 spins x 3 colours) is multiplied by a link
// and shifted; the lower half is rebuilt from it. Each row of A_mu has one
// nonzero entry, a phase in {1, -1, i, -i}: projection costs 6 complex
// additions (12 flops), reconstruction none (sign flips and factors of i are
// not counted, as is usual).

#include "lattice/tensors/site_types.hpp"

namespace latte {

// Row r of A_mu has its nonzero entry in column column[mu][r], equal to
// phase[mu][r] (0: +1, 1: +i, 2: -1, 3: -i, i.e. i^k).
struct GammaBlocks {
  static constexpr int column[4][2] = {{1, 0}, {1, 0}, {0, 1}, {0, 1}};
  static constexpr int phase[4][2] = {{1, 1}, {2, 0}, {1, 3}, {0, 0}};
};

// i^k * z for k = 0..3, with no multiplication.
template <int K, class T>
LATTE_INLINE T times_i_power(const T& z) {
  constexpr int k = ((K % 4) + 4) % 4;
  if constexpr (k == 0) return z;
  else if constexpr (k == 1) return timesI(z);
  else if constexpr (k == 2) return -z;
  else return timesMinusI(z);
}

// h = psi_up + s A_mu psi_down
template <int Mu, int Sign, class R>
LATTE_INLINE HalfSpinor<R> spin_project(const Spinor<R>& psi) {
  static_assert(Mu >= 0 && Mu < 4 && (Sign == 1 || Sign == -1));
  constexpr int k0 = GammaBlocks::phase[Mu][0] + (Sign < 0 ? 2 : 0);
  constexpr int k1 = GammaBlocks::phase[Mu][1] + (Sign < 0 ? 2 : 0);
  HalfSpinor<R> h;
  h.v[0] = psi.v[0] + times_i_power<k0>(psi.v[2 + GammaBlocks::column[Mu][0]]);
  h.v[1] = psi.v[1] + times_i_power<k1>(psi.v[2 + GammaBlocks::column[Mu][1]]);
  return h;
}

// (h, s A_mu^+ h): row c of A_mu^+ holds conj(phase) of the row r of A_mu
// whose column is c.
template <int Mu, int Sign, class R>
LATTE_INLINE Spinor<R> spin_reconstruct(const HalfSpinor<R>& h) {
  static_assert(Mu >= 0 && Mu < 4 && (Sign == 1 || Sign == -1));
  constexpr int k0 = -GammaBlocks::phase[Mu][0] + (Sign < 0 ? 2 : 0);
  constexpr int k1 = -GammaBlocks::phase[Mu][1] + (Sign < 0 ? 2 : 0);
  Spinor<R> psi;
  psi.v[0] = h.v[0];
  psi.v[1] = h.v[1];
  psi.v[2 + GammaBlocks::column[Mu][0]] = times_i_power<k0>(h.v[0]);
  psi.v[2 + GammaBlocks::column[Mu][1]] = times_i_power<k1>(h.v[1]);
  return psi;
}

// gamma_mu psi and gamma_5 psi (Mu = 4 means gamma_5), as spin permutations
// with phases; used by operators and tests.
template <int Mu, class R>
LATTE_INLINE Spinor<R> gamma_times(const Spinor<R>& psi) {
  Spinor<R> out;
  if constexpr (Mu == 4) {
    out.v[0] = psi.v[0];
    out.v[1] = psi.v[1];
    out.v[2] = -psi.v[2];
    out.v[3] = -psi.v[3];
  } else {
    // upper_r = A[r][col_r] * psi_{2+col_r};  lower_c = conj(A[r][c]) * psi_r for col_r = c
    out.v[0] = times_i_power<GammaBlocks::phase[Mu][0]>(psi.v[2 + GammaBlocks::column[Mu][0]]);
    out.v[1] = times_i_power<GammaBlocks::phase[Mu][1]>(psi.v[2 + GammaBlocks::column[Mu][1]]);
    out.v[2 + GammaBlocks::column[Mu][0]] = times_i_power<-GammaBlocks::phase[Mu][0]>(psi.v[0]);
    out.v[2 + GammaBlocks::column[Mu][1]] = times_i_power<-GammaBlocks::phase[Mu][1]>(psi.v[1]);
  }
  return out;
}

// The same on a batch of spinors (N right-hand sides): each one separately.
template <int Mu, int Sign, class R, int N>
LATTE_INLINE Batch<HalfSpinor<R>, N> spin_project(const MultiSpinor<R, N>& psi) {
  Batch<HalfSpinor<R>, N> h;
  for (int k = 0; k < N; ++k) h.v[k] = spin_project<Mu, Sign>(psi.v[k]);
  return h;
}
template <int Mu, int Sign, class R, int N>
LATTE_INLINE MultiSpinor<R, N> spin_reconstruct(const Batch<HalfSpinor<R>, N>& h) {
  MultiSpinor<R, N> psi;
  for (int k = 0; k < N; ++k) psi.v[k] = spin_reconstruct<Mu, Sign>(h.v[k]);
  return psi;
}
template <int Mu, class R, int N>
LATTE_INLINE MultiSpinor<R, N> gamma_times(const MultiSpinor<R, N>& psi) {
  MultiSpinor<R, N> out;
  for (int k = 0; k < N; ++k) out.v[k] = gamma_times<Mu>(psi.v[k]);
  return out;
}

// The dense 4x4 matrix of gamma_mu (Mu = 4: gamma_5), for tests and
// references.
template <int Mu>
SpinMatrix<double> gamma_matrix() {
  SpinMatrix<double> g;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) g(i, j) = ComplexD(0.0, 0.0);
  if constexpr (Mu == 4) {
    g(0, 0) = g(1, 1) = ComplexD(1.0);
    g(2, 2) = g(3, 3) = ComplexD(-1.0);
  } else {
    const ComplexD phases[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (int r = 0; r < 2; ++r) {
      const int c = GammaBlocks::column[Mu][r];
      const ComplexD a = phases[GammaBlocks::phase[Mu][r]];
      g(r, 2 + c) = a;
      g(2 + c, r) = conj(a);
    }
  }
  return g;
}

}  // namespace latte
