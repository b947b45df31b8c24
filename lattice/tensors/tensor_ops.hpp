#pragma once
// Arithmetic on site tensors, written once for every leaf type. Loops have
// compile-time trip counts so the compiler unrolls them completely; products
// start from the first term instead of a zero so no leaf needs a zero value.

#include <cstddef>
#include <utility>

#include "lattice/tensors/tensor.hpp"

namespace latte {

// ---- leaf-level functions for real leaves (Complex has its own) --------------
template <RealLeaf R> LATTE_INLINE R conj(const R& x) { return x; }
template <RealLeaf R> LATTE_INLINE R real(const R& x) { return x; }
template <RealLeaf R> LATTE_INLINE R imag(const R& x) { return x - x; }
template <RealLeaf R> LATTE_INLINE R localNorm2(const R& x) { return x * x; }

// ---- multiply-accumulate: c + a * b, with the complex case fused (complex.hpp) ----
template <class A, class B, class C>
LATTE_INLINE auto multiply_add(const A& a, const B& b, const C& c) { return c + a * b; }
template <class A, class B, class C>
LATTE_INLINE auto conj_multiply_add(const A& a, const B& b, const C& c) { return c + conj(a) * b; }

// ---- elementwise sums and differences ---------------------------------------
// transform_tensor applies f to corresponding top-level elements.
// Vectors are built by aggregate initialisation so that each element is
// constructed in place. Assigning f's result into a default-constructed
// vector made GCC copy every element through the stack: a memcpy call per
// colour vector in the Dslash, about a quarter of its time with AVX2.
namespace detail {
template <class E, int N, class I, class A, class F, std::size_t... K>
LATTE_INLINE Vec<E, N, I> map_elements(const Vec<A, N, I>& a, F& f, std::index_sequence<K...>) {
  return {{f(a.v[K])...}};
}
template <class E, int N, class I, class A, class B, class F, std::size_t... K>
LATTE_INLINE Vec<E, N, I> map_elements(const Vec<A, N, I>& a, const Vec<B, N, I>& b, F& f,
                                       std::index_sequence<K...>) {
  return {{f(a.v[K], b.v[K])...}};
}
}  // namespace detail

template <class A, int N, class I, class F>
LATTE_INLINE auto transform_tensor(const Vec<A, N, I>& a, F f) {
  return detail::map_elements<decltype(f(a.v[0])), N, I>(a, f, std::make_index_sequence<N>{});
}
template <class A, class B, int N, class I, class F>
LATTE_INLINE auto transform_tensor(const Vec<A, N, I>& a, const Vec<B, N, I>& b, F f) {
  return detail::map_elements<decltype(f(a.v[0], b.v[0])), N, I>(a, b, f, std::make_index_sequence<N>{});
}
template <class A, int N, class I, class F>
LATTE_INLINE auto transform_tensor(const Mat<A, N, I>& a, F f) {
  Mat<decltype(f(a.m[0][0])), N, I> out;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) out.m[i][j] = f(a.m[i][j]);
  return out;
}
template <class A, class B, int N, class I, class F>
LATTE_INLINE auto transform_tensor(const Mat<A, N, I>& a, const Mat<B, N, I>& b, F f) {
  Mat<decltype(f(a.m[0][0], b.m[0][0])), N, I> out;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) out.m[i][j] = f(a.m[i][j], b.m[i][j]);
  return out;
}

// Sums and differences are of tensors of one shape (vectors or matrices of
// the same size and index kind) whose elements add: a spinor and a colour
// vector do not, and the constraint says so to whoever asks whether a + b
// is defined (dsl/expr/site_algebra_check.hpp), where the body would fail.
template <class A, class B> inline constexpr bool same_shape_v = false;
template <class E, class F, int N, class I> inline constexpr bool same_shape_v<Vec<E, N, I>, Vec<F, N, I>> = true;
template <class E, class F, int N, class I> inline constexpr bool same_shape_v<Mat<E, N, I>, Mat<F, N, I>> = true;

template <class A, class B>
  requires(same_shape_v<A, B> &&
           requires(const typename A::element_type& x, const typename B::element_type& y) { x + y; })
LATTE_INLINE auto operator+(const A& a, const B& b) {
  return transform_tensor(a, b, [](const auto& x, const auto& y) LATTE_LAMBDA { return x + y; });
}
template <class A, class B>
  requires(same_shape_v<A, B> &&
           requires(const typename A::element_type& x, const typename B::element_type& y) { x - y; })
