// Conjugate gradient (solvers/krylov/conjugate_gradient.hpp) and the Wilson solve
// through the normal equations: convergence to the true-residual tolerance,
// agreement with Eigen's dense LU on a 4^4 lattice, and clear failures.

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <limits>

#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"
#include "test_support.hpp"
#include "wilson_problem.hpp"

namespace latte::testing {
namespace {

using Field = Lattice<Spinor<double>>;

TEST(ConjugateGradient, WilsonSolveMeetsTheTrueResidualTolerance) {
  WilsonProblem<double> problem({8, 8, 8, 8}, 4, 0.05);
  auto& [geometry, U, M, b, x] = problem;
  Field Mx(geometry);
  const SolverReport report = solve_wilson(M, x, b, SolverControl{1e-10, 2000});
  M.apply(Mx, x);
  const double residual = std::sqrt(norm2(b - Mx) / norm2(b));  // recomputed here, independently
  EXPECT_LE(residual, 1e-10);
  EXPECT_NEAR(report.true_residual, residual, 1e-12);
  EXPECT_GT(report.iterations, 5);
  EXPECT_EQ(static_cast<int>(report.residual_history.size()), report.iterations);
  EXPECT_GT(report.flops, 0);
}

TEST(ConjugateGradient, MatchesEigenDenseSolveOn4to4) {
  WilsonProblem<double> problem({4, 4, 4, 4}, 12, 0.2);
  auto& [geometry, U, M, b, x] = problem;
  Field unit(geometry), column(geometry);

  // The dense matrix of M, column by column: M applied to unit vectors.
  const int per_site = spins * colours;
  const Eigen::Index n = geometry.volume() * per_site;
  Eigen::MatrixXcd dense(n, n);
  auto site_of = [&](Eigen::Index i) { return coordinate_from_index(i / per_site, geometry.dims()); };
  for (Eigen::Index j = 0; j < n; ++j) {
    unit = zero;
    Spinor<double> e = zero_value<Spinor<double>>();
    e((j % per_site) / colours)(j % colours) = ComplexD(1.0);
    poke(unit, site_of(j), e);
    M.apply(column, unit);
    for (std::int64_t s = 0; s < geometry.volume(); ++s) {
      const Spinor<double> value = peek(column, coordinate_from_index(s, geometry.dims()));
      for (int k = 0; k < per_site; ++k)
        dense(s * per_site + k, j) = {value(k / colours)(k % colours).re, value(k / colours)(k % colours).im};
    }
  }
  Eigen::VectorXcd rhs(n);
  for (Eigen::Index i = 0; i < n; i += per_site) {
    const Spinor<double> value = peek(b, site_of(i));
    for (int k = 0; k < per_site; ++k) rhs(i + k) = {value(k / colours)(k % colours).re, value(k / colours)(k % colours).im};
  }
  const Eigen::VectorXcd exact = dense.partialPivLu().solve(rhs);

  x = zero;
  solve_wilson(M, x, b, SolverControl{1e-12, 2000});
  double worst = 0;
  for (Eigen::Index i = 0; i < n; i += per_site) {
    const Spinor<double> value = peek(x, site_of(i));
    for (int k = 0; k < per_site; ++k) {
      const ComplexD z = value(k / colours)(k % colours);
      worst = std::max(worst, std::abs(std::complex<double>(z.re, z.im) - exact(i + k)));
    }
  }
  EXPECT_LT(worst, 1e-9 * exact.cwiseAbs().maxCoeff());
}

TEST(ConjugateGradient, SinglePrecisionSolve) {
  WilsonProblem<float> problem({4, 4, 4, 8}, 6, 0.2);
  const SolverReport report = solve_wilson(problem.M, problem.x, problem.b, SolverControl{1e-5, 1000});
  EXPECT_LE(report.true_residual, 1e-5);
}

// Mixed precision needs a float vector of half the build's width; an SSE2
// CPU build (16 bytes) has none of 8 bytes.
#if LATTE_SIMD_BYTES != 16
TEST(MixedPrecision, PrecisionCastRoundsEveryRealBothWays) {
  using SingleField = Lattice<Spinor<float>, MatchingSingleWidth<DefaultWidth>>;
  static_assert(SingleField::nsimd == Field::nsimd);
  const Geometry geometry({4, 4, 8, 8});
  Field psi(geometry), back(geometry), back_lanes(geometry);
  ParallelRng(11).gaussian(psi);
  SingleField single(geometry), single_lanes(geometry);
  single = precision_cast<float>(psi);
  assign<backend::Simt>(single_lanes, precision_cast<float>(psi), AssignSet{});
  back = precision_cast<double>(single);
  assign<backend::Simt>(back_lanes, precision_cast<double>(single_lanes), AssignSet{});
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    const auto original = peek(psi, x);
    const auto rounded = peek(single, x), rounded_lanes = peek(single_lanes, x);
    const auto restored = peek(back, x), restored_lanes = peek(back_lanes, x);
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) {
        const float re = static_cast<float>(original.v[s].v[c].re), im = static_cast<float>(original.v[s].v[c].im);
        ASSERT_EQ(rounded.v[s].v[c].re, re);
        ASSERT_EQ(rounded.v[s].v[c].im, im);
        ASSERT_EQ(rounded_lanes.v[s].v[c].re, re);
        ASSERT_EQ(restored.v[s].v[c].re, static_cast<double>(re));
        ASSERT_EQ(restored.v[s].v[c].im, static_cast<double>(im));
        ASSERT_EQ(restored_lanes.v[s].v[c].im, static_cast<double>(im));
      }
  });
}

