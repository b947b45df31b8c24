#pragma once
// Site-level moments and the equilibrium, for any leaf type V (a real on the
// per-lane path, a SIMD vector on the vector path). Velocity sets are
// compile-time tables, so every sum over i below unrolls into additions of
// exactly the populations that contribute (no multiplications by c = 0, +-1).
//
// Equilibrium to second order in u (c_s^2 = 1/3, velocity_sets.hpp):
//   f_i^eq = w_i rho (1 + 3 c_i.u + 9/2 (c_i.u)^2 - 3/2 u.u)
// whose moments are sum f^eq = rho, sum c f^eq = rho u and
// sum c c f^eq = rho (c_s^2 I + u u).

#include <cstddef>
#include <utility>

#include "lattice/tensors/site_types.hpp"
#include "solvers/lbm/collision/velocity_sets.hpp"

namespace latte::lbm {

// body(std::integral_constant<int, I>{}) for I = 0..N-1, unrolled.
template <int N, class Body>
LATTE_INLINE void static_for(Body&& body) {
  [&]<std::size_t... I>(std::index_sequence<I...>) LATTE_LAMBDA {
    (body(std::integral_constant<int, static_cast<int>(I)>{}), ...);
  }(std::make_index_sequence<N>{});
}

// The first d with c_id != 0 (d for the rest velocity).
template <class VS, int I>
constexpr int first_nonzero_component() {
  for (int d = 0; d < VS::d; ++d)
    if (VS::c[I][d] != 0) return d;
  return VS::d;
}

// sum_d c_id a_d with the compile-time c_i: only additions and subtractions,
// starting from the first non-zero term (0 + x is not folded: it is not x
// when x = -0, so a sum started from zero would cost an addition).
template <class VS, int I, class V, class A>
LATTE_INLINE V dot_c(const A& a) {
  constexpr int first = first_nonzero_component<VS, I>();
  if constexpr (first == VS::d) {
    return V(0.0);
  } else {
    V sum = VS::c[I][first] == 1 ? V(a[first]) : negated(V(a[first]));
    static_for<VS::d>([&](auto d) LATTE_LAMBDA {
      constexpr int cd = VS::c[I][d];
      if constexpr (d > first && cd == 1) sum = sum + a[d];
      else if constexpr (d > first && cd == -1) sum = sum - a[d];
    });
    return sum;
  }
}

template <class V, int D>
struct Moments {
  V rho;
  V j[D];  // momentum density sum_i c_i f_i
};

template <class VS, class V>
LATTE_INLINE Moments<V, VS::d> moments(const Populations<V, VS::q>& f) {
  Moments<V, VS::d> m;
  m.rho = f.v[0];
  for (int d = 0; d < VS::d; ++d) m.j[d] = V(0.0);
  static_for<VS::q - 1>([&](auto k) LATTE_LAMBDA {
    constexpr int i = k + 1;
    m.rho = m.rho + f.v[i];
    static_for<VS::d>([&](auto d) LATTE_LAMBDA {
      if constexpr (VS::c[i][d] == 1) m.j[d] = m.j[d] + f.v[i];
      else if constexpr (VS::c[i][d] == -1) m.j[d] = m.j[d] - f.v[i];
    });
  });
  return m;
}

// The even and odd parts of f_i^eq in c_i: f_i^eq = even_i + odd_i and
// f_opp(i)^eq = even_i - odd_i. TRT relaxes them separately.
template <class VS, int I, class V>
LATTE_INLINE void equilibrium_parts(const V& rho, const V* u, const V& base, V& even, V& odd) {
  const V cu = dot_c<VS, I, V>(u);
  const V wr = V(VS::w[I]) * rho;
  even = wr * (base + V(4.5) * cu * cu);
  odd = wr * (V(3.0) * cu);
}

// f^eq(rho, u); base = 1 - 3/2 u.u is shared by all i.
template <class VS, class V>
LATTE_INLINE V equilibrium_base(const V* u) {
  V usq = u[0] * u[0];
  for (int d = 1; d < VS::d; ++d) usq = usq + u[d] * u[d];
  return V(1.0) - V(1.5) * usq;
}

template <class VS, class V>
LATTE_INLINE Populations<V, VS::q> equilibrium(const V& rho, const V* u) {
  Populations<V, VS::q> feq;
  const V base = equilibrium_base<VS>(u);
  static_for<VS::q>([&](auto i) LATTE_LAMBDA {
    V even, odd;
    equilibrium_parts<VS, i>(rho, u, base, even, odd);
    feq.v[i] = even + odd;
  });
  return feq;
}

}  // namespace latte::lbm
