#pragma once
// The site step of gauge fixing by overrelaxation (J. E. Mandula and
// M. Ogilvie, Phys. Lett. B 248 (1990) 156), at one site and for every
// leaf type.
//
// With the links of the current iterate and the transformation 1 on every
// other site, the gauge functional depends on g = g(x) only through
//   sum_mu Re tr[g U_mu(x)] + Re tr[U_mu(x - mu) g^+] = Re tr(g K(x)),
//   K(x) = sum_mu [U_mu(x) + U_mu(x - mu)^+]
// (Re tr A^+ = Re tr A), the sum over the directions of the condition.
// As in the Cabibbo-Marinari updates (solvers/qcd/update/cabibbo_marinari.hpp),
// the maximum is approached subgroup by subgroup: in SU(2) subgroup s only
// the SU(2)-proportional part k V of the block of K counts, and Re tr(h K)
// is largest at h = V^+ (best_element); K is carried along as K -> h K.
//
// Overrelaxation moves each site omega times as far, omega in [1, 2):
// h^omega by its first order 1 + omega (h - 1) normalised back to SU(2)
// (Mandula-Ogilvie), a point on the great circle through 1 and h at an
// angle between h's and twice h's (so Re tr(h^omega w) >= Re tr(w)). Near
// the maximum a sweep is then red-black successive overrelaxation of the
// lattice Laplacian, whose slowest mode shrinks by omega - 1 per sweep at
// the optimal omega instead of by rho^2 (gauge_fixing.hpp:
// automatic_omega).
//
// Which elements are raised to omega matters. Raising each subgroup's h
// to omega before the next subgroup looks at K (the textbook loop) lets
// the three overlapping subgroups relax one diagonal (Cartan) direction of
// the algebra by less than the plain maximum does (to first order by a
// factor 0.79 at omega = 1.5 and 0.21 at 1.9, where the plain maximum's is
// 1): measured on smooth 8^4 and 12^3 x 2 fields, omega > 1.3 then needed
// more sweeps than omega = 1, the more the closer to 2. Here the h are the plain maxima, two passes over the
// subgroups (one pass leaves 1/8 of the diagonal direction, two 1/64), and
// g is the product of their powers h_5^omega ... h_0^omega: to first order
// omega times the local maximum, as successive overrelaxation needs (16^4,
// Landau to theta 1e-12: 224 sweeps at omega = 1, 40 at 1.7). Far from the
// maximum the first order may mislead, so where g would lower Re tr(g K)
// below Re tr(K) the plain product is taken instead, which never lowers
// it: the functional never decreases.
//
// Every product and multiply-add is rounded as pinned_su3.hpp writes it,
// and the site step uses no library function, so it has the same bits on
// every SIMD width and backend. g is reunitarised: every link is multiplied
// by some g at each sweep and must not drift from SU(3) with it. On the
// sites of a converged timeslice (mask 0) g is exactly 1, and the links
// there keep their values.

#include "solvers/qcd/gauge_fixing/pinned_su3.hpp"

