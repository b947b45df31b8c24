// Zolotarev's approximation of x^-1/2; see zolotarev.hpp.
#include "solvers/rational/zolotarev.hpp"

#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "solvers/rational/extended_precision.hpp"

namespace latte {

using rational_detail::Real;

namespace rational_detail {
std::vector<Real> zolotarev_coefficients(const Real& b, int n) {
  const Real k = sqrt(1 - 1 / b);
  const Real K = boost::math::ellint_1(k);
  std::vector<Real> c(2 * n + 1);
  for (int l = 1; l <= 2 * n; ++l) {
    Real cn, dn;
    const Real sn = boost::math::jacobi_elliptic(k, Real(l) * K / (2 * n + 1), &cn, &dn);
    c[l] = sn * sn / (cn * cn);
  }
  return c;
}
}  // namespace rational_detail

RationalApproximation zolotarev_inverse_square_root(double lower, double upper, int degree) {
  if (!(lower > 0) || !(upper > lower) || !std::isfinite(upper))
    throw std::invalid_argument("Latte Zolotarev approximation: the interval [" + std::to_string(lower) + ", " +
                                std::to_string(upper) + "] is not one of 0 < lower < upper");
  if (degree < 1 || degree > 64)
    throw std::invalid_argument("Latte Zolotarev approximation: degree " + std::to_string(degree) + " is not in 1..64");
  const int n = degree;
  const Real b = Real(upper) / Real(lower);
  const std::vector<Real> c = rational_detail::zolotarev_coefficients(b, n);
  auto product = [&](const Real& u) {  // P(u) = sqrt(u) prod (1 + u / c_2l) / (1 + u / c_2l-1)
    Real p = sqrt(u);
    for (int l = 1; l <= n; ++l) p *= (1 + u / c[2 * l]) / (1 + u / c[2 * l - 1]);
    return p;
  };
  const Real at_lower = product(Real(1)), at_upper = product(b);
  const Real d = 2 / (at_lower + at_upper);

  // In x = lower u: C prod (x + q_l) / (x + p_l), p_l = lower c_2l-1, q_l = lower c_2l.
  std::vector<Real> p(n), q(n);
  Real C = d / sqrt(Real(lower));
  for (int l = 0; l < n; ++l) {
    p[l] = Real(lower) * c[2 * l + 1];
    q[l] = Real(lower) * c[2 * l + 2];
    C *= c[2 * l + 1] / c[2 * l + 2];
  }
  RationalApproximation result;
  result.numerator = -1;
  result.denominator = 2;
  result.lower = lower;
  result.upper = upper;
  result.degree = n;
  result.error = static_cast<double>((at_upper - at_lower) / (at_upper + at_lower));
  result.constant = static_cast<double>(C);
  for (int k_pole = 0; k_pole < n; ++k_pole) {
    Real residue = C;
    for (int l = 0; l < n; ++l) {
      residue *= q[l] - p[k_pole];
      if (l != k_pole) residue /= p[l] - p[k_pole];
    }
    result.poles.push_back(static_cast<double>(p[k_pole]));
    result.residues.push_back(static_cast<double>(residue));
  }
  // As remez.cpp: the error the returned (double) coefficients have.
  for (const auto& [x, e] : error_extrema(result)) result.error = std::max(result.error, std::abs(e));
  return result;
}

}  // namespace latte