LATTE_INLINE auto operator-(const A& a, const B& b) {
  return transform_tensor(a, b, [](const auto& x, const auto& y) LATTE_LAMBDA { return x - y; });
}
template <class A> requires is_tensor_v<A>
LATTE_INLINE auto operator-(const A& a) {
  return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return -x; });
}

// ---- scaling by a non-tensor (real or complex leaf) -------------------------------
template <class S, class T> concept ScalesTensor = (RealLeaf<S> || is_complex_v<S>) && is_tensor_v<T>;

template <class S, class T> requires ScalesTensor<S, T>
LATTE_INLINE auto operator*(const S& s, const T& t) {
  return transform_tensor(t, [&](const auto& x) LATTE_LAMBDA { return s * x; });
}
template <class S, class T> requires ScalesTensor<S, T>
LATTE_INLINE auto operator*(const T& t, const S& s) {
  return transform_tensor(t, [&](const auto& x) LATTE_LAMBDA { return x * s; });
}
template <class S, class T> requires ScalesTensor<S, T>
LATTE_INLINE auto operator/(const T& t, const S& s) {
  return transform_tensor(t, [&](const auto& x) LATTE_LAMBDA { return x / s; });
}

// ---- products ------------------------------------------------------------
// True when every element of B is a vector over index kind I whose elements
// are leaves (a spinor's colour vectors, for a colour matrix's I).
template <class I, class B> inline constexpr bool contracts_each_element_v = false;
template <class I, class L, int N> inline constexpr bool contracts_each_element_v<I, Vec<L, N, I>> = !is_tensor_v<L>;

// Whether a matrix (type Matrix) acts on a vector (type Vector) in a * b:
// on the vector's own index (the same index kind and size), on the index of
// each of its elements (a colour matrix on the colour vectors of a spinor),
// or on each of its elements when those are tensors it acts on (a link on
// every spinor of a batch). Never on real or complex elements: a colour
// matrix times lattice-Boltzmann populations would be nine colour matrices
// per site, so it is refused instead.
template <class Matrix, class Vector>
concept MatrixActsOn =
    (std::is_same_v<typename Matrix::index_kind, typename Vector::index_kind> && Matrix::size == Vector::size) ||
    (contracts_each_element_v<typename Matrix::index_kind, typename Vector::element_type> &&
     Vector::element_type::size == Matrix::size) ||
    (is_tensor_v<typename Vector::element_type> &&
     requires(const Matrix& m, const typename Vector::element_type& e) { m * e; });

// Matrix times vector: contract when the index kinds match (U * colour
// vector), otherwise map the matrix over the vector's elements (U * spinor
// acts on the colour index of every spin component).
template <class A, class B, int N, int M, class I, class J>
  requires MatrixActsOn<Mat<A, N, I>, Vec<B, M, J>>
LATTE_INLINE auto operator*(const Mat<A, N, I>& a, const Vec<B, M, J>& b) {
  if constexpr (std::is_same_v<I, J>) {
    using E = decltype(a.m[0][0] * b.v[0]);
    // Accumulated in place in out, for the reason given at transform_tensor.
    Vec<E, N, I> out;
    for (int i = 0; i < N; ++i) {
      out.v[i] = a.m[i][0] * b.v[0];
      for (int k = 1; k < N; ++k) out.v[i] = multiply_add(a.m[i][k], b.v[k], out.v[i]);
    }
    return out;
  } else if constexpr (contracts_each_element_v<I, B>) {
    // A link times every colour vector of a (half) spinor: row by row across
    // the spin components, so that each link element is loaded once and used
    // for all of them while it is in a register. One spin component after
    // the other reloaded all 9 elements; with AVX2's 16 registers GCC kept
    // the first loads in stack slots instead (over a quarter of the Dslash's
    // instructions were spill traffic). Each result element is the same sum
    // in the same order, so the bits do not change.
    using E = decltype(a.m[0][0] * b.v[0].v[0]);
    Vec<Vec<E, N, I>, M, J> out;
    for (int i = 0; i < N; ++i) {
      for (int s = 0; s < M; ++s) out.v[s].v[i] = a.m[i][0] * b.v[s].v[0];
      for (int k = 1; k < N; ++k)
        for (int s = 0; s < M; ++s) out.v[s].v[i] = multiply_add(a.m[i][k], b.v[s].v[k], out.v[s].v[i]);
    }
    return out;
  } else {
    return transform_tensor(b, [&](const auto& x) LATTE_LAMBDA { return a * x; });
  }
}

