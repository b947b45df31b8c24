#pragma once
// Site tensors <-> Eigen dense matrices, for references computed with Eigen.

#include <Eigen/Dense>
#include <complex>

#include "lattice/tensors/site_types.hpp"

namespace latte::testing {

using SpinColour = Eigen::Matrix<std::complex<double>, 4, 3>;  // spin rows, colour columns

inline std::complex<double> to_std(const ComplexD& z) { return {z.re, z.im}; }

inline Eigen::Matrix3cd to_eigen(const ColourMatrix<double>& u) {
  Eigen::Matrix3cd m;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) m(a, b) = to_std(u(a, b));
  return m;
}
inline Eigen::Vector3cd to_eigen(const ColourVector<double>& v) {
  Eigen::Vector3cd e;
  for (int a = 0; a < 3; ++a) e(a) = to_std(v(a));
  return e;
}
inline Eigen::Matrix4cd to_eigen(const SpinMatrix<double>& g) {
  Eigen::Matrix4cd m;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m(i, j) = to_std(g(i, j));
  return m;
}
inline SpinColour to_eigen(const Spinor<double>& psi) {
  SpinColour m;
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 3; ++c) m(s, c) = to_std(psi(s)(c));
  return m;
}
inline Spinor<double> from_eigen(const SpinColour& m) {
  Spinor<double> psi;
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 3; ++c) psi(s)(c) = ComplexD(m(s, c).real(), m(s, c).imag());
  return psi;
}

}  // namespace latte::testing
