#pragma once
// SU(3) at one site: a Haar-distributed random matrix and unitarity checks.

#include <cmath>

#include "lattice/tensors/site_random.hpp"
#include "lattice/tensors/site_types.hpp"

namespace latte {

// Rows 0 and 1 by Gram-Schmidt from gaussian complex vectors; row 2 is the
// conjugated cross product, which makes the determinant exactly 1. A
// gaussian matrix orthonormalised this way is Haar-distributed in U(3), and
// the cross product maps that to the Haar measure on SU(3).
inline ColourMatrix<double> random_su3(SiteRandomStream& random) {
  ColourMatrix<double> u;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) u(i, j) = ComplexD(random.gaussian(), random.gaussian());
  auto normalise = [&](int row) {
    double n = 0;
    for (int j = 0; j < 3; ++j) n += localNorm2(u(row, j));
    const double scale = 1.0 / std::sqrt(n);
    for (int j = 0; j < 3; ++j) u(row, j) = u(row, j) * scale;
  };
  normalise(0);
  ComplexD overlap(0.0, 0.0);
  for (int j = 0; j < 3; ++j) overlap += conj(u(0, j)) * u(1, j);
  for (int j = 0; j < 3; ++j) u(1, j) -= overlap * u(0, j);
  normalise(1);
  for (int j = 0; j < 3; ++j) {
    const int a = (j + 1) % 3, b = (j + 2) % 3;
    u(2, j) = conj(u(0, a) * u(1, b) - u(0, b) * u(1, a));
  }
  return u;
}

inline ColourMatrix<double> identity_colour_matrix() {
  ColourMatrix<double> u;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) u(i, j) = ComplexD(i == j ? 1.0 : 0.0, 0.0);
  return u;
}

inline ComplexD determinant(const ColourMatrix<double>& u) {
  return u(0, 0) * (u(1, 1) * u(2, 2) - u(1, 2) * u(2, 1)) - u(0, 1) * (u(1, 0) * u(2, 2) - u(1, 2) * u(2, 0)) +
         u(0, 2) * (u(1, 0) * u(2, 1) - u(1, 1) * u(2, 0));
}

}  // namespace latte