TEST(MixedPrecision, DefectCorrectionReachesDoubleTolerance) {
  WilsonProblem<double> problem({8, 8, 8, 8}, 4, 0.05);
  auto& [geometry, U, M, b, x] = problem;
  const SolverReport mixed = solve_wilson_mixed(M, x, b, SolverControl{1e-10, 4000});
  Field Mx(geometry), x_double(geometry);
  M.apply(Mx, x);
  const double residual = std::sqrt(norm2(b - Mx) / norm2(b));  // recomputed here, independently
  EXPECT_LE(residual, 1e-10);
  EXPECT_NEAR(mixed.true_residual, residual, 1e-12);
  x_double = zero;
  solve_wilson(M, x_double, b, SolverControl{1e-11, 4000});
  EXPECT_LE(std::sqrt(norm2(x - x_double) / norm2(x_double)), 1e-9);
}
#endif

TEST(ConjugateGradient, FailsClearlyWhenTheIterationLimitIsReached) {
  WilsonProblem<double> problem({4, 4, 4, 4}, 2, 0.01);
  auto& [geometry, U, M, b, x] = problem;
  try {
    solve_wilson(M, x, b, SolverControl{1e-12, 3});
    FAIL() << "expected a SolverError";
  } catch (const SolverError& error) {
    EXPECT_NE(std::string(error.what()).find("no convergence"), std::string::npos) << error.what();
    EXPECT_EQ(error.report().iterations, 3);
    EXPECT_GT(norm2(x), 0.0);  // the last iterate is kept
  }
}

TEST(ConjugateGradient, RejectsNaNInTheRightHandSide) {
  Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry);
  U.set_unit();
  WilsonDirac<double> M(U, 0.1);
  Field b(geometry), x(geometry);
  b = zero;
  Spinor<double> bad = zero_value<Spinor<double>>();
  bad(1)(2).re = std::numeric_limits<double>::quiet_NaN();
  poke(b, {1, 2, 3, 0}, bad);
  EXPECT_THROW(solve_wilson(M, x, b, SolverControl{}), SolverError);
}

// -A with A positive: <p, (-A) p> < 0 on the first iteration.
struct NegatedIdentity {
  static constexpr double flops_per_site = 24;
  void apply(Field& out, const Field& in) const { out = -1.0 * in; }
};

TEST(ConjugateGradient, ReportsBreakdownOnAnIndefiniteOperator) {
  Geometry geometry({4, 4, 4, 4});
  Field b(geometry), x(geometry);
  ParallelRng(3).gaussian(b);
  x = zero;
  try {
    conjugate_gradient(NegatedIdentity{}, x, b, SolverControl{});
    FAIL() << "expected a SolverError";
  } catch (const SolverError& error) {
    EXPECT_NE(std::string(error.what()).find("breakdown"), std::string::npos) << error.what();
  }
}

TEST(ConjugateGradient, ZeroRightHandSideGivesZero) {
  Geometry geometry({4, 4, 4, 4});
  Field b(geometry), x(geometry);
  b = zero;
  ParallelRng(3).gaussian(x);
  const SolverReport report = conjugate_gradient(NegatedIdentity{}, x, b, SolverControl{});
  EXPECT_EQ(report.iterations, 0);
  EXPECT_EQ(norm2(x), 0.0);
}

}  // namespace
}  // namespace latte::testing
