// N right-hand sides at once: the Wilson operator, its dagger and the
// even-odd Schur operator on a batch equal N single applications (on this
// build's SIMD width, on one lane and through the per-lane backend), and
// the multi-right-hand-side CG gives every right-hand side its own
// convergence, stops each when it converges and names the ones that fail.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"
#include "tests/test_support.hpp"

using namespace latte;
using latte::testing::fields_near;

namespace {

constexpr int rhs = 3;

// Column k of a batch as a single field, and a batch from single fields.
template <class R, int N, class W>
Lattice<Spinor<R>, W> column(const Lattice<MultiSpinor<R, N>, W>& batch, int k) {
  Lattice<Spinor<R>, W> out(batch.geometry(), Uninitialized{});
  switch (k) {
    case 0: out = element<0>(batch); break;
    case 1: out = element<1>(batch); break;
    default: out = element<2>(batch); break;
  }
  return out;
}

class MultiRhs : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  const double mass = 0.1;
  std::array<Lattice<Spinor<double>>, rhs> psi{Lattice<Spinor<double>>(geometry), Lattice<Spinor<double>>(geometry),
                                                Lattice<Spinor<double>>(geometry)};
  Lattice<MultiSpinor<double, rhs>> batch{geometry};

  void SetUp() override {
    ParallelRng rng(57);
    U.set_random(rng);
    for (auto& p : psi) rng.gaussian(p);
    batch = pack<MultiSpinor<double, rhs>>(psi[0], psi[1], psi[2]);
  }
};

TEST_F(MultiRhs, WilsonOperatorOnABatchEqualsSingleApplications) {
  const WilsonDirac<double> M(U, mass);
  Lattice<MultiSpinor<double, rhs>> out(geometry), out_dagger(geometry), out_dslash(geometry), out_norm(geometry);
  M.apply(out, batch);
  M.apply_dagger(out_dagger, batch);
  M.dslash(out_dslash, batch);
  const Batch<double, rhs> norms = M.apply_and_norm2(out_norm, batch);
  for (int k = 0; k < rhs; ++k) {
    Lattice<Spinor<double>> single(geometry), single_dagger(geometry), single_dslash(geometry);
    M.apply(single, psi[k]);
    M.apply_dagger(single_dagger, psi[k]);
    M.dslash(single_dslash, psi[k]);
    EXPECT_TRUE(fields_near(column(out, k), single, 1e-15)) << "M, right-hand side " << k;
    EXPECT_TRUE(fields_near(column(out_dagger, k), single_dagger, 1e-15)) << "M^+, right-hand side " << k;
    EXPECT_TRUE(fields_near(column(out_dslash, k), single_dslash, 1e-15)) << "Dslash, right-hand side " << k;
    EXPECT_TRUE(fields_near(column(out_norm, k), single, 1e-15)) << "fused M, right-hand side " << k;
    EXPECT_NEAR(norms.v[k], norm2(single), 1e-12 * norm2(single)) << "fused norm, right-hand side " << k;
  }
}

TEST_F(MultiRhs, BatchOperatorIsTheSameOnOneLaneAndPerLane) {
  // The build's SIMD width against one lane (ScalarWidth) and against the
  // per-lane (simt) lowering of the same statement.
  GaugeField<double, ScalarWidth> U_scalar(geometry);
  Lattice<MultiSpinor<double, rhs>, ScalarWidth> batch_scalar(geometry), out_scalar(geometry);
  std::array<Lattice<Spinor<double>, ScalarWidth>, rhs> psi_scalar{Lattice<Spinor<double>, ScalarWidth>(geometry),
                                                                   Lattice<Spinor<double>, ScalarWidth>(geometry),
                                                                   Lattice<Spinor<double>, ScalarWidth>(geometry)};
  ParallelRng rng(57);  // the same streams as SetUp
  U_scalar.set_random(rng);
  for (auto& p : psi_scalar) rng.gaussian(p);
  batch_scalar = pack<MultiSpinor<double, rhs>>(psi_scalar[0], psi_scalar[1], psi_scalar[2]);
  WilsonDirac<double, ScalarWidth>(U_scalar, mass).apply(out_scalar, batch_scalar);

  Lattice<MultiSpinor<double, rhs>> out(geometry), out_lanes(geometry);
  WilsonDirac<double>(U, mass).apply(out, batch);
  assign<backend::Simt>(out_lanes, (4.0 + mass) * batch - 0.5 * wilson_hopping<+1>(U, batch), AssignSet{});
  EXPECT_TRUE(fields_near(out, out_scalar, 1e-14));
  EXPECT_TRUE(fields_near(out, out_lanes, 1e-14));
}

