#pragma once
// The minimax rational approximation of x^(p/q) on [lower, upper] in the
// relative error, by the Remez exchange algorithm, computed in 100-digit
// binary floating point (Boost.Multiprecision's cpp_bin_float) and rounded
// to double only at the end (poles, residues, constant).
//
// The algorithm (as AlgRemez, Clark and Kennedy, does it for RHMC): on the
// variable y = x / upper in [lower / upper, 1], find N (degree n) and D
// (degree n, monic) and E with
//   N(y_i) - y_i^(p/q) (1 + (-1)^i E) D(y_i) = 0   at 2n + 2 reference points y_i
// (Newton's method on the 2n + 2 unknowns, which the equations hold
// bilinearly), then move the reference points to the extrema of the error
// N / (D y^(p/q)) - 1 between its zeros, until the extrema are equal in size
// to a relative 1e-10: the error then equioscillates and |E| is the minimax
// error. It starts from Zolotarev's approximation of x^-1/2 and moves the
// power to the one asked for in steps (solvers/rational/README.md: starts of
// each power's own left Newton's method at spurious solutions with poles
// inside the interval). The poles are the roots of D (real and negative
// for these powers: found by sign changes on the negative axis and refined
// by bisection), the residues N(-pole) / D'(-pole).
//
// Every rank and every machine gets the same bits: the arithmetic is
// Boost's software floating point, no library function of the platform is
// involved before the final rounding.

#include "solvers/rational/rational_approximation.hpp"

namespace latte {

// The minimax approximation of degree `degree` (1 to 64). Throws
// std::invalid_argument for a power outside (-1, 0) u (0, 1) (p/q in lowest
// terms or not), an empty or non-positive interval, and std::runtime_error
// where the iteration does not converge (naming the parameters).
RationalApproximation remez_approximation(int numerator, int denominator, double lower, double upper, int degree);

// The approximation of the smallest degree whose relative error is at most
// `tolerance` (the degree is searched from the error's geometric fall with
// the degree; at most max_degree).
RationalApproximation remez_approximation_to_tolerance(int numerator, int denominator, double lower, double upper,
                                                       double tolerance, int max_degree = 64);

}  // namespace latte
