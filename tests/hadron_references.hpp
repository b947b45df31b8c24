#pragma once
// References for the hadron tests, written independently of the library's
// spin permutations and contractions: dense gamma matrices from
// lattice/tensors/gamma.hpp, the free Wilson quark in momentum space, and
// the baryon Wick terms summed index by index with explicit epsilon tensors.

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "eigen_conversions.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"
#include "test_support.hpp"

namespace latte::testing::hadrons {

using cd = std::complex<double>;
using Matrix12 = Eigen::Matrix<cd, 12, 12>;

inline Eigen::Matrix4cd gamma_dense(int mu) {
  switch (mu) {
    case 0: return to_eigen(gamma_matrix<0>());
    case 1: return to_eigen(gamma_matrix<1>());
    case 2: return to_eigen(gamma_matrix<2>());
    case 3: return to_eigen(gamma_matrix<3>());
    default: return to_eigen(gamma_matrix<4>());
  }
}
inline Eigen::Matrix4cd Gamma_dense(int n) {  // gamma_1^b0 gamma_2^b1 gamma_3^b2 gamma_4^b3
  Eigen::Matrix4cd g = Eigen::Matrix4cd::Identity();
  for (int mu = 0; mu < 4; ++mu)
    if ((n >> mu) & 1) g = g * gamma_dense(mu);
  return g;
}
inline Eigen::Matrix4cd bar_dense(const Eigen::Matrix4cd& G) { return gamma_dense(3) * G.adjoint() * gamma_dense(3); }

// S as a 12 x 12 matrix, row 3 s' + c' (sink), column 3 s + c (source).
inline Matrix12 to_matrix(const PropagatorSite<double>& S) {
  Matrix12 m;
  for (int k = 0; k < 12; ++k)
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) m(3 * s + c, k) = to_std(S(k)(s)(c));
  return m;
}

inline int epsilon(int a, int b, int c) {  // epsilon_012 = 1
  if (a == b || b == c || a == c) return 0;
  return (a == 0 && b == 1) || (a == 1 && b == 2) || (a == 2 && b == 0) ? 1 : -1;
}

// tr[P G] for chi = eps (u^T Gamma d) u (proton: d pairs with dbar only) or
// eps (u^T Gamma u) u (Delta: all six pairings), chibar with Gt = bar(Gamma),
// every spin and colour index summed explicitly.
inline cd baryon_reference(const Matrix12& S, const Eigen::Matrix4cd& Gamma, bool delta, int parity) {
  const Eigen::Matrix4cd Gt = bar_dense(Gamma);
  const Eigen::Matrix4cd P = 0.5 * (Eigen::Matrix4cd::Identity() + double(parity) * gamma_dense(3));
  const auto s = [&](int spin, int colour, int spin2, int colour2) { return S(3 * spin + colour, 3 * spin2 + colour2); };
  Eigen::Matrix4cd G = Eigen::Matrix4cd::Zero();
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c) {
        if (!epsilon(a, b, c)) continue;
        for (int a2 = 0; a2 < 3; ++a2)
          for (int b2 = 0; b2 < 3; ++b2)
            for (int c2 = 0; c2 < 3; ++c2) {
              const double e = epsilon(a, b, c) * epsilon(a2, b2, c2);
              if (e == 0) continue;
              for (int rho = 0; rho < 4; ++rho)
                for (int sigma = 0; sigma < 4; ++sigma) {
                  if (Gamma(rho, sigma) == 0.0) continue;
                  for (int rho2 = 0; rho2 < 4; ++rho2)
                    for (int sigma2 = 0; sigma2 < 4; ++sigma2) {
                      if (Gt(rho2, sigma2) == 0.0) continue;
                      const cd weight = e * Gamma(rho, sigma) * Gt(rho2, sigma2);
                      // u_a(rho) u_b(sigma) u_c(alpha) ubar_b'(rho2) ubar_a'(sigma2) ubar_c'(beta)
                      for (int alpha = 0; alpha < 4; ++alpha)
                        for (int beta = 0; beta < 4; ++beta) {
                          const cd A_a2 = s(rho, a, sigma2, a2), A_b2 = s(rho, a, rho2, b2), A_c2 = s(rho, a, beta, c2);
                          const cd B_a2 = s(sigma, b, sigma2, a2), B_b2 = s(sigma, b, rho2, b2),
                                   B_c2 = s(sigma, b, beta, c2);
                          const cd C_a2 = s(alpha, c, sigma2, a2), C_b2 = s(alpha, c, rho2, b2),
                                   C_c2 = s(alpha, c, beta, c2);
                          cd w = B_b2 * (A_a2 * C_c2 - A_c2 * C_a2);  // the two with b paired to b'
                          if (delta) w += A_c2 * B_a2 * C_b2 - A_a2 * B_c2 * C_b2 - A_b2 * B_a2 * C_c2 + A_b2 * B_c2 * C_a2;
                          G(alpha, beta) += weight * w;
                        }
                    }
                }
            }
      }
  return (P * G).trace();
}

