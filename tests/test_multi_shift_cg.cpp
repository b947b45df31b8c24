// Multi-shift CG (solvers/krylov/multi_shift_conjugate_gradient.hpp) on the
// even-odd Wilson normal operator A = Mhat^+ Mhat:
// - on the free field a plane wave on the even sites is an eigenvector of A
//   with the eigenvalue lambda(p) below, so each shift's solution is exactly
//   b / (lambda(p) + sigma_k): 12 shifts against that answer;
// - on a random gauge field each shift's solution equals the one-shift CG
//   solve of (A + sigma_k) x = b, the shifts stop at their own iterations
//   (larger shifts earlier) and the reported true residuals are the
//   recomputed ones;
// - a shift's tolerance of its own, and the errors (NaN, no convergence);
// - the Lanczos spectral bounds (solvers/krylov/spectral_bounds.hpp) find the
//   free field's smallest and largest eigenvalue, known in closed form.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <numbers>
#include <vector>

#include "eigen_conversions.hpp"
#include "solvers/krylov/multi_shift_conjugate_gradient.hpp"
#include "solvers/krylov/spectral_bounds.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using EvenOddNormal = NormalOperator<WilsonEvenOdd<double>>;

// Free Wilson, M = 4 + m - 1/2 D with 1/2 D(p) = C - i S.gamma on
// psi = exp(i p.x) u (C = sum cos p_mu, S_mu = sin p_mu; the sign of S is
// the convention's and drops out). The Schur complement on the even sites,
// Mhat = A - (1/2 D)^2 / A with A = 4 + m, is alpha + i beta s.gamma with
// alpha = A - (C^2 - S^2) / A, beta = 2 C |S| / A and s = S / |S|, so
// Mhat^+ Mhat = alpha^2 + beta^2 ((s.gamma)^2 = 1): a number.
double free_even_odd_normal_eigenvalue(const double p[4], double mass) {
  const double A = 4 + mass;
  double C = 0, S2 = 0;
  for (int mu = 0; mu < 4; ++mu) {
    C += std::cos(p[mu]);
    S2 += std::sin(p[mu]) * std::sin(p[mu]);
  }
  const double alpha = A - (C * C - S2) / A, beta = 2 * C * std::sqrt(S2) / A;
  return alpha * alpha + beta * beta;
}

const std::vector<double> twelve_shifts{0.0, 1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0};

TEST(MultiShiftCg, FreeFieldPlaneWavesGiveTheExactAnswerForEveryShift) {
  const Geometry whole({4, 4, 4, 8});
  const Geometry even = whole.checkerboard(Parity::even);
  GaugeField<double> U(whole);
  U.set_unit();
  const double mass = -0.3;  // light: lambda(p) small at p = 0
  const WilsonEvenOdd<double> schur(U, mass);
  const EvenOddNormal A(schur);
  ParallelRng rng(7);
  Lattice<Spinor<double>> chi(whole);
  rng.gaussian(chi);
  const Spinor<double> u = peek(chi, {0, 0, 0, 0});
  for (const Coordinate& n : {Coordinate{0, 0, 0, 0}, Coordinate{1, 0, 0, 1}, Coordinate{1, 2, 3, 5}}) {
    double p[4];
    for (int mu = 0; mu < 4; ++mu) p[mu] = 2 * std::numbers::pi * n[mu] / whole.dims()[mu];
    const double lambda = free_even_odd_normal_eigenvalue(p, mass);
    Lattice<Spinor<double>> b(even), Ab(even);
    fill(b, [&](const Coordinate& x) {
      double px = 0;
      for (int mu = 0; mu < 4; ++mu) px += p[mu] * x[mu];
      return from_eigen(std::complex<double>(std::cos(px), std::sin(px)) * to_eigen(u));
    });
    A.apply(Ab, b);
    ASSERT_LE(std::sqrt(norm2(Ab - lambda * b) / norm2(b)), 1e-13) << "not an eigenvector: momentum " << to_string(n);
    std::vector<Lattice<Spinor<double>>> x;
    MultiShiftControl control;
    control.tolerances = {1e-11};
    const SolverReport report = multi_shift_conjugate_gradient(A, twelve_shifts, x, b, control);
    ASSERT_EQ(x.size(), twelve_shifts.size());
    for (std::size_t k = 0; k < twelve_shifts.size(); ++k) {
      const double exact = 1 / (lambda + twelve_shifts[k]);
      EXPECT_LE(std::sqrt(norm2(x[k] - exact * b) / norm2(exact * b)), 1e-10)
          << "momentum " << to_string(n) << ", shift " << twelve_shifts[k];
      EXPECT_LE(report.rhs_true_residuals[k], 1e-11);
    }
    // An eigenvector is solved in one iteration.
    EXPECT_EQ(report.iterations, 1) << "momentum " << to_string(n);
  }
}

struct GaugeProblem {
  Geometry whole{{8, 8, 8, 8}};
  Geometry even = whole.checkerboard(Parity::even);
  GaugeField<double> U{whole};
  Lattice<Spinor<double>> b{even};
  GaugeProblem() {
    ParallelRng rng(23);
    U.set_random(rng);
    rng.gaussian(b);
  }
};

