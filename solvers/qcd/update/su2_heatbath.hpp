#pragma once
// The SU(2) steps of the Cabibbo-Marinari updates, at one site and for
// every leaf type (a plain real per lane on simt and cuda, an xsimd vector
// on the cpu backend): a heatbath draw of an SU(2) element from the density
//   dP(x) ∝ exp(alpha x0) dmu_Haar(x),   x = x0 + i x.sigma, |x| = 1,
// and the SU(2) reflection of overrelaxation, each applied to one SU(2)
// subgroup of a link (lattice/tensors/su3_algebra.hpp: quaternions, subgroups).
//
// Why alpha = (2/3) beta k: the Wilson action gives a link U with staple
// sum Sigma the weight exp((beta/3) Re tr(U Sigma^+)). Moving U -> g U with
// g in subgroup (p, q), Re tr(g W), W = U Sigma^+, changes only through the
// (p, q) block of W, and only through its SU(2)-proportional part
// a = k V (k = |a|, V in SU(2)): the rest of the block, i c0 + c.sigma with
// real c, has Re tr(g (i c0 + c.sigma)) = 0. With Re tr_2 of a quaternion
// twice its a0, Re tr(g W) = const + 2 k (g V)_0, so x = g V is drawn from
// exp((2 beta k / 3) x0) times the Haar measure and g = x V^+.
//
// The Haar measure in x0 is sqrt(1 - x0^2) dx0 with the direction of
// (x1, x2, x3) uniform on the sphere. Two exact rejection samplers of x0:
// - Creutz (Phys. Rev. D 21 (1980) 2308): propose x0 ∝ exp(alpha x0) on
//   [-1, 1] by inverting its distribution, accept with sqrt(1 - x0^2);
//   acceptance pi/4 at alpha -> 0, falling as alpha^(-1/2).
// - Kennedy-Pendleton (Phys. Lett. B 156 (1985) 393): propose
//   delta = -(log r1 + cos^2(2 pi r3) log r2) / alpha (density
//   ∝ sqrt(delta) exp(-alpha delta)), accept with sqrt(1 - delta/2),
//   x0 = 1 - delta; acceptance -> 1 as alpha grows but only 0.52 at
//   alpha = 1 and 0.15 at alpha = 0.3.
// Each lane uses Creutz below alpha = 2 and Kennedy-Pendleton above, where
// their acceptances cross (about 0.69 and 0.76 at alpha = 2, measured): the
// choice depends on alpha alone, and both draw from the same density, so
// the mixture is exact. The worst acceptance is about 0.69.
//
// The rejection loop runs lane by lane as su3::project_onto_su3 does: each
// lane stops at its first accepted trial and keeps that value, reading
// trial t's numbers from fixed positions of its own uniforms, so a site's
// result does not depend on the sites that share its vector. At most
// heatbath_trials trials; a lane whose trials are all rejected keeps its
// old SU(2) element (g = 1). That is still an exact Markov step: with r the
// rejection probability of one trial (a function of alpha, so of the
// staple, which the update does not change),
//   T(a -> b) = (1 - r^K) pi(b) + r^K delta(a, b),
// and pi(a) T(a -> b) = pi(b) T(b -> a): detailed balance with pi. With
// K = 6 and r <= 0.31 at most one draw in 1000 stays put.

#include <type_traits>

#include "lattice/tensors/su3_algebra.hpp"
#include "platform/build.hpp"

