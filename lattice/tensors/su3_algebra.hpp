#pragma once
// SU(3) and its Lie algebra at one site, written once for every leaf type (a
// plain real per lane on simt and cuda, an xsimd vector on the cpu backend):
// the exponential of an algebra element, the traceless anti-hermitian
// projection, reunitarisation, the projection onto SU(3) that maximises
// Re tr(V M^+), SU(2) subgroups, and gaussian algebra elements.
//
// Conventions, used by every gauge algorithm of the library:
// - The Lie algebra su(3) is held as traceless anti-hermitian matrices
//   X = i sum_a x^a T^a with T^a = lambda^a / 2 (Gell-Mann matrices,
//   tr T^a T^b = delta^ab / 2). Its inner product is
//   <X, Y> = -2 tr(X Y) = sum_a x^a y^a, so -tr(P P) = 1/2 sum_a p_a^2.
// - A link moves along X as U -> exp(X) U (the algebra acts from the left).
//
// Branches (small arguments, the sign of det Q) are taken with selects, so
// every lane runs the same instructions.

#include <cmath>
#include <type_traits>

#include "lattice/tensors/site_random.hpp"
#include "lattice/tensors/site_types.hpp"
#include "lattice/tensors/tensor_ops.hpp"
#include "platform/build.hpp"

namespace latte::su3 {

template <class R> using Matrix = Mat<Complex<R>, colours, ColourIndex>;

namespace detail {

// The scalar type of a leaf: double for double and for a vector of doubles.
template <class R> struct leaf_scalar { using type = R; };
template <class R> requires requires { typename R::value_type; }
struct leaf_scalar<R> { using type = typename R::value_type; };
template <class R> inline constexpr bool single_precision_leaf = std::is_same_v<typename leaf_scalar<R>::type, float>;

// mask ? a : b on one leaf (a bool per lane, or a SIMD mask).
template <class M, class R> LATTE_INLINE R choose(const M& mask, const R& a, const R& b) {
  if constexpr (std::is_same_v<M, bool>) return mask ? a : b;
  else return select(mask, a, b);  // the vector library's select, found by argument-dependent lookup
}
template <class M, class R> LATTE_INLINE Complex<R> choose(const M& mask, const Complex<R>& a, const Complex<R>& b) {
  return {choose(mask, a.re, b.re), choose(mask, a.im, b.im)};
}

// Masks of either kind: or, and whether every lane is set.
template <class M> LATTE_INLINE M either(const M& a, const M& b) {
  if constexpr (std::is_same_v<M, bool>) return a || b;
  else return a | b;
}
template <class M> LATTE_INLINE bool every_lane(const M& mask) {
  if constexpr (std::is_same_v<M, bool>) return mask;
  else return all(mask);  // the vector library's, found by argument-dependent lookup
}

template <class R> LATTE_INLINE Matrix<R> zero_matrix() {
  Matrix<R> m;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) m(i, j) = Complex<R>(R(0), R(0));
  return m;
}

}  // namespace detail

template <class R> LATTE_INLINE Matrix<R> identity() {
  Matrix<R> m = detail::zero_matrix<R>();
  for (int i = 0; i < colours; ++i) m(i, i) = Complex<R>(R(1), R(0));
  return m;
}

// Ta(M) = (M - M^+)/2 - tr(M - M^+)/6: the traceless anti-hermitian part of
// M, the orthogonal projection onto su(3) in the inner product above.
template <class R> LATTE_INLINE Matrix<R> traceless_antihermitian(const Matrix<R>& m) {
  Matrix<R> a;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j)
      a(i, j) = Complex<R>(R(0.5) * (m(i, j).re - m(j, i).re), R(0.5) * (m(i, j).im + m(j, i).im));
  const R third_of_trace = (a(0, 0).im + a(1, 1).im + a(2, 2).im) * R(1.0 / 3.0);
  for (int i = 0; i < colours; ++i) a(i, i) = Complex<R>(R(0), a(i, i).im - third_of_trace);
  return a;
}

