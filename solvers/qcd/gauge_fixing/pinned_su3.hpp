#pragma once
// The SU(3) arithmetic of gauge fixing with every rounding fixed in the
// code, so that its bits do not depend on the SIMD width or the backend.
//
// The cpu build lets the compiler contract a * b + c into fused
// multiply-adds, and it decides per inlined copy, differently for vectors
// and for plain reals (GCC may fuse either product of a.re b.re -
// a.im b.im): the library's matrix product, reunitarisation and Ta agree
// across widths to rounding only (docs/reproducibility.md). Here every
// multiply-add is written as fused_multiply_add (lattice/tensors/complex.hpp:
// one FMA instruction, its addend hidden from the optimiser, so nothing is
// contracted around it), every other operation is a lone + - * / sqrt,
// which is IEEE-exact, and no product is added or subtracted outside a
// fused_multiply_add (where one would be, the sum is rewritten so that the
// product is a factor: b0 = omega h0 + (1 - omega) in overrelaxation_step.hpp). A vector lane, a plain real on the scalar layout, a
// lane of the simt backend and a CUDA thread (fma, --fmad=false) compute
// the same bits.

#include "lattice/tensors/su3_algebra.hpp"

namespace latte::gauge_fixing {

using su3::Matrix;
using su3::Quaternion;

// a b, acc + a b and acc + a conj(b) for complex numbers.
template <class R> LATTE_INLINE Complex<R> complex_product(const Complex<R>& a, const Complex<R>& b) {
  return {fused_multiply_add(a.re, b.re, negated(a.im * b.im)), fused_multiply_add(a.re, b.im, a.im * b.re)};
}
template <class R> LATTE_INLINE Complex<R> add_product(const Complex<R>& acc, const Complex<R>& a, const Complex<R>& b) {
  return {fused_multiply_add(a.re, b.re, fused_multiply_add(negated(a.im), b.im, acc.re)),
          fused_multiply_add(a.re, b.im, fused_multiply_add(a.im, b.re, acc.im))};
}
template <class R>
LATTE_INLINE Complex<R> add_product_conj(const Complex<R>& acc, const Complex<R>& a, const Complex<R>& b) {
  return {fused_multiply_add(a.re, b.re, fused_multiply_add(a.im, b.im, acc.re)),
          fused_multiply_add(a.im, b.re, fused_multiply_add(negated(a.re), b.im, acc.im))};
}

// a b and a b^+ of matrices.
template <class R> LATTE_INLINE Matrix<R> matrix_times(const Matrix<R>& a, const Matrix<R>& b) {
  Matrix<R> r;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) {
      Complex<R> s = complex_product(a(i, 0), b(0, j));
      for (int k = 1; k < colours; ++k) s = add_product(s, a(i, k), b(k, j));
      r(i, j) = s;
    }
  return r;
}
template <class R> LATTE_INLINE Matrix<R> matrix_times_adjoint(const Matrix<R>& a, const Matrix<R>& b) {
  Matrix<R> r;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) {
      Complex<R> s = complex_product(a(i, 0), conj(b(j, 0)));
      for (int k = 1; k < colours; ++k) s = add_product_conj(s, a(i, k), b(j, k));
      r(i, j) = s;
    }
  return r;
}

// |a|^2 of a quaternion.
template <class R> LATTE_INLINE R quaternion_norm2(const Quaternion<R>& a) {
  return fused_multiply_add(a.a3, a.a3, fused_multiply_add(a.a2, a.a2, fused_multiply_add(a.a1, a.a1, a.a0 * a.a0)));
}

// h M for h in SU(2) subgroup k (su3::su2_multiply, rounded as above).
template <class R> LATTE_INLINE Matrix<R> su2_times(const Quaternion<R>& h, int k, const Matrix<R>& m) {
  const int p = su3::su2_row(k), q = su3::su2_column(k);
  const Complex<R> hpp(h.a0, h.a3), hpq(h.a2, h.a1), hqp(negated(h.a2), h.a1), hqq(h.a0, negated(h.a3));
  Matrix<R> r = m;
  for (int j = 0; j < colours; ++j) {
    r(p, j) = add_product(complex_product(hpp, m(p, j)), hpq, m(q, j));
    r(q, j) = add_product(complex_product(hqp, m(p, j)), hqq, m(q, j));
  }
  return r;
}

// su3::reunitarise (Gram-Schmidt on the rows, the third their conjugated
// cross product), rounded as above.
template <class R> LATTE_INLINE Matrix<R> reunitarised(const Matrix<R>& m) {
  using std::sqrt;
  Matrix<R> u = m;
  auto normalise = [&](int row) LATTE_LAMBDA {
    R n = u(row, 0).re * u(row, 0).re;
    n = fused_multiply_add(u(row, 0).im, u(row, 0).im, n);
    for (int j = 1; j < colours; ++j)
      n = fused_multiply_add(u(row, j).im, u(row, j).im, fused_multiply_add(u(row, j).re, u(row, j).re, n));
    const R scale = R(1) / sqrt(n);
    for (int j = 0; j < colours; ++j) u(row, j) = Complex<R>(u(row, j).re * scale, u(row, j).im * scale);
  };
  normalise(0);
  Complex<R> overlap = complex_product(u(1, 0), conj(u(0, 0)));  // sum_j conj(u0j) u1j
  for (int j = 1; j < colours; ++j) overlap = add_product_conj(overlap, u(1, j), u(0, j));
  const Complex<R> minus_overlap(negated(overlap.re), negated(overlap.im));
  for (int j = 0; j < colours; ++j) u(1, j) = add_product(u(1, j), minus_overlap, u(0, j));
  normalise(1);
  for (int j = 0; j < colours; ++j) {
    const int a = (j + 1) % colours, b = (j + 2) % colours;
    const Complex<R> minus_u0b(negated(u(0, b).re), negated(u(0, b).im));
    u(2, j) = conj(add_product(complex_product(u(0, a), u(1, b)), minus_u0b, u(1, a)));
  }
  return u;
}

// tr[Delta Delta^+] with Delta = Ta(K) (su3::traceless_antihermitian):
// theta's density at a site.
template <class R> LATTE_INLINE R gradient_density(const Matrix<R>& k) {
  Matrix<R> a;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j)
      a(i, j) = Complex<R>(R(0.5) * (k(i, j).re - k(j, i).re), R(0.5) * (k(i, j).im + k(j, i).im));
  // the diagonal from K itself (0.5 (k + k) = k): a sum of products would be fused freely
  const R trace = k(0, 0).im + k(1, 1).im + k(2, 2).im;
  for (int i = 0; i < colours; ++i) a(i, i) = Complex<R>(R(0), fused_multiply_add(trace, R(-1.0 / 3.0), k(i, i).im));
  R n = a(0, 0).re * a(0, 0).re;
  n = fused_multiply_add(a(0, 0).im, a(0, 0).im, n);
  for (int i = 0; i < colours; ++i)
    for (int j = i == 0 ? 1 : 0; j < colours; ++j)
      n = fused_multiply_add(a(i, j).im, a(i, j).im, fused_multiply_add(a(i, j).re, a(i, j).re, n));
  return n;
}

}  // namespace latte::gauge_fixing