TEST(MultiShiftCg, EachShiftEqualsItsOwnSolveOnAGaugeField) {
  GaugeProblem problem;
  const WilsonEvenOdd<double> schur(problem.U, 0.05);
  const EvenOddNormal A(schur);
  const std::vector<double> shifts{0.5, 0.002, 0.02, 2e-4, 5.0, 0.2, 20.0, 1.0, 0.05, 0.008};  // any order
  std::vector<Lattice<Spinor<double>>> x;
  MultiShiftControl control;
  control.tolerances = {1e-10};
  const SolverReport report = multi_shift_conjugate_gradient(A, shifts, x, problem.b, control);
  int lightest_iterations = 0;
  for (std::size_t k = 0; k < shifts.size(); ++k) {
    Lattice<Spinor<double>> y(problem.even), r(problem.even);
    y = zero;
    const SolverReport single = conjugate_gradient(ShiftedOperator<EvenOddNormal>(A, shifts[k]), y, problem.b,
                                                   SolverControl{1e-10, 10000, false});
    EXPECT_LE(std::sqrt(norm2(x[k] - y) / norm2(y)), 1e-8) << "shift " << shifts[k];
    // The reported true residual is the recomputed one.
    A.apply(r, x[k]);
    const double residual = std::sqrt(norm2(problem.b - r - shifts[k] * x[k]) / norm2(problem.b));
    EXPECT_NEAR(report.rhs_true_residuals[k], residual, 1e-13);
    EXPECT_LE(residual, 1e-10) << "shift " << shifts[k];
    // Within two of the shift's own CG: one Krylov space, one iteration count.
    EXPECT_NEAR(report.rhs_iterations[k], single.iterations, 2) << "shift " << shifts[k];
    if (shifts[k] == 2e-4) lightest_iterations = single.iterations;
    std::printf("shift %-7g multi-shift stopped at %4d, its own CG %4d iterations, true residual %.2e, refined %d\n",
                shifts[k], report.rhs_iterations[k], single.iterations, residual, report.refinement_iterations[k]);
  }
  EXPECT_EQ(report.iterations, *std::max_element(report.rhs_iterations.begin(), report.rhs_iterations.end()));
  EXPECT_NEAR(report.iterations, lightest_iterations, 2);
}

TEST(MultiShiftCg, ToleranceOfItsOwnPerShiftAndClearErrors) {
  GaugeProblem problem;
  const WilsonEvenOdd<double> schur(problem.U, 0.05);
  const EvenOddNormal A(schur);
  std::vector<Lattice<Spinor<double>>> x;
  MultiShiftControl control;
  control.tolerances = {1e-4, 1e-10, 1e-6};
  const std::vector<double> shifts{0.01, 0.1, 1.0};
  const SolverReport report = multi_shift_conjugate_gradient(A, shifts, x, problem.b, control);
  for (int k = 0; k < 3; ++k) EXPECT_LE(report.rhs_true_residuals[k], control.tolerances[k]);
  EXPECT_GT(report.rhs_true_residuals[0], 1e-8);  // stopped at its own, looser, tolerance
  control.tolerances = {1e-8, 1e-8};  // two tolerances for three shifts
  EXPECT_THROW(multi_shift_conjugate_gradient(A, shifts, x, problem.b, control), SolverError);
  control.tolerances = {1e-12};
  control.max_iterations = 5;
  try {
    multi_shift_conjugate_gradient(A, shifts, x, problem.b, control);
    FAIL() << "five iterations were enough";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("no convergence of 3 of 3 shifts"), std::string::npos) << e.what();
    EXPECT_EQ(e.report().unconverged.size(), 3u);
  }
  control.max_iterations = 1000;
  Lattice<Spinor<double>> bad(problem.even);
  bad = problem.b;
  Spinor<double> nan_site = peek(problem.b, {0, 0, 0, 0});
  nan_site(1)(2).re = std::numeric_limits<double>::quiet_NaN();
  poke(bad, {0, 0, 0, 0}, nan_site);
  try {
    multi_shift_conjugate_gradient(A, shifts, x, bad, control);
    FAIL() << "NaN accepted";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("NaN"), std::string::npos) << e.what();
  }
}

TEST(SpectralBounds, FreeFieldExtremesAreTheAnalyticOnes) {
  const Geometry whole({4, 4, 4, 8});
  GaugeField<double> U(whole);
  U.set_unit();
  for (double mass : {0.1, -0.4}) {
    const WilsonEvenOdd<double> schur(U, mass);
    const EvenOddNormal A(schur);
    double lowest = std::numeric_limits<double>::max(), highest = 0;
    for_each_coordinate(whole, [&](const Coordinate& n) {  // every momentum of the periodic lattice
      double p[4];
      for (int mu = 0; mu < 4; ++mu) p[mu] = 2 * std::numbers::pi * n[mu] / whole.dims()[mu];
      lowest = std::min(lowest, free_even_odd_normal_eigenvalue(p, mass));
      highest = std::max(highest, free_even_odd_normal_eigenvalue(p, mass));
    });
    SpectralBoundsControl control;
    control.relative_accuracy = 1e-9;
    const SpectralBounds bounds = spectral_bounds<Lattice<Spinor<double>>>(A, whole.checkerboard(Parity::even), control);
    EXPECT_TRUE(bounds.converged) << bounds.steps << " steps";
    EXPECT_NEAR(bounds.smallest, lowest, 1e-8 * lowest) << "mass " << mass;
    EXPECT_NEAR(bounds.largest, highest, 1e-8 * highest) << "mass " << mass;
    EXPECT_GE(bounds.smallest, lowest * (1 - 1e-12));  // Ritz values lie inside the spectrum
    EXPECT_LE(bounds.largest, highest * (1 + 1e-12));
    std::printf("free Mhat^+ Mhat, mass %g: Lanczos [%.10g, %.10g] in %d steps, exact [%.10g, %.10g]\n", mass,
                bounds.smallest, bounds.largest, bounds.steps, lowest, highest);
  }
}

}  // namespace
}  // namespace latte::testing
