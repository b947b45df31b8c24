#pragma once
// SU(3) algebra as field functions, usable inside any expression on every
// backend (the site code and its conventions: lattice/tensors/su3_algebra.hpp):
//
//   U[mu] = su3_exp(eps * P[mu]) * U[mu];          // move a link along P
//   F = traceless_antihermitian(U[mu] * adj(staple));
//   V = su3_project(V + rho * staple);              // APE smearing
//   U[mu] = su3_reunitarise(U[mu]);                 // remove rounding drift
//
// Each takes an expression of 3x3 colour matrices; any other site kind
// stops the compilation with one line.

#include <utility>

#include "dsl/expr/functions.hpp"
#include "dsl/expr/map.hpp"
#include "lattice/tensors/su3_algebra.hpp"

namespace latte {

template <class T> inline constexpr bool is_colour_matrix_v = false;
template <class E, class I> inline constexpr bool is_colour_matrix_v<Mat<E, colours, I>> =
    std::is_same_v<I, ColourIndex> && is_complex_v<E>;

namespace functors {

#define LATTE_SU3_FUNCTION(Functor, function_name, call)                                              \
  struct Functor {                                                                                     \
    static constexpr const char* name = function_name;                                                 \
    template <class M>                                                                                 \
    LATTE_INLINE M operator()(const M& m) const {                                                      \
      static_assert(is_colour_matrix_v<M>, "Latte: " function_name "(a) takes a field of 3x3 colour matrices"); \
      return call(m);                                                                                  \
    }                                                                                                  \
  };
LATTE_SU3_FUNCTION(Su3Exp, "su3_exp", su3::exp_antihermitian)
LATTE_SU3_FUNCTION(TracelessAntihermitian, "Ta", su3::traceless_antihermitian)
LATTE_SU3_FUNCTION(Su3Reunitarise, "su3_reunitarise", su3::reunitarise)
#undef LATTE_SU3_FUNCTION

struct Su3Project {
  static constexpr const char* name = "su3_project";
  int max_sweeps = 100;
  template <class M>
  LATTE_INLINE M operator()(const M& m) const {
    static_assert(is_colour_matrix_v<M>, "Latte: su3_project(a) takes a field of 3x3 colour matrices");
    return su3::project_onto_su3(m, max_sweeps);
  }
};

}  // namespace functors

// exp(X) of an su(3)-valued expression (traceless anti-hermitian), exact by
// Cayley-Hamilton.
template <FieldArgument A> auto su3_exp(A&& x) { return map<functors::Su3Exp>(std::forward<A>(x)); }
// (M - M^+)/2 minus its trace / 3: the projection onto su(3).
template <FieldArgument A> auto traceless_antihermitian(A&& m) {
  return map<functors::TracelessAntihermitian>(std::forward<A>(m));
}
// Gram-Schmidt back onto SU(3).
template <FieldArgument A> auto su3_reunitarise(A&& m) { return map<functors::Su3Reunitarise>(std::forward<A>(m)); }
// The SU(3) matrix V maximising Re tr(V M^+), by sweeps of SU(2) subgroup
// maximisation until converged (at most max_sweeps).
template <FieldArgument A> auto su3_project(A&& m, int max_sweeps = 100) {
  return map(functors::Su3Project{max_sweeps}, std::forward<A>(m));
}

}  // namespace latte
