#pragma once
// The number type of the rational approximations' construction (remez.cpp,
// zolotarev.cpp): Boost.Multiprecision's 100-decimal-digit binary floating
// point, and polynomials in it. Internal to solvers/rational/'s compiled
// files: nothing outside them includes Boost.

#include <boost/math/constants/constants.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <vector>

namespace latte::rational_detail {

using Real = boost::multiprecision::cpp_bin_float_100;
// Coefficients, lowest power first.
using Polynomial = std::vector<Real>;

inline Real evaluate(const Polynomial& coefficients, const Real& y) {
  Real sum = 0;
  for (auto c = coefficients.rbegin(); c != coefficients.rend(); ++c) sum = sum * y + *c;
  return sum;
}

// Zolotarev's c_1 .. c_2n for x^-1/2 on u in [1, b] (index 0 unused):
// 1 / sqrt(u) ~ d prod_l (1 + u / c_2l) / (1 + u / c_2l-1), zolotarev.cpp.
// The Remez iteration starts from them.
std::vector<Real> zolotarev_coefficients(const Real& b, int n);

}  // namespace latte::rational_detail
