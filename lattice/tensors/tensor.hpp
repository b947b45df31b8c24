#pragma once
// Small fixed-size site tensors. Every tensor carries an index kind (colour,
// spin, population, ...) so that products know which index they contract:
// a colour matrix times a spinor (spin x colour) contracts colour and maps
// over spin, without the user spelling out the loop. Leaves are reals or
// Complex<real>, with "real" either a scalar or a SIMD vector of reals.

#include <type_traits>
#include <utility>

#include "lattice/tensors/complex.hpp"
#include "platform/build.hpp"

namespace latte {

struct ColourIndex {};
struct SpinIndex {};
struct PopulationIndex {};
struct GenericIndex {};
// The right-hand-side index of a batch of fields solved or multiplied
// together (lattice/tensors/site_types.hpp: Batch, MultiSpinor).
struct RhsIndex {};

template <class E, int N, class Index = GenericIndex>
struct Vec {
  E v[N];
  static constexpr int size = N;
  using element_type = E;
  using index_kind = Index;
  LATTE_INLINE E& operator()(int i) { return v[i]; }
  LATTE_INLINE const E& operator()(int i) const { return v[i]; }
};

template <class E, int N, class Index = GenericIndex>
struct Mat {
  E m[N][N];
  static constexpr int size = N;
  using element_type = E;
  using index_kind = Index;
  LATTE_INLINE E& operator()(int i, int j) { return m[i][j]; }
  LATTE_INLINE const E& operator()(int i, int j) const { return m[i][j]; }
};

// ---- structural traits ---------------------------------------------------
template <class T> struct is_vec : std::false_type {};
template <class E, int N, class I> struct is_vec<Vec<E, N, I>> : std::true_type {};
template <class T> struct is_mat : std::false_type {};
template <class E, int N, class I> struct is_mat<Mat<E, N, I>> : std::true_type {};
template <class T> struct is_complex : std::false_type {};
template <class R> struct is_complex<Complex<R>> : std::true_type {};

template <class T> inline constexpr bool is_tensor_v = is_vec<T>::value || is_mat<T>::value;
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;
// A leaf real: float, double, or a SIMD vector of them. Backends declare
// their vector types by specialising is_simd_leaf.
template <class T> struct is_simd_leaf : std::false_type {};
template <class T> concept RealLeaf = std::is_arithmetic_v<T> || is_simd_leaf<T>::value;

// rebind_t<T, V>: the same tensor shape with its real leaves replaced by V.
// This is how one site type describes both the per-lane value (double) and
// the vector value (a SIMD batch of doubles) of the same field.
template <class T, class V> struct rebind { using type = V; };
template <class R, class V> struct rebind<Complex<R>, V> { using type = Complex<V>; };
template <class E, int N, class I, class V> struct rebind<Vec<E, N, I>, V> {
  using type = Vec<typename rebind<E, V>::type, N, I>;
};
template <class E, int N, class I, class V> struct rebind<Mat<E, N, I>, V> {
  using type = Mat<typename rebind<E, V>::type, N, I>;
};
template <class T, class V> using rebind_t = typename rebind<T, V>::type;

// real_of_t<T>: the real leaf type of a tensor.
template <class T> struct real_of { using type = T; };
template <class R> struct real_of<Complex<R>> { using type = R; };
template <class E, int N, class I> struct real_of<Vec<E, N, I>> { using type = typename real_of<E>::type; };
template <class E, int N, class I> struct real_of<Mat<E, N, I>> { using type = typename real_of<E>::type; };
template <class T> using real_of_t = typename real_of<T>::type;

// words_v<T>: how many reals one site of T holds (per lane).
template <class T> struct words { static constexpr int value = 1; };
template <class R> struct words<Complex<R>> { static constexpr int value = 2; };
template <class E, int N, class I> struct words<Vec<E, N, I>> { static constexpr int value = N * words<E>::value; };
template <class E, int N, class I> struct words<Mat<E, N, I>> { static constexpr int value = N * N * words<E>::value; };
template <class T> inline constexpr int words_v = words<T>::value;

// for_each_leaf(f, t...): apply f to corresponding real leaves of tensors of
// the same shape, in memory order. Used for lane permutes, selects, loads and
// conversions, so that none of them repeats the tensor recursion.
LATTE_CALLS_HOST_OR_DEVICE
template <class F, class T, class... Ts>
LATTE_INLINE void for_each_leaf(F&& f, T&& t, Ts&&... ts);

// Vectors of up to this many reals are walked without a loop: GCC keeps a
// 19-element loop of non-temporal stores rolled, which made a D3Q19 site's
// store go through a stack copy (6 instructions per population instead of
// 1). Larger tensors (a batch of spinors) keep the loop, for code size.
inline constexpr int unrolled_leaf_words = 64;

LATTE_CALLS_HOST_OR_DEVICE
template <std::size_t I, class F, class T, class... Ts>
LATTE_INLINE void for_each_leaf_of_element(F& f, T&& t, Ts&&... ts) {
  for_each_leaf(f, t.v[I], ts.v[I]...);
}

LATTE_CALLS_HOST_OR_DEVICE
template <class F, std::size_t... I, class T, class... Ts>
LATTE_INLINE void for_each_element_leaf(std::index_sequence<I...>, F& f, T&& t, Ts&&... ts) {
  (for_each_leaf_of_element<I>(f, t, ts...), ...);
}

LATTE_CALLS_HOST_OR_DEVICE
template <class F, class T, class... Ts>
LATTE_INLINE void for_each_leaf(F&& f, T&& t, Ts&&... ts) {
  using U = std::remove_cvref_t<T>;
  if constexpr (is_complex_v<U>) {
    f(t.re, ts.re...);
    f(t.im, ts.im...);
  } else if constexpr (is_vec<U>::value) {
    if constexpr (words<U>::value <= unrolled_leaf_words)
      for_each_element_leaf(std::make_index_sequence<U::size>{}, f, t, ts...);
    else
      for (int i = 0; i < U::size; ++i) for_each_leaf(f, t.v[i], ts.v[i]...);
  } else if constexpr (is_mat<U>::value) {
    for (int i = 0; i < U::size; ++i)
      for (int j = 0; j < U::size; ++j) for_each_leaf(f, t.m[i][j], ts.m[i][j]...);
  } else {
    f(t, ts...);
  }
}

// transform_leaves<Out>(f, t...): build an Out whose leaves are f(leaves of t...).
LATTE_CALLS_HOST_OR_DEVICE
template <class Out, class F, class T, class... Ts>
LATTE_INLINE Out transform_leaves(F&& f, const T& t, const Ts&... ts) {
  Out out;
  for_each_leaf([&](auto& o, const auto&... in) LATTE_LAMBDA { o = f(in...); }, out, t, ts...);
  return out;
}

}  // namespace latte
