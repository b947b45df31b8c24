// The rational approximation of x^(p/q) on [lower, upper] that the rational
// HMC uses (solvers/rational/), printed: its degree, the constant, poles
// and residues of r(x) = constant + sum_k residue_k / (x + pole_k), the
// relative error r(x) / x^(p/q) - 1 on a logarithmic grid, and its
// alternating extrema (2 degree + 2 of equal size: the minimax property).
//
//   rational_approximation --power -1/2 --lower 1e-4 --upper 64 --tolerance 1e-10
//   rational_approximation --power -1/2 --lower 1e-4 --upper 64 --degree 12 --zolotarev
//   rational_approximation --power 1/4 --lower 1e-5 --upper 10 --tolerance 1e-9 --cache rational_cache
//
// --tolerance chooses the smallest degree whose error meets it; --degree
// asks for one. --zolotarev (x^-1/2 only) prints Zolotarev's closed form
// beside Remez's and their largest differences. --cache reads the
// approximation from that directory, or computes and writes it there.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "examples/command_line.hpp"
#include "solvers/rational/rational_cache.hpp"
#include "solvers/rational/remez.hpp"
#include "solvers/rational/zolotarev.hpp"

using namespace latte;
using latte::programs::CommandLine;

namespace {

void print(const RationalApproximation& r, int points) {
  std::printf("%s\nrelative error %.6e\nconstant %.17g\n%4s  %-24s  %-24s\n", r.description().c_str(), r.error,
              r.constant, "k", "pole (shift)", "residue");
  for (int k = 0; k < r.degree; ++k) std::printf("%4d  %-24.17g  %-24.17g\n", k, r.poles[k], r.residues[k]);
  std::printf("error curve: x, r(x)/x^(%d/%d) - 1\n", r.numerator, r.denominator);
  for (const auto& [x, e] : relative_error_curve(r, points)) std::printf("  %-14.6e %+.6e\n", x, e);
  const auto extrema = error_extrema(r);
  std::printf("%zu alternating extrema (minimax: %d):\n", extrema.size(), 2 * r.degree + 2);
  for (const auto& [x, e] : extrema) std::printf("  %-14.6e %+.6e\n", x, e);
}

}  // namespace

int main(int argc, char** argv) {
  std::string power = "-1/2", cache;
  double lower = 1e-4, upper = 64, tolerance = 1e-10;
  int degree = 0, points = 41;
  bool zolotarev = false;
  CommandLine cli("The rational approximation of x^(p/q) used by the rational HMC: poles, residues, error curve");
  cli.option("--power", power, "p/q with 0 < |p/q| < 1, e.g. -1/2, 1/4").show_default();
  cli.option("--lower", lower, "lower end of the interval (the operator's smallest eigenvalue or below)").positive();
  cli.option("--upper", upper, "upper end (its largest eigenvalue or above)").positive();
  cli.option("--tolerance", tolerance, "largest relative error; the smallest degree that meets it").positive();
  cli.option("--degree", degree, "a degree of your own instead of --tolerance").range(1, 64);
  cli.option("--points", points, "points of the printed error curve").range(2, 100000);
  cli.option("--cache", cache, "directory of approximation files (read, or computed and written)");
  cli.flag("--zolotarev", zolotarev, "x^-1/2 only: Zolotarev's closed form beside Remez's");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    const auto slash = power.find('/');
    if (slash == std::string::npos) throw std::invalid_argument("--power '" + power + "' is not p/q");
    const int p = std::stoi(power.substr(0, slash)), q = std::stoi(power.substr(slash + 1));
    RationalApproximation r;
    if (degree > 0) {
      r = remez_approximation(p, q, lower, upper, degree);
    } else {
      r = cached_rational_approximation(cache, p, q, lower, upper, tolerance);
      if (!cache.empty()) std::printf("file %s\n", rational_cache_file(cache, p, q, lower, upper, tolerance).c_str());
    }
    print(r, points);
    if (zolotarev) {
      if (p * 2 != -q) throw std::invalid_argument("--zolotarev is for the power -1/2");
      const RationalApproximation z = zolotarev_inverse_square_root(lower, upper, r.degree);
      double poles = 0, residues = 0;
      for (int k = 0; k < r.degree; ++k) {
        poles = std::max(poles, std::abs(r.poles[k] / z.poles[k] - 1));
        residues = std::max(residues, std::abs(r.residues[k] / z.residues[k] - 1));
      }
      std::printf("Zolotarev: relative error %.6e; Remez - Zolotarev: constant %.2e, poles %.2e, residues %.2e (relative)\n",
                  z.error, std::abs(r.constant / z.constant - 1), poles, residues);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rational_approximation: %s\n", e.what());
    return 1;
  }
  return 0;
}
