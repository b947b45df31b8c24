#pragma once
// Zolotarev's closed form of the minimax rational approximation of x^-1/2
// in the relative error (Zolotarev 1877; for lattice QCD: van den Eshof et
// al. 2002, Chiu et al. 2002): an approximation independent of the Remez
// iteration, with which the tests check it.
//
// On u = x / lower in [1, b], b = upper / lower, with the elliptic modulus
// k = sqrt(1 - 1/b), K = K(k) the complete elliptic integral of the first
// kind and sn, cn the Jacobi elliptic functions of modulus k,
//   c_l = sn^2(l K / (2n + 1)) / cn^2(l K / (2n + 1)),   l = 1 .. 2n,
//   1 / sqrt(u) ~ d prod_{l=1..n} (1 + u / c_{2l}) / (1 + u / c_{2l-1}).
// The relative error equioscillates at 2n + 2 points, the ends of the
// interval among them (error -delta at u = 1, +delta at u = b), which fixes
//   d = 2 / (P(1) + P(b)),   delta = (P(b) - P(1)) / (P(b) + P(1)),
// P(u) = sqrt(u) prod (...). Poles and residues then follow from the
// product in x = lower u. Computed with Boost.Math's elliptic functions in
// the 100-digit type of remez.cpp.

#include "solvers/rational/rational_approximation.hpp"

namespace latte {

// x^(-1/2) on [lower, upper] with `degree` poles (1 to 64).
RationalApproximation zolotarev_inverse_square_root(double lower, double upper, int degree);

}  // namespace latte