template <class A, class B, int N, class I>
LATTE_INLINE auto operator*(const Mat<A, N, I>& a, const Mat<B, N, I>& b) {
  using E = decltype(a.m[0][0] * b.m[0][0]);
  Mat<E, N, I> out;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      E acc = a.m[i][0] * b.m[0][j];
      for (int k = 1; k < N; ++k) acc = multiply_add(a.m[i][k], b.m[k][j], acc);
      out.m[i][j] = acc;
    }
  return out;
}

// adj(a) * b, reading a transposed and conjugated in place: the backward
// hopping term U^+(x - mu) h needs no copy of U^+.
template <class A, class B, int N, int M, class I, class J>
  requires MatrixActsOn<Mat<A, N, I>, Vec<B, M, J>>
LATTE_INLINE auto adj_times(const Mat<A, N, I>& a, const Vec<B, M, J>& b) {
  if constexpr (std::is_same_v<I, J>) {
    using E = decltype(conj(a.m[0][0]) * b.v[0]);
    Vec<E, N, I> out;
    for (int i = 0; i < N; ++i) {
      out.v[i] = conj(a.m[0][i]) * b.v[0];
      for (int k = 1; k < N; ++k) out.v[i] = conj_multiply_add(a.m[k][i], b.v[k], out.v[i]);
    }
    return out;
  } else if constexpr (contracts_each_element_v<I, B>) {
    // Row by row across the spin components, as in a * b above.
    using E = decltype(conj(a.m[0][0]) * b.v[0].v[0]);
    Vec<Vec<E, N, I>, M, J> out;
    for (int i = 0; i < N; ++i) {
      for (int s = 0; s < M; ++s) out.v[s].v[i] = conj(a.m[0][i]) * b.v[s].v[0];
      for (int k = 1; k < N; ++k)
        for (int s = 0; s < M; ++s) out.v[s].v[i] = conj_multiply_add(a.m[k][i], b.v[s].v[k], out.v[s].v[i]);
    }
    return out;
  } else {
    return transform_tensor(b, [&](const auto& x) LATTE_LAMBDA { return adj_times(a, x); });
  }
}
template <class A, class B, int N, class I>
LATTE_INLINE auto adj_times(const Mat<A, N, I>& a, const Mat<B, N, I>& b) {
  using E = decltype(conj(a.m[0][0]) * b.m[0][0]);
  Mat<E, N, I> out;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      E acc = conj(a.m[0][i]) * b.m[0][j];
      for (int k = 1; k < N; ++k) acc = conj_multiply_add(a.m[k][i], b.m[k][j], acc);
      out.m[i][j] = acc;
    }
  return out;
}

// ---- batches of right-hand sides (Vec<., N, RhsIndex>) ---------------------------
// A batch of coefficients times a batch of fields multiplies them element
// by element: the multi-right-hand-side CG's x += alpha p with one alpha
// per right-hand side.
template <class A, class B, int N>
  requires requires(const A& x, const B& y) { x * y; }
LATTE_INLINE auto operator*(const Vec<A, N, RhsIndex>& a, const Vec<B, N, RhsIndex>& b) {
  return transform_tensor(a, b, [](const auto& x, const auto& y) LATTE_LAMBDA { return x * y; });
}

// ---- conjugation, transposition, trace ----------------------------------------
template <class A, int N, class I>
LATTE_INLINE auto conj(const Vec<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return conj(x); }); }
template <class A, int N, class I>
LATTE_INLINE auto conj(const Mat<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return conj(x); }); }
template <class A, int N, class I>
LATTE_INLINE auto real(const Vec<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return real(x); }); }
template <class A, int N, class I>
LATTE_INLINE auto real(const Mat<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return real(x); }); }
template <class A, int N, class I>
LATTE_INLINE auto imag(const Vec<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return imag(x); }); }
template <class A, int N, class I>
LATTE_INLINE auto imag(const Mat<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return imag(x); }); }

