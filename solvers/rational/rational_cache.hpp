#pragma once
// Rational approximations kept in files: one small text file per set of
// parameters, so that a run (and every later run, and every rank) uses the
// approximation computed once, with the same bits.
//
// The file's name is made of the parameters,
// rational_power<p>over<q>_lower<lower>_upper<upper>_tolerance<tolerance>.txt,
// the numbers as C99 hexadecimal floats (the name is then exact). Its lines, after '#' comments:
//   latte-rational-approximation 1
//   power <p> <q>
//   interval <lower> <upper>
//   tolerance <tolerance>
//   degree <n>
//   error <largest relative error>
//   constant <c>
//   <pole> <residue>            (n lines)
// every number a hexadecimal float (exact round trip), followed on each
// line by a decimal comment for the reader.
//
// Reading checks everything a file can get wrong: the format line, each
// key in its place, the parameters equal to those asked for (bit for bit),
// the count of poles, finite numbers and positive poles, and the
// approximation's error re-measured on its extrema within the stated error
// (1e-6 relative slack) and the tolerance. A file that fails gets a
// std::runtime_error naming the file, the line and what is wrong; nothing
// is recomputed behind the user's back.

#include <filesystem>
#include <string>

#include "solvers/rational/rational_approximation.hpp"

namespace latte {

std::filesystem::path rational_cache_file(const std::filesystem::path& directory, int numerator, int denominator,
                                          double lower, double upper, double tolerance);

void write_rational_approximation(const std::filesystem::path& file, const RationalApproximation& r, double tolerance);
RationalApproximation read_rational_approximation(const std::filesystem::path& file, int numerator, int denominator,
                                                  double lower, double upper, double tolerance);

// The approximation of x^(p/q) on [lower, upper] to the relative error
// `tolerance`: read from `directory` if its file is there, else computed
// (remez_approximation_to_tolerance) and written there (to a temporary
// name, then renamed: concurrent writers leave one whole file). An empty
// directory computes without a file.
RationalApproximation cached_rational_approximation(const std::filesystem::path& directory, int numerator,
                                                    int denominator, double lower, double upper, double tolerance);

}  // namespace latte
