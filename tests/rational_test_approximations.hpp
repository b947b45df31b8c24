#pragma once
// The rational approximations of the rational-HMC tests, read from the
// files in tests/rational_cache (written by the rational_approximation
// example's --cache, checked by the reader: parameters, poles, and the
// error re-measured on the extrema). Remez takes seconds per approximation,
// which every configuration and rank count would pay again; a missing file
// fails the test instead of being computed behind its back.
//
// The interval [0.2, 80] holds the spectrum of the tests' heavy quarks
// (even-odd Wilson and clover at m >= 0.3, near-equilibrium fields at
// beta = 5.6 or rough ones), the error is 1e-10.

#include "solvers/qcd/update/rational_monomial.hpp"
#include "solvers/rational/rational_cache.hpp"

#ifndef LATTE_RATIONAL_FIXTURES
#error "LATTE_RATIONAL_FIXTURES: the directory tests/rational_cache (tests/CMakeLists.txt)"
#endif

namespace latte::testing {

inline constexpr double rational_test_lower = 0.2, rational_test_upper = 80.0, rational_test_tolerance = 1e-10;

inline RationalApproximation rational_test_approximation(int numerator, int denominator) {
  return read_rational_approximation(rational_cache_file(LATTE_RATIONAL_FIXTURES, numerator, denominator,
                                                         rational_test_lower, rational_test_upper,
                                                         rational_test_tolerance),
                                     numerator, denominator, rational_test_lower, rational_test_upper,
                                     rational_test_tolerance);
}

// f flavours in n pseudofermions: x^(-f/(2n)) and x^(f/(4n)).
inline RationalPseudofermionApproximations rational_test_approximations(int flavours, int pseudofermions) {
  const RationalPseudofermionPowers p = rational_pseudofermion_powers(flavours, pseudofermions);
  return {rational_test_approximation(p.action_numerator, p.action_denominator),
          rational_test_approximation(p.heatbath_numerator, p.heatbath_denominator)};
}

}  // namespace latte::testing