// exp(X) for X in su(3), exactly (no truncated series): with X = iQ, Q
// hermitian and traceless, the Cayley-Hamilton theorem gives
// exp(iQ) = f0 + f1 Q + f2 Q^2, and Morningstar & Peardon (Phys. Rev. D 69
// (2004) 054501, eqs. (19)-(34)) give the f_j in closed form from
// c0 = det Q = tr(Q^3)/3 and c1 = tr(Q^2)/2:
//   theta = arccos(|c0| / c0max), c0max = 2 (c1/3)^(3/2),
//   u = sqrt(c1/3) cos(theta/3), w = sqrt(c1) sin(theta/3),
//   h0 = (u^2 - w^2) e^{2iu} + e^{-iu} [8u^2 cos w + 2iu (3u^2 + w^2) xi0(w)],
//   h1 = 2u e^{2iu} - e^{-iu} [2u cos w - i (3u^2 - w^2) xi0(w)],
//   h2 = e^{2iu} - e^{-iu} [cos w + 3iu xi0(w)],
//   f_j = h_j / (9u^2 - w^2),  xi0(w) = sin(w)/w,
// for c0 >= 0, and f_j(-c0) = (-1)^j conj(f_j(c0)) (which keeps the
// denominator at least 2 c1). Near X = 0 (c1 below 1e-8 in double, 1e-4
// in single precision) the f_j come from the series of exp to fourth order
// reduced by Q^3 = c1 Q + c0, exact there to rounding.
template <class R> LATTE_INLINE Matrix<R> exp_antihermitian(const Matrix<R>& x) {
  using std::acos;
  using std::cos;
  using std::sin;
  using std::sqrt;
  using detail::choose;
  Matrix<R> q;  // Q = -i X
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) q(i, j) = Complex<R>(x(i, j).im, negated(x(i, j).re));
  const Matrix<R> q2 = q * q;
  const R c1 = R(0.5) * (q2(0, 0).re + q2(1, 1).re + q2(2, 2).re);
  R tr_q3 = R(0);
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) tr_q3 = tr_q3 + (q(i, j).re * q2(j, i).re - q(i, j).im * q2(j, i).im);
  const R c0 = tr_q3 * R(1.0 / 3.0);

  const auto negative = c0 < R(0);
  const R sign = choose(negative, R(-1), R(1));
  const R c0_abs = sign * c0;
  const R c1_third = c1 * R(1.0 / 3.0);
  const R sqrt_c1_third = sqrt(c1_third);
  const R c0_max = R(2) * c1_third * sqrt_c1_third;
  const auto small = c1 < R(detail::single_precision_leaf<R> ? 1e-4 : 1e-8);
  R ratio = choose(small, R(0), c0_abs / choose(small, R(1), c0_max));
  ratio = choose(ratio > R(1), R(1), ratio);  // rounding can leave [0, 1]
  const R theta_third = acos(ratio) * R(1.0 / 3.0);
  const R u = sqrt_c1_third * cos(theta_third);
  const R w = sqrt(c1) * sin(theta_third);
  const R u2 = u * u, w2 = w * w;
  const R xi0 = choose(w < R(0.05),
                       R(1) - w2 * R(1.0 / 6.0) * (R(1) - w2 * R(1.0 / 20.0) * (R(1) - w2 * R(1.0 / 42.0))),
                       sin(w) / choose(w < R(0.05), R(1), w));
  const R cos_w = cos(w);
  const Complex<R> e2iu(cos(R(2) * u), sin(R(2) * u));
  const Complex<R> emiu(cos(u), negated(sin(u)));
  const Complex<R> h0 = (u2 - w2) * e2iu +
                        emiu * Complex<R>(R(8) * u2 * cos_w, R(2) * u * (R(3) * u2 + w2) * xi0);
  const Complex<R> h1 = R(2) * u * e2iu - emiu * Complex<R>(R(2) * u * cos_w, negated((R(3) * u2 - w2) * xi0));
  const Complex<R> h2 = e2iu - emiu * Complex<R>(cos_w, R(3) * u * xi0);
  const R inverse_denominator = R(1) / choose(small, R(1), R(9) * u2 - w2);
  Complex<R> f0 = h0 * inverse_denominator, f1 = h1 * inverse_denominator, f2 = h2 * inverse_denominator;
  f0.im = sign * f0.im;
  f1.re = sign * f1.re;
  f2.im = sign * f2.im;
  // exp(iQ) ~ 1 + iQ - Q^2/2 - i Q^3/6 + Q^4/24 with Q^3 = c1 Q + c0, Q^4 = c1 Q^2 + c0 Q.
  const Complex<R> s0(R(1), negated(c0) * R(1.0 / 6.0));
  const Complex<R> s1(c0 * R(1.0 / 24.0), R(1) - c1 * R(1.0 / 6.0));
  const Complex<R> s2(R(-0.5) + c1 * R(1.0 / 24.0), R(0));
  f0 = choose(small, s0, f0);
  f1 = choose(small, s1, f1);
  f2 = choose(small, s2, f2);

  Matrix<R> e;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) {
      Complex<R> v = f1 * q(i, j) + f2 * q2(i, j);
      if (i == j) v += f0;
      e(i, j) = v;
    }
  return e;
}