// A batch large enough (24 spinors: 4.5 KB per site even on one lane) that
// the vector lowering takes its sites in tiled order (lattice/layout/tiled_order.hpp)
// gives, bit for bit, what the per-lane lowering gives in storage order. The
// extents leave partial tiles (3 outer sites along y at one lane).
TEST(MultiRhsTiledOrder, LargeSitesInTiledOrderGiveTheSameBits) {
  Geometry geometry{{4, 6, 6, 4}};
  Lattice<MultiSpinor<double, 24>> f(geometry), on_vectors(geometry), on_lanes(geometry);
  ParallelRng rng(91);
  rng.gaussian(f);
  const auto stencil = shift(f, Coordinate{1, 0, 0, 0}) + shift(f, Coordinate{0, -1, 0, 0}) +
                       shift(f, Coordinate{0, 0, 1, 0}) + shift(f, Coordinate{0, 0, 0, -1}) - f;
  on_vectors = stencil;
  assign<backend::Simt>(on_lanes, stencil, AssignSet{});
  EXPECT_TRUE(fields_near(on_vectors, on_lanes, 0.0));
}

TEST_F(MultiRhs, SchurOperatorOnABatchEqualsSingleApplications) {
  const WilsonEvenOdd<double> schur(U, mass);
  Lattice<MultiSpinor<double, rhs>> in(schur.geometry()), out(schur.geometry()), out_dagger(schur.geometry());
  in = pick(Parity::even, batch);
  schur.apply(out, in);
  schur.apply_dagger(out_dagger, in);
  for (int k = 0; k < rhs; ++k) {
    Lattice<Spinor<double>> in_k(schur.geometry()), single(schur.geometry()), single_dagger(schur.geometry());
    in_k = pick(Parity::even, psi[k]);
    schur.apply(single, in_k);
    schur.apply_dagger(single_dagger, in_k);
    EXPECT_TRUE(fields_near(column(out, k), single, 1e-15)) << "Mhat, right-hand side " << k;
    EXPECT_TRUE(fields_near(column(out_dagger, k), single_dagger, 1e-15)) << "Mhat^+, right-hand side " << k;
  }
}

TEST_F(MultiRhs, SinglePrecisionBatchEqualsSingleApplications) {
  GaugeField<float> U_float(geometry);
  std::array<Lattice<Spinor<float>>, rhs> in{Lattice<Spinor<float>>(geometry), Lattice<Spinor<float>>(geometry),
                                             Lattice<Spinor<float>>(geometry)};
  ParallelRng rng(57);
  U_float.set_random(rng);
  for (auto& p : in) rng.gaussian(p);
  Lattice<MultiSpinor<float, rhs>> batch_float(geometry), out(geometry);
  batch_float = pack<MultiSpinor<float, rhs>>(in[0], in[1], in[2]);
  const WilsonDirac<float> M(U_float, mass);
  M.apply(out, batch_float);
  for (int k = 0; k < rhs; ++k) {
    Lattice<Spinor<float>> single(geometry);
    M.apply(single, in[k]);
    EXPECT_TRUE(fields_near(column(out, k), single, 1e-6)) << "right-hand side " << k;
  }
}

TEST_F(MultiRhs, SolveMeetsEveryTrueResidualAndMatchesSingleSolves) {
  const WilsonDirac<double> M(U, mass);
  const SolverControl control{1e-9, 2000, false};
  Lattice<MultiSpinor<double, rhs>> x(geometry);
  x = zero;
  const SolverReport report = solve_wilson(M, x, batch, control);
  ASSERT_EQ(report.rhs_true_residuals.size(), static_cast<std::size_t>(rhs));
  const std::vector<double> residuals = relative_residuals(M, x, batch);
  for (int k = 0; k < rhs; ++k) {
    EXPECT_LE(residuals[k], control.tolerance) << "right-hand side " << k;
    EXPECT_EQ(report.rhs_true_residuals[k], residuals[k]);
    Lattice<Spinor<double>> single(geometry);
    single = zero;
    const SolverReport alone = solve_wilson(M, single, psi[k], control);
    // The same recurrences: the same number of iterations within one (the
    // fused batch statements may round differently), the same solution.
    EXPECT_NEAR(report.rhs_iterations[k], alone.iterations, 1) << "right-hand side " << k;
    const Lattice<Spinor<double>> x_k = column(x, k);
    EXPECT_LT(std::sqrt(norm2(x_k - single) / norm2(single)), 10 * control.tolerance);
  }
}