template <class A, int N, class I>
LATTE_INLINE Mat<A, N, I> transpose(const Mat<A, N, I>& a) {
  Mat<A, N, I> out;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) out.m[i][j] = a.m[j][i];
  return out;
}
// Hermitian conjugate. Elements are conjugated recursively, so adj of a
// nested tensor is the adjoint of the outer index with conjugated contents.
template <class A, int N, class I>
LATTE_INLINE Mat<A, N, I> adj(const Mat<A, N, I>& a) {
  Mat<A, N, I> out;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) out.m[i][j] = conj(a.m[j][i]);
  return out;
}
template <class R> LATTE_INLINE Complex<R> adj(const Complex<R>& z) { return conj(z); }
template <RealLeaf R> LATTE_INLINE R adj(const R& x) { return x; }

template <class A, int N, class I>
LATTE_INLINE A trace(const Mat<A, N, I>& a) {
  A acc = a.m[0][0];
  for (int i = 1; i < N; ++i) acc = acc + a.m[i][i];
  return acc;
}

// ---- local inner products (summed over the lattice by the reductions) ----------------
// localInnerProduct(a, b) = sum over all components of conj(a) * b.
// Every multiply-add is an explicit fused_multiply_add (complex.hpp), so the
// terms have the same bits whatever width the site is evaluated at.
template <RealLeaf R> LATTE_INLINE R localInnerProduct(const R& a, const R& b) { return a * b; }
template <class R> LATTE_INLINE Complex<R> localInnerProduct(const Complex<R>& a, const Complex<R>& b) {
  return {fused_multiply_add(a.re, b.re, a.im * b.im), fused_multiply_add(a.re, b.im, -(a.im * b.re))};
}
// acc + the local inner product (norm) of one element: fused for real leaves.
template <class T, class A>
LATTE_INLINE void add_inner_product(T& acc, const A& a, const A& b) {
  if constexpr (RealLeaf<A>) acc = fused_multiply_add(a, b, acc);
  else acc = acc + localInnerProduct(a, b);
}
template <class T, class A>
LATTE_INLINE void add_norm2(T& acc, const A& a) {
  if constexpr (RealLeaf<A>) acc = fused_multiply_add(a, a, acc);
  else acc = acc + localNorm2(a);
}
template <class A, int N, class I>
LATTE_INLINE auto localInnerProduct(const Vec<A, N, I>& a, const Vec<A, N, I>& b) {
  auto acc = localInnerProduct(a.v[0], b.v[0]);
  for (int i = 1; i < N; ++i) add_inner_product(acc, a.v[i], b.v[i]);
  return acc;
}
template <class A, int N, class I>
LATTE_INLINE auto localInnerProduct(const Mat<A, N, I>& a, const Mat<A, N, I>& b) {
  auto acc = localInnerProduct(a.m[0][0], b.m[0][0]);
  for (int i = 0; i < N; ++i)
    for (int j = (i == 0 ? 1 : 0); j < N; ++j) add_inner_product(acc, a.m[i][j], b.m[i][j]);
  return acc;
}
template <class A, int N, class I>
LATTE_INLINE auto localNorm2(const Vec<A, N, I>& a) {
  auto acc = localNorm2(a.v[0]);
  for (int i = 1; i < N; ++i) add_norm2(acc, a.v[i]);
  return acc;
}
template <class A, int N, class I>
LATTE_INLINE auto localNorm2(const Mat<A, N, I>& a) {
  auto acc = localNorm2(a.m[0][0]);
  for (int i = 0; i < N; ++i)
    for (int j = (i == 0 ? 1 : 0); j < N; ++j) add_norm2(acc, a.m[i][j]);
  return acc;
}

// The norm and inner product of each right-hand side of a batch separately.
template <class A, int N>
LATTE_INLINE auto rhs_norm2(const Vec<A, N, RhsIndex>& a) {
  return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return localNorm2(x); });
}
template <class A, int N>
LATTE_INLINE auto rhs_inner_product(const Vec<A, N, RhsIndex>& a, const Vec<A, N, RhsIndex>& b) {
  return transform_tensor(a, b, [](const auto& x, const auto& y) LATTE_LAMBDA { return localInnerProduct(x, y); });
}

// Multiplication by +-i, recursively: the building block of gamma matrices.
template <RealLeaf R> LATTE_INLINE Complex<R> timesI(const R& x) { return {x - x, x}; }
template <class A, int N, class I>
LATTE_INLINE auto timesI(const Vec<A, N, I>& a) { return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return timesI(x); }); }
template <class A, int N, class I>
LATTE_INLINE auto timesMinusI(const Vec<A, N, I>& a) {
  return transform_tensor(a, [](const auto& x) LATTE_LAMBDA { return timesMinusI(x); });
}

}  // namespace latte