namespace latte::quenched {

using su3::Matrix;
using su3::Quaternion;

inline constexpr int heatbath_trials = 6;
// Uniform numbers one SU(2) draw reads: two for the direction, then four
// per trial (Creutz reads the first and the last of them).
inline constexpr int uniforms_per_draw = 2 + 4 * heatbath_trials;
// Below this alpha each lane draws by Creutz's method, above by Kennedy-Pendleton's.
inline constexpr double creutz_below_alpha = 2.0;

// The quaternion product (a0 + i a.sigma)(b0 + i b.sigma)
//   = a0 b0 - a.b + i (a0 b + b0 a - a x b).sigma.
template <class R> LATTE_INLINE Quaternion<R> times(const Quaternion<R>& a, const Quaternion<R>& b) {
  return {a.a0 * b.a0 - a.a1 * b.a1 - a.a2 * b.a2 - a.a3 * b.a3,
          a.a0 * b.a1 + b.a0 * a.a1 - (a.a2 * b.a3 - a.a3 * b.a2),
          a.a0 * b.a2 + b.a0 * a.a2 - (a.a3 * b.a1 - a.a1 * b.a3),
          a.a0 * b.a3 + b.a0 * a.a3 - (a.a1 * b.a2 - a.a2 * b.a1)};
}

template <class R> using LaneMask = decltype(std::declval<R>() < std::declval<R>());

// One heatbath draw: x and whether one of its trials was accepted (in each lane).
template <class R> struct Su2Draw {
  Quaternion<R> x;
  LaneMask<R> accepted;
};

// x from exp(alpha x0) dmu_Haar(x), alpha >= 0, reading uniforms[first],
// ..., uniforms[first + uniforms_per_draw - 1], each in [0, 1).
template <class R, class Uniforms>
LATTE_INLINE Su2Draw<R> draw_su2(const R& alpha, const Uniforms& uniforms, int first) {
  using std::cos;
  using std::exp;
  using std::log;
  using std::sin;
  using std::sqrt;
  using su3::detail::choose;
  const R two_pi = R(6.283185307179586476925);
  // Below this alpha, exp(alpha x0) is 1 to within it and Creutz's inversion
  // loses its digits: x0 is proposed uniform in [-1, 1] (the alpha -> 0 limit).
  const R flat_below = R(su3::detail::single_precision_leaf<R> ? 1e-4 : 1e-8);
  const auto creutz = alpha < R(creutz_below_alpha);
  const auto flat = alpha < flat_below;
  // Each method's alpha kept in its own range, so the lanes of the other
  // method compute finite numbers that are then discarded.
  const R alpha_creutz = choose(flat, R(1), choose(creutz, alpha, R(creutz_below_alpha)));
  const R alpha_kp = choose(creutz, R(creutz_below_alpha), alpha);
  const R floor_creutz = exp(R(-2) * alpha_creutz);  // exp(alpha (x0 - 1)) at x0 = -1
  const R span_creutz = R(1) - floor_creutz;
  const R inverse_alpha_creutz = R(1) / alpha_creutz;
  const R inverse_alpha_kp = R(1) / alpha_kp;

  R x0 = R(1);
  auto done = R(1) < R(0);  // false in every lane
  for (int trial = 0; trial < heatbath_trials; ++trial) {
    const int at = first + 2 + 4 * trial;
    const R r1 = R(1) - uniforms(at), r2 = R(1) - uniforms(at + 1);  // (0, 1]: finite logarithms
    const R r3 = uniforms(at + 2), r4 = uniforms(at + 3);
    // Creutz: exp(alpha x0) = exp(-alpha) + r1 (exp(alpha) - exp(-alpha)).
    const R x0_creutz = choose(flat, R(2) * r1 - R(1), R(1) + log(floor_creutz + r1 * span_creutz) * inverse_alpha_creutz);
    // Kennedy-Pendleton.
    const R c = cos(two_pi * r3);
    const R delta = negated(log(r1) + c * c * log(r2)) * inverse_alpha_kp;
    // Accept when r4 <= sqrt(1 - x0^2) (Creutz) or r4 <= sqrt(1 - delta/2) (KP), compared squared.
    const R margin = choose(creutz, R(1) - x0_creutz * x0_creutz, R(1) - R(0.5) * delta) - r4 * r4;
    x0 = choose(done, x0, choose(creutz, x0_creutz, R(1) - delta));
    done = su3::detail::either(done, margin >= R(0));
    if (su3::detail::every_lane(done)) break;
  }
  // The direction uniform on the sphere: cos(theta) uniform in [-1, 1].
  const R cos_theta = R(2) * uniforms(first) - R(1);
  const R phi = two_pi * uniforms(first + 1);
  const R sin_theta_squared = R(1) - cos_theta * cos_theta;
  const R sin_theta = sqrt(choose(sin_theta_squared > R(0), sin_theta_squared, R(0)));
  const R length_squared = R(1) - x0 * x0;  // rejected lanes may hold |x0| > 1: kept finite
  const R length = sqrt(choose(length_squared > R(0), length_squared, R(0)));
  return {{x0, length * sin_theta * cos(phi), length * sin_theta * sin(phi), length * cos_theta}, done};
}

// a / |a| conjugated: V^+ for the SU(2) part a = k V of a block, the unit
// quaternion where a vanishes (there every direction is as good).
template <class R> LATTE_INLINE Quaternion<R> conjugate_direction(const Quaternion<R>& a, R& length) {
  using std::sqrt;
  using su3::detail::choose;
  const R norm = a.a0 * a.a0 + a.a1 * a.a1 + a.a2 * a.a2 + a.a3 * a.a3;
  const auto positive = norm > R(0);
  length = sqrt(norm);
  const R inverse = R(1) / choose(positive, length, R(1));
  return {choose(positive, a.a0 * inverse, R(1)), negated(a.a1) * inverse, negated(a.a2) * inverse,
          negated(a.a3) * inverse};
}

// The heatbath element g of subgroup k for W = U Sigma^+: g U is drawn
// from exp((beta/3) Re tr(g U Sigma^+)) over the subgroup, or g = 1 where
// every trial was rejected. two_thirds_beta = 2 beta / 3.
template <class R, class Uniforms>
LATTE_INLINE Quaternion<R> heatbath_element(const Matrix<R>& w, int k, const R& two_thirds_beta,
                                            const Uniforms& uniforms, int first) {
  using su3::detail::choose;
  R length;
  const Quaternion<R> v_dagger = conjugate_direction(su3::su2_part(w, k), length);
  const Su2Draw<R> draw = draw_su2(two_thirds_beta * length, uniforms, first);
  const Quaternion<R> g = times(draw.x, v_dagger);
  return {choose(draw.accepted, g.a0, R(1)), choose(draw.accepted, g.a1, R(0)),
          choose(draw.accepted, g.a2, R(0)), choose(draw.accepted, g.a3, R(0))};
}

// The overrelaxation element g = (V^+)^2 of subgroup k for W = U Sigma^+:
// g V = V^+ reflects the SU(2) part of the link through the direction that
// maximises the action's weight, so Re tr(g W) = Re tr(W): the action does
// not change, and with the staple fixed the reflection undoes itself
// (V' = V^+, so the next g is V^2). g = 1 where the block's SU(2) part
// vanishes.
template <class R> LATTE_INLINE Quaternion<R> overrelaxation_element(const Matrix<R>& w, int k) {
  R length;
  const Quaternion<R> v_dagger = conjugate_direction(su3::su2_part(w, k), length);
  return times(v_dagger, v_dagger);
}

}  // namespace latte::quenched