TEST_F(MultiRhs, EachRightHandSideStopsWhenItConverges) {
  // One CG, three tolerances: the loosest converges first and then does not
  // change, so it ends where a CG with that tolerance alone ends.
  const WilsonDirac<double> M(U, mass);
  const NormalOperator<WilsonDirac<double>, Lattice<MultiSpinor<double, rhs>>> A(M);
  Lattice<MultiSpinor<double, rhs>> x(geometry);
  x = zero;
  const std::array<double, rhs> tolerances{1e-3, 1e-10, 1e-6};
  const SolverReport report = conjugate_gradient(A, x, batch, tolerances, SolverControl{1e-12, 2000, true});
  EXPECT_LT(report.rhs_iterations[0], report.rhs_iterations[2]);
  EXPECT_LT(report.rhs_iterations[2], report.rhs_iterations[1]);
  EXPECT_EQ(report.iterations, report.rhs_iterations[1]);
  const NormalOperator<WilsonDirac<double>> A_single(M);
  for (int k = 0; k < rhs; ++k) {
    EXPECT_LE(report.rhs_true_residuals[k], tolerances[k]) << "right-hand side " << k;
    Lattice<Spinor<double>> single(geometry);
    single = zero;
    const SolverReport alone = conjugate_gradient(A_single, single, psi[k], SolverControl{tolerances[k], 2000, false});
    EXPECT_NEAR(report.rhs_iterations[k], alone.iterations, 1) << "right-hand side " << k;
    const Lattice<Spinor<double>> x_k = column(x, k);
    EXPECT_LT(std::sqrt(norm2(x_k - single) / norm2(single)), 1e-10) << "right-hand side " << k;
  }
}

TEST_F(MultiRhs, ReportsTheRightHandSidesThatDoNotConverge) {
  const WilsonDirac<double> M(U, mass);
  const NormalOperator<WilsonDirac<double>, Lattice<MultiSpinor<double, rhs>>> A(M);
  Lattice<MultiSpinor<double, rhs>> x(geometry);
  x = zero;
  // Right-hand sides 0 and 2 converge quickly, 1 cannot within the limit.
  const std::array<double, rhs> tolerances{1e-1, 1e-14, 1e-1};
  try {
    conjugate_gradient(A, x, batch, tolerances, SolverControl{1e-8, 40, false});
    FAIL() << "expected a SolverError";
  } catch (const SolverError& error) {
    EXPECT_EQ(error.report().unconverged, std::vector<int>{1});
    EXPECT_NE(std::string(error.what()).find("right-hand side(s) 1 "), std::string::npos) << error.what();
    EXPECT_LE(error.report().rhs_true_residuals[0], 1e-1);
    EXPECT_GT(error.report().rhs_true_residuals[1], 1e-14);
    EXPECT_EQ(error.report().iterations, 40);
  }
  // A NaN in one right-hand side is named too.
  Lattice<MultiSpinor<double, rhs>> bad(geometry);
  bad = batch;
  MultiSpinor<double, rhs> site = peek(bad, Coordinate{1, 2, 3, 4});
  site.v[2].v[1].v[0].re = std::nan("");
  poke(bad, Coordinate{1, 2, 3, 4}, site);
  try {
    conjugate_gradient(A, x, bad, SolverControl{1e-8, 40, false});
    FAIL() << "expected a SolverError";
  } catch (const SolverError& error) {
    EXPECT_NE(std::string(error.what()).find("NaN or infinity for right-hand side(s) 2 "), std::string::npos)
        << error.what();
  }
}

TEST_F(MultiRhs, EvenOddAndMixedPrecisionSolveEveryRightHandSide) {
  const WilsonDirac<double> M(U, mass);
  const SolverControl control{1e-10, 4000, false};
  Lattice<MultiSpinor<double, rhs>> x(geometry);
  x = zero;
  const SolverReport even_odd = solve_wilson_even_odd(M, x, batch, control);
  std::vector<double> residuals = relative_residuals(M, x, batch);
  for (int k = 0; k < rhs; ++k) EXPECT_LE(residuals[k], control.tolerance) << "even-odd, right-hand side " << k;
  EXPECT_EQ(even_odd.rhs_true_residuals, residuals);
  if constexpr (mixed_precision_available<DefaultWidth>) {
    x = zero;
    solve_wilson_mixed(M, x, batch, control);
    residuals = relative_residuals(M, x, batch);
    for (int k = 0; k < rhs; ++k) EXPECT_LE(residuals[k], control.tolerance) << "mixed, right-hand side " << k;
    x = zero;
    solve_wilson_even_odd_mixed(M, x, batch, control);
    residuals = relative_residuals(M, x, batch);
    for (int k = 0; k < rhs; ++k) EXPECT_LE(residuals[k], control.tolerance) << "even-odd mixed, right-hand side " << k;
  }
}

}  // namespace
