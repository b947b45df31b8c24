#pragma once
// The orthogonal moment basis of the multiple-relaxation-time collision
// (collision.hpp, Mrt), built at compile time for any velocity set.
//
// Moments are polynomials p(c) evaluated on the Q velocities: m = M f with
// M[a][i] = p_a(c_i). The basis follows d'Humieres et al. (Phil. Trans. R.
// Soc. A 360, 2002, 437) and Lallemand & Luo (Phys. Rev. E 61, 2000, 6546):
// polynomials of rising degree made orthogonal by Gram-Schmidt in the plain
// inner product sum_i p(c_i) q(c_i), so that M^-1 = M^T diag(1 / |p_a|^2).
// The candidates, in this order, are
//   degree 0  1                                         density (conserved)
//   degree 1  c_x, c_y, c_z                             momentum (conserved)
//   degree 2  c^2                                       bulk (trace of the stress)
//             3 c_x^2 - c^2, c_y^2 - c_z^2 (3-D) or
//             c_x^2 - c_y^2 (2-D), c_x c_y, c_x c_z, c_y c_z   shear (viscosity)
//   degree 3+ every other product c_x^a c_y^b c_z^g with a, b, g <= 2,
//             by rising degree                          ghost moments
// and a candidate that the velocity set cannot tell apart from earlier ones
// (c_x c_y c_z on D3Q19, which has no corner velocities) is left out. That
// yields exactly Q moments for D2Q9, D3Q19 and D3Q27 (checked below).
// Ghosts of odd degree change sign with c (they are "odd", like the
// anti-symmetric part that TRT relaxes with omega-); ghosts of even degree
// are "even". Within one kind the collision does not depend on which
// orthogonal basis is picked, only on the subspace: the relaxation of a kind
// is its rate times the orthogonal projector onto its subspace.

#include <array>

namespace latte::lbm {

enum class MomentKind { density, momentum, bulk, shear, odd_ghost, even_ghost };

template <int Q>
struct MomentTable {
  double m[Q][Q];     // m[a][i] = p_a(c_i)
  double norm2[Q];    // sum_i p_a(c_i)^2
  MomentKind kind[Q];
  int count;          // moments found; equals Q for a complete basis
};

namespace detail {

struct MonomialTerm {
  double coefficient;
  int power[3];
};
struct MomentCandidate {
  MonomialTerm term[3];
  int terms;
  MomentKind kind;
};

template <class VS>
constexpr double evaluate(const MomentCandidate& p, int i) {
  double sum = 0;
  for (int t = 0; t < p.terms; ++t) {
    double value = p.term[t].coefficient;
    for (int d = 0; d < VS::d; ++d)
      for (int k = 0; k < p.term[t].power[d]; ++k) value *= VS::c[i][d];
    sum += value;
  }
  return sum;
}

// The candidate polynomials of a D-dimensional set, in Gram-Schmidt order.
template <int D>
constexpr std::array<MomentCandidate, 40> moment_candidates(int& count) {
  std::array<MomentCandidate, 40> list{};
  count = 0;
  auto monomial = [&](int a, int b, int g, MomentKind kind) {
    list[count++] = MomentCandidate{{MonomialTerm{1.0, {a, b, g}}}, 1, kind};
  };
  monomial(0, 0, 0, MomentKind::density);
  for (int d = 0; d < D; ++d) monomial(d == 0, d == 1, d == 2, MomentKind::momentum);
  // c^2, then the traceless diagonal combinations, then the off-diagonals.
  MomentCandidate trace{{}, D, MomentKind::bulk};
  for (int d = 0; d < D; ++d) trace.term[d] = MonomialTerm{1.0, {2 * (d == 0), 2 * (d == 1), 2 * (d == 2)}};
  list[count++] = trace;
  if constexpr (D == 2) {
    list[count++] = MomentCandidate{{MonomialTerm{1.0, {2, 0, 0}}, MonomialTerm{-1.0, {0, 2, 0}}}, 2, MomentKind::shear};
  } else {
    list[count++] = MomentCandidate{
        {MonomialTerm{2.0, {2, 0, 0}}, MonomialTerm{-1.0, {0, 2, 0}}, MonomialTerm{-1.0, {0, 0, 2}}}, 3,
        MomentKind::shear};
    list[count++] = MomentCandidate{{MonomialTerm{1.0, {0, 2, 0}}, MonomialTerm{-1.0, {0, 0, 2}}}, 2, MomentKind::shear};
  }
  for (int a = 0; a < D; ++a)
    for (int b = a + 1; b < D; ++b) monomial(a == 0 || b == 0, a == 1 || b == 1, a == 2 || b == 2, MomentKind::shear);
  // Ghosts: every c_x^a c_y^b c_z^g with exponents up to 2 and degree >= 3.
  const int top = D == 3 ? 2 : 0;
  for (int degree = 3; degree <= 2 * D; ++degree)
    for (int a = 0; a <= 2; ++a)
      for (int b = 0; b <= 2; ++b)
        for (int g = 0; g <= top; ++g)
          if (a + b + g == degree) monomial(a, b, g, degree % 2 ? MomentKind::odd_ghost : MomentKind::even_ghost);
  return list;
}

template <class VS>
constexpr MomentTable<VS::q> make_moment_table() {
  constexpr int Q = VS::q;
  MomentTable<Q> table{};
  int candidates = 0;
  const auto list = moment_candidates<VS::d>(candidates);
  int n = 0;
  for (int k = 0; k < candidates && n < Q; ++k) {
    double row[Q] = {};
    for (int i = 0; i < Q; ++i) row[i] = evaluate<VS>(list[k], i);
    for (int a = 0; a < n; ++a) {  // Gram-Schmidt against the moments kept so far
      double overlap = 0;
      for (int i = 0; i < Q; ++i) overlap += row[i] * table.m[a][i];
      for (int i = 0; i < Q; ++i) row[i] -= overlap / table.norm2[a] * table.m[a][i];
    }
    double norm2 = 0;
    for (int i = 0; i < Q; ++i) norm2 += row[i] * row[i];
    if (norm2 < 1e-9) continue;  // not independent on this velocity set
    // Entries that cancel exactly in exact arithmetic are left at round-off
    // by Gram-Schmidt; setting them to zero lets the collision skip them.
    norm2 = 0;
    for (int i = 0; i < Q; ++i) {
      if (row[i] < 1e-12 && row[i] > -1e-12) row[i] = 0;
      norm2 += row[i] * row[i];
    }
    for (int i = 0; i < Q; ++i) table.m[n][i] = row[i];
    table.norm2[n] = norm2;
    table.kind[n] = list[k].kind;
    ++n;
  }
  table.count = n;
  return table;
}

}  // namespace detail

template <class VS>
struct MomentBasis {
  static constexpr MomentTable<VS::q> table = detail::make_moment_table<VS>();
  static_assert(table.count == VS::q, "the moment candidates do not span this velocity set");
};

}  // namespace latte::lbm