// Reunitarisation: the rows of M orthonormalised in order (Gram-Schmidt),
// the third the conjugated cross product of the first two, so det = 1. For
// links that have drifted from SU(3) by rounding; on an SU(3) matrix it
// changes only the last bits.
template <class R> LATTE_INLINE Matrix<R> reunitarise(const Matrix<R>& m) {
  using std::sqrt;
  Matrix<R> u = m;
  auto normalise = [&](int row) LATTE_LAMBDA {
    R n = R(0);
    for (int j = 0; j < colours; ++j) n = n + u(row, j).re * u(row, j).re + u(row, j).im * u(row, j).im;
    const R scale = R(1) / sqrt(n);
    for (int j = 0; j < colours; ++j) u(row, j) = u(row, j) * scale;
  };
  normalise(0);
  Complex<R> overlap(R(0), R(0));
  for (int j = 0; j < colours; ++j) overlap += conj(u(0, j)) * u(1, j);
  for (int j = 0; j < colours; ++j) u(1, j) -= overlap * u(0, j);
  normalise(1);
  for (int j = 0; j < colours; ++j) {
    const int a = (j + 1) % colours, b = (j + 2) % colours;
    u(2, j) = conj(u(0, a) * u(1, b) - u(0, b) * u(1, a));
  }
  return u;
}

// ---- SU(2) subgroups ---------------------------------------------------------
// Subgroup k of SU(3) acts on the rows and columns (p, q) = (0,1), (1,2), (0,2).
// An SU(2)-proportional 2x2 matrix is held as a quaternion
//   a0 + i (a1 sigma1 + a2 sigma2 + a3 sigma3)
//     = [[a0 + i a3,  a2 + i a1], [-a2 + i a1, a0 - i a3]].
inline constexpr int su2_subgroups = 3;
LATTE_INLINE constexpr int su2_row(int k) { return k == 1 ? 1 : 0; }
LATTE_INLINE constexpr int su2_column(int k) { return k == 0 ? 1 : 2; }

template <class R> struct Quaternion { R a0, a1, a2, a3; };

// The SU(2)-proportional part of the (p, q) block of M (the quaternion
// nearest to it): the block's projection that Cabibbo-Marinari updates and
// the SU(3) projection work with.
template <class R> LATTE_INLINE Quaternion<R> su2_part(const Matrix<R>& m, int k) {
  const int p = su2_row(k), q = su2_column(k);
  return {R(0.5) * (m(p, p).re + m(q, q).re), R(0.5) * (m(p, q).im + m(q, p).im),
          R(0.5) * (m(p, q).re - m(q, p).re), R(0.5) * (m(p, p).im - m(q, q).im)};
}

// The quaternion as an SU(3) matrix acting on the (p, q) block, 1 elsewhere.
template <class R> LATTE_INLINE Matrix<R> su2_embed(const Quaternion<R>& a, int k) {
  const int p = su2_row(k), q = su2_column(k);
  Matrix<R> m = identity<R>();
  m(p, p) = Complex<R>(a.a0, a.a3);
  m(p, q) = Complex<R>(a.a2, a.a1);
  m(q, p) = Complex<R>(negated(a.a2), a.a1);
  m(q, q) = Complex<R>(a.a0, negated(a.a3));
  return m;
}

// g M for g in subgroup k, touching only rows p and q.
template <class R> LATTE_INLINE Matrix<R> su2_multiply(const Quaternion<R>& a, int k, const Matrix<R>& m) {
  const int p = su2_row(k), q = su2_column(k);
  const Complex<R> gpp(a.a0, a.a3), gpq(a.a2, a.a1), gqp(negated(a.a2), a.a1), gqq(a.a0, negated(a.a3));
  Matrix<R> r = m;
  for (int j = 0; j < colours; ++j) {
    r(p, j) = gpp * m(p, j) + gpq * m(q, j);
    r(q, j) = gqp * m(p, j) + gqq * m(q, j);
  }
  return r;
}

