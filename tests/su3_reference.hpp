#pragma once
// Independent references for the gauge tests: 3x3 complex matrices in long
// double with plain loops, nothing shared with the library's site code.

#include <algorithm>
#include <array>
#include <complex>

#include "lattice/tensors/site_types.hpp"

namespace latte::testing {

using ComplexL = std::complex<long double>;
using MatrixL = std::array<std::array<ComplexL, 3>, 3>;

template <class R> inline MatrixL to_long(const ColourMatrix<R>& m) {
  MatrixL a;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = ComplexL(m(i, j).re, m(i, j).im);
  return a;
}
inline MatrixL times(const MatrixL& a, const MatrixL& b) {
  MatrixL c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}
inline MatrixL dagger(const MatrixL& a) {
  MatrixL c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = std::conj(a[j][i]);
  return c;
}
inline long double distance(const MatrixL& a, const MatrixL& b) {
  long double d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d = std::max(d, std::abs(a[i][j] - b[i][j]));
  return d;
}
inline MatrixL unit() {
  MatrixL a{};
  for (int i = 0; i < 3; ++i) a[i][i] = 1;
  return a;
}
inline ComplexL det(const MatrixL& u) {
  return u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) - u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
         u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
}
// exp(X) = sum_n X^n / n!, summed until the terms are below 1e-30.
inline MatrixL exp_by_series(const MatrixL& x) {
  MatrixL sum = unit(), term = unit();
  for (int n = 1; n < 200; ++n) {
    term = times(term, x);
    for (auto& row : term)
      for (auto& v : row) v /= static_cast<long double>(n);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) sum[i][j] += term[i][j];
    if (distance(term, MatrixL{}) < 1e-30L) break;
  }
  return sum;
}
inline long double re_trace(const MatrixL& a) { return (a[0][0] + a[1][1] + a[2][2]).real(); }

// (A - A^+)/2 minus its trace / 3.
inline MatrixL traceless_antihermitian_part(const MatrixL& a) {
  MatrixL ta;
  const ComplexL t = (a[0][0] - std::conj(a[0][0]) + a[1][1] - std::conj(a[1][1]) + a[2][2] - std::conj(a[2][2])) / 6.0L;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) ta[i][j] = (a[i][j] - std::conj(a[j][i])) / 2.0L - (i == j ? t : 0.0L);
  return ta;
}

}  // namespace latte::testing