namespace latte {

namespace gauge_fixing {

// V^+ for the SU(2) part a = k V of a block: the h that maximises Re tr(h
// block) (quenched::conjugate_direction, rounded as pinned_su3.hpp); 1
// where a vanishes.
template <class R> LATTE_INLINE Quaternion<R> best_element(const Quaternion<R>& a) {
  using std::sqrt;
  using su3::detail::choose;
  const R norm = quaternion_norm2(a);
  const auto positive = norm > R(0);
  const R inverse = R(1) / choose(positive, sqrt(norm), R(1));
  return {choose(positive, a.a0 * inverse, R(1)), negated(a.a1) * inverse, negated(a.a2) * inverse,
          negated(a.a3) * inverse};
}

// (1 + omega (h - 1)) / |1 + omega (h - 1)| for a unit quaternion h: never
// zero for omega >= 1 (its vector part vanishes only at h = +-1, where its
// real part is 1 or 1 - 2 omega).
template <class R> LATTE_INLINE Quaternion<R> overrelaxed(const Quaternion<R>& h, const R& omega) {
  using std::sqrt;
  // h0 only as a factor: h0 is a product (best_element), and h0 - 1 would
  // let the compiler fuse it differently in vector and scalar code.
  const Quaternion<R> b{fused_multiply_add(omega, h.a0, R(1) - omega), omega * h.a1, omega * h.a2, omega * h.a3};
  const R inverse = R(1) / sqrt(quaternion_norm2(b));
  return {b.a0 * inverse, b.a1 * inverse, b.a2 * inverse, b.a3 * inverse};
}

// Re tr(g K).
template <class R> LATTE_INLINE R real_trace_of_product(const Matrix<R>& g, const Matrix<R>& k) {
  R t = g(0, 0).re * k(0, 0).re;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) {
      if (i == 0 && j == 0) {
        t = fused_multiply_add(negated(g(0, 0).im), k(0, 0).im, t);
        continue;
      }
      t = fused_multiply_add(negated(g(i, j).im), k(j, i).im, fused_multiply_add(g(i, j).re, k(j, i).re, t));
    }
  return t;
}

// The overrelaxed transformation at a site with neighbour sum K (above):
// the plain maxima h_0 ... h_5 of two passes over the subgroups, each for
// K moved by the ones before, and g = h_5^omega ... h_0^omega, or the
// plain product where g would lower Re tr(g K) below Re tr(K).
template <class R> LATTE_INLINE Matrix<R> overrelaxation_transformation(const Matrix<R>& k, const R& omega) {
  Matrix<R> w = k, plain = su3::identity<R>(), over = su3::identity<R>();
  for (int step = 0; step < 2 * su3::su2_subgroups; ++step) {
    const int s = step % su3::su2_subgroups;
    const Quaternion<R> h = best_element(su3::su2_part(w, s));
    w = su2_times(h, s, w);
    plain = su2_times(h, s, plain);
    over = su2_times(overrelaxed(h, omega), s, over);
  }
  const auto keep = real_trace_of_product(over, k) >= real_trace_of_product(su3::identity<R>(), k);
  Matrix<R> g;
  for (int i = 0; i < colours; ++i)
    for (int j = 0; j < colours; ++j) g(i, j) = su3::detail::choose(keep, over(i, j), plain(i, j));
  return reunitarised(g);
}

}  // namespace gauge_fixing

namespace functors {

// g(x) from K(x).
struct GaugeFixingOverrelaxation {
  static constexpr const char* name = "gauge_fixing_overrelaxation";
  double omega = 1.5;
  template <class R> LATTE_INLINE su3::Matrix<R> operator()(const su3::Matrix<R>& k) const {
    return gauge_fixing::overrelaxation_transformation(k, R(omega));
  }
};

// The same where active > 0, exactly 1 elsewhere (a converged timeslice).
struct MaskedGaugeFixingOverrelaxation {
  static constexpr const char* name = "masked_gauge_fixing_overrelaxation";
  double omega = 1.5;
  template <class R> LATTE_INLINE su3::Matrix<R> operator()(const su3::Matrix<R>& k, const R& active) const {
    const su3::Matrix<R> g = gauge_fixing::overrelaxation_transformation(k, R(omega));
    const su3::Matrix<R> one = su3::identity<R>();
    const auto moving = active > R(0);
    su3::Matrix<R> out;
    for (int i = 0; i < colours; ++i)
      for (int j = 0; j < colours; ++j) out(i, j) = su3::detail::choose(moving, g(i, j), one(i, j));
    return out;
  }
};

// The links of a half-sweep: g U on the sites of g's parity, U g(x + mu)^+
// on the others (rounded as pinned_su3.hpp writes it).
struct TransformFromLeft {
  static constexpr const char* name = "transform_from_left";
  template <class R> LATTE_INLINE su3::Matrix<R> operator()(const su3::Matrix<R>& g, const su3::Matrix<R>& u) const {
    return gauge_fixing::matrix_times(g, u);
  }
};
struct TransformFromRight {
  static constexpr const char* name = "transform_from_right";
  template <class R>
  LATTE_INLINE su3::Matrix<R> operator()(const su3::Matrix<R>& u, const su3::Matrix<R>& g_forward) const {
    return gauge_fixing::matrix_times_adjoint(u, g_forward);
  }
};

}  // namespace functors
}  // namespace latte