// The projection onto SU(3): the V that maximises Re tr(V M^+), as APE and
// HYP smearing need it. From the reunitarised M, each sweep maximises
// Re tr(g V M^+) over g in each SU(2) subgroup in turn (g = the conjugate
// of the normalised SU(2) part of V M^+, as in a Cabibbo-Marinari
// overrelaxation step), until a sweep's rotations are below 1e-14 (double;
// 1e-6 single) or after max_sweeps sweeps. Convergence is linear and slow
// only for ill-conditioned M (some 20 sweeps for a smeared link, up to 80
// for a link plus an O(1) gaussian matrix). Each lane stops on its own
// criterion and keeps its value from then on, so the result of a site does
// not depend on which sites share its vector: the same bits on any layout
// and rank count. On an SU(3) matrix the projection is the identity to
// rounding (idempotent).
template <class R> LATTE_INLINE Matrix<R> project_onto_su3(const Matrix<R>& m, int max_sweeps = 100) {
  using std::sqrt;
  using detail::choose;
  const R tolerance_squared = R(detail::single_precision_leaf<R> ? 1e-12 : 1e-28);
  Matrix<R> v = reunitarise(m);
  Matrix<R> overlap = v * adj(m);  // A = V M^+, kept updated as A -> g A
  auto done = R(1) < R(0);         // false in every lane
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    Matrix<R> v_next = v, overlap_next = overlap;
    R rotation = R(0);
    for (int k = 0; k < su2_subgroups; ++k) {
      const Quaternion<R> a = su2_part(overlap_next, k);
      const R off_identity = a.a1 * a.a1 + a.a2 * a.a2 + a.a3 * a.a3;
      const R norm = a.a0 * a.a0 + off_identity;
      const R positive_norm = choose(norm > R(0), norm, R(1));
      rotation = rotation + off_identity / positive_norm;
      const R inverse = R(1) / sqrt(positive_norm);
      // the conjugate quaternion, normalised: (a0 - i a.sigma) / |a|
      const Quaternion<R> g{a.a0 * inverse, negated(a.a1) * inverse, negated(a.a2) * inverse,
                            negated(a.a3) * inverse};
      v_next = su2_multiply(g, k, v_next);
      overlap_next = su2_multiply(g, k, overlap_next);
    }
    for (int i = 0; i < colours; ++i)
      for (int j = 0; j < colours; ++j) {
        v(i, j) = choose(done, v(i, j), v_next(i, j));
        overlap(i, j) = choose(done, overlap(i, j), overlap_next(i, j));
      }
    done = detail::either(done, rotation <= tolerance_squared);
    if (detail::every_lane(done)) break;
  }
  return reunitarise(v);
}

// A gaussian element of su(3): X = i sum_a x^a T^a with the x^a independent
// N(0, 1), so that the probability density is exp(tr(X X)) = exp(-1/2 sum x^2):
// the momenta of hybrid Monte Carlo and the noise of a Langevin step.
inline Matrix<double> gaussian_algebra_element(SiteRandomStream& random) {
  double x[8];
  for (double& component : x) component = random.gaussian();
  const double inverse_sqrt3 = 0.57735026918962576451;
  // H = sum_a x^a lambda^a / 2 (hermitian); X = i H.
  Matrix<double> h;
  h(0, 0) = ComplexD(0.5 * (x[2] + x[7] * inverse_sqrt3), 0.0);
  h(1, 1) = ComplexD(0.5 * (-x[2] + x[7] * inverse_sqrt3), 0.0);
  h(2, 2) = ComplexD(-x[7] * inverse_sqrt3, 0.0);
  h(0, 1) = ComplexD(0.5 * x[0], -0.5 * x[1]);
  h(0, 2) = ComplexD(0.5 * x[3], -0.5 * x[4]);
  h(1, 2) = ComplexD(0.5 * x[5], -0.5 * x[6]);
  h(1, 0) = conj(h(0, 1));
  h(2, 0) = conj(h(0, 2));
  h(2, 1) = conj(h(1, 2));
  Matrix<double> p;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) p(i, j) = ComplexD(-h(i, j).im, h(i, j).re);
  return p;
}

// The components x^a = -2 tr(X T^a) = <X, i T^a> of an algebra element.
template <class R> LATTE_INLINE void algebra_components(const Matrix<R>& x, R (&components)[8]) {
  const R sqrt3 = R(1.7320508075688772935);
  components[0] = x(0, 1).im + x(1, 0).im;
  components[1] = x(0, 1).re - x(1, 0).re;
  components[2] = x(0, 0).im - x(1, 1).im;
  components[3] = x(0, 2).im + x(2, 0).im;
  components[4] = x(0, 2).re - x(2, 0).re;
  components[5] = x(1, 2).im + x(2, 1).im;
  components[6] = x(1, 2).re - x(2, 1).re;
  components[7] = (x(0, 0).im + x(1, 1).im - R(2) * x(2, 2).im) / sqrt3;
}

}  // namespace latte::su3
