#pragma once
// The physicist's name of a site value's type: kind_t<Spinor<double>> is
// latte::kind::spinor, kind_t<Populations<float, 9>> is
// latte::kind::populations<9>. A refused operation names the kinds of its
// operands in its diagnostic (dsl/expr/site_algebra_check.hpp), so that the
// compiler prints "latte::kind::spinor" where the type itself would be
// latte::Vec<latte::Vec<latte::Complex<double>, 3, latte::ColourIndex>, 4,
// latte::SpinIndex>. The precision is left out: it is never the reason the
// site algebra refuses an operation.

#include <type_traits>

#include "lattice/tensors/site_types.hpp"

namespace latte {

namespace kind {
struct real {};
struct integer {};
// The per-lane value of a comparison (a < b), a mask for where().
struct mask {};
struct complex {};
struct colour_vector {};
struct colour_matrix {};
struct spinor {};
struct half_spinor {};
struct spin_matrix {};
template <int Q> struct populations {};
template <int N> struct real_vector {};
template <class ElementKind, int N> struct batch {};
// Tensors without a name of their own: the kind of their elements, their
// size and their index kind (ColourIndex, SpinIndex, ...).
template <class ElementKind, int N, class Index> struct vector {};
template <class ElementKind, int N, class Index> struct matrix {};
// Anything else, named by its type.
template <class T> struct other {};
}  // namespace kind

template <class T> struct site_kind { using type = kind::other<T>; };
template <class T> using kind_t = typename site_kind<T>::type;

template <RealLeaf R> struct site_kind<R> {
  using type = std::conditional_t<std::is_same_v<R, bool>, kind::mask,
                                  std::conditional_t<std::is_integral_v<R>, kind::integer, kind::real>>;
};
template <class R> struct site_kind<Complex<R>> { using type = kind::complex; };

// Vectors and matrices in general; the named ones below are more specialised.
template <class E, int N, class I> struct site_kind<Vec<E, N, I>> { using type = kind::vector<kind_t<E>, N, I>; };
template <class E, int N, class I> struct site_kind<Mat<E, N, I>> { using type = kind::matrix<kind_t<E>, N, I>; };
template <class E, int N> struct site_kind<Vec<E, N, RhsIndex>> { using type = kind::batch<kind_t<E>, N>; };

template <class R> struct site_kind<Vec<Complex<R>, colours, ColourIndex>> { using type = kind::colour_vector; };
template <class R> struct site_kind<Mat<Complex<R>, colours, ColourIndex>> { using type = kind::colour_matrix; };
template <class R> struct site_kind<Vec<Vec<Complex<R>, colours, ColourIndex>, spins, SpinIndex>> {
  using type = kind::spinor;
};
template <class R> struct site_kind<Vec<Vec<Complex<R>, colours, ColourIndex>, 2, SpinIndex>> {
  using type = kind::half_spinor;
};
template <class R> struct site_kind<Mat<Complex<R>, spins, SpinIndex>> { using type = kind::spin_matrix; };
template <RealLeaf R, int Q> struct site_kind<Vec<R, Q, PopulationIndex>> { using type = kind::populations<Q>; };
template <RealLeaf R, int N> struct site_kind<Vec<R, N, GenericIndex>> { using type = kind::real_vector<N>; };

}  // namespace latte