inline Eigen::Matrix4cd diquark_dense(int which) {  // C gamma_5, C gamma_x, C gamma_y, C gamma_z, C = gamma_y gamma_t
  const Eigen::Matrix4cd C = gamma_dense(1) * gamma_dense(3);
  return C * gamma_dense(which == 0 ? 4 : which - 1);
}

// The free Wilson quark, periodic in space and (anti)periodic in time:
// M(p) = m + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu (the
// operator's own convention, test_propagator.cpp), p_t = (2 pi n + pi theta) / T,
// and G(q_s, t) = sum_{q_t} e^{i q_t t} M(q)^-1: the propagator from the
// origin is S(x) = (1/V) sum_{q_s} e^{i q_s x} G(q_s, x_t) times the colour identity.
struct FreeQuark {
  Coordinate dims;
  std::vector<std::vector<Eigen::Matrix4cd>> G;  // [spatial momentum index][t]
  int index(int n0, int n1, int n2) const {
    const auto wrap = [](int n, int L) { return ((n % L) + L) % L; };
    return (wrap(n2, dims[2]) * dims[1] + wrap(n1, dims[1])) * dims[0] + wrap(n0, dims[0]);
  }
  FreeQuark(const Coordinate& d, double mass, double theta_t) : dims(d) {
    const int T = dims[3];
    G.assign(dims[0] * dims[1] * dims[2], std::vector<Eigen::Matrix4cd>(T, Eigen::Matrix4cd::Zero()));
    for (int n0 = 0; n0 < dims[0]; ++n0)
      for (int n1 = 0; n1 < dims[1]; ++n1)
        for (int n2 = 0; n2 < dims[2]; ++n2)
          for (int n3 = 0; n3 < T; ++n3) {
            const double pi = std::numbers::pi;
            const double p[4] = {2 * pi * n0 / dims[0], 2 * pi * n1 / dims[1], 2 * pi * n2 / dims[2],
                                 (2 * pi * n3 + pi * theta_t) / T};
            Eigen::Matrix4cd Mp = Eigen::Matrix4cd::Identity() * mass;
            for (int mu = 0; mu < 4; ++mu)
              Mp += Eigen::Matrix4cd::Identity() * (1 - std::cos(p[mu])) + cd(0, std::sin(p[mu])) * gamma_dense(mu);
            const Eigen::Matrix4cd inverse = Mp.inverse();
            for (int t = 0; t < T; ++t) G[index(n0, n1, n2)][t] += std::polar(1.0, p[3] * t) * inverse;
          }
  }
};

// C(p, t) = sum_x e^{-ip.x} c(x) for the source at the origin: with
// sum_{x_s} e^{i (q - k - p).x} = L^3 delta,
//   C(p, t) = -3 (L^3 / V^2) sum_{q_s} tr[Gsnk G1(q_s, t) Gbar_src g5 G2(q_s - p, t)^+ g5].
inline Correlator free_meson(const FreeQuark& quark, const FreeQuark& antiquark, const MesonChannel& channel,
                      const Momentum& p) {
  const Coordinate& d = quark.dims;
  const double spatial = double(d[0]) * d[1] * d[2], volume = spatial * d[3];
  const Eigen::Matrix4cd Gsnk = Gamma_dense(channel.sink), Gsrc = bar_dense(Gamma_dense(channel.source)),
                         g5 = gamma_dense(4);
  Correlator C(d[3]);
  for (int t = 0; t < d[3]; ++t)
    for (int n0 = 0; n0 < d[0]; ++n0)
      for (int n1 = 0; n1 < d[1]; ++n1)
        for (int n2 = 0; n2 < d[2]; ++n2) {
          const Eigen::Matrix4cd& G1 = quark.G[quark.index(n0, n1, n2)][t];
          const Eigen::Matrix4cd& G2 = antiquark.G[antiquark.index(n0 - p[0], n1 - p[1], n2 - p[2])][t];
          C[t] += -3.0 * spatial / (volume * volume) * (Gsnk * G1 * Gsrc * g5 * G2.adjoint() * g5).trace();
        }
  return C;
}

inline double largest_abs(const Correlator& c) {
  double m = 0;
  for (const cd& z : c) m = std::max(m, std::abs(z));
  return m;
}
// max_t |a(t) - b(t)| / max_t |b(t)|
inline double relative_difference(const Correlator& a, const Correlator& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (std::size_t t = 0; t < a.size() && t < b.size(); ++t) worst = std::max(worst, std::abs(a[t] - b[t]));
  return worst / largest_abs(b);
}

}  // namespace latte::testing::hadrons
