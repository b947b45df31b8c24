// Checkerboards and even-odd preconditioning: half-lattice layouts cover the
// lattice once, shifts of a checkerboarded field land on the other parity
// (checked exactly against peek, on SIMD vectors and per lane), pick/merge
// move fields between the whole lattice and its checkerboards without loss,
// the hopping term between checkerboards is the block of Dslash, and the
// Schur-complement solve (solvers/qcd/fermions/wilson_even_odd.hpp) meets the whole
// system's tolerance with fewer iterations than the unpreconditioned one.

#include <cmath>
#include <set>

#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"
#include "test_support.hpp"
#include "wilson_problem.hpp"

namespace latte::testing {
namespace {

template <class Real>
void layouts_cover_the_lattice_once(const Coordinate& dims) {
  const Geometry whole(dims);
  std::set<Coordinate> seen;
  for (Parity parity : {Parity::even, Parity::odd}) {
    const Geometry half = whole.checkerboard(parity);
    const SiteLayout& layout = half.layout(vector_lanes<Real>());
    EXPECT_EQ(layout.volume(), whole.volume() / 2);
    EXPECT_EQ(half.volume(), whole.volume() / 2);
    EXPECT_EQ(layout.simd_layout(), whole.layout(vector_lanes<Real>()).simd_layout());
    for (std::int64_t o = 0; o < layout.outer_volume(); ++o)
      for (int l = 0; l < layout.nsimd(); ++l) {
        const Coordinate x = layout.join(o, l);
        ASSERT_EQ(Geometry::parity(x), static_cast<int>(parity)) << to_string(x);
        ASSERT_TRUE(half.contains(x));
        const auto [outer, lane] = layout.split(x);
        ASSERT_EQ(outer, o);
        ASSERT_EQ(lane, l);
        ASSERT_TRUE(seen.insert(x).second) << "site " << to_string(x) << " held twice";
      }
  }
  EXPECT_EQ(static_cast<std::int64_t>(seen.size()), whole.volume());
}

TEST(Checkerboard, LayoutsCoverTheLatticeOnce) {
  layouts_cover_the_lattice_once<double>({4, 4, 4, 8});
  layouts_cover_the_lattice_once<float>({4, 4, 4, 8});
  layouts_cover_the_lattice_once<float>({8, 4, 4, 4});
}

// shift(f_odd, d) equals f(x + d) at every site of the parity it lands on.
template <class Real>
void shifts_land_on_the_other_parity(const Coordinate& dims) {
  using Z = Complex<Real>;
  const Geometry whole(dims);
  const Geometry even = whole.checkerboard(Parity::even), odd = whole.checkerboard(Parity::odd);
  Lattice<Z> f(odd);
  ParallelRng(5).gaussian(f);
  auto check = [&](const Geometry& target, const Coordinate& d) {
    Lattice<Z> on_vectors(target), on_lanes(target);
    on_vectors = shift(f, d);
    assign<backend::Simt>(on_lanes, shift(f, d), AssignSet{});
    auto expected = [&](const Coordinate& x) { return peek(f, displaced(x, d, dims)); };
    EXPECT_TRUE(field_matches(on_vectors, expected, 0.0)) << "displacement " << to_string(d);
    EXPECT_TRUE(field_matches(on_lanes, expected, 0.0)) << "per lane, displacement " << to_string(d);
  };
  for (int mu = 0; mu < 4; ++mu)
    for (int step : {+1, -1}) check(even, unit_displacement(4, mu, step));
  check(odd, {1, 1, 0, 0});   // an even displacement stays on its parity
  check(even, {0, 2, -1, 0});
}

TEST(Checkerboard, ShiftsLandOnTheOtherParity) {
  shifts_land_on_the_other_parity<double>({4, 4, 4, 4});
  shifts_land_on_the_other_parity<float>({4, 4, 4, 4});
  shifts_land_on_the_other_parity<double>({6, 4, 4, 8});
}

TEST(Checkerboard, PickAndMergeAreExactInverses) {
  const Geometry whole({4, 4, 4, 8});
  Lattice<Spinor<double>> f(whole), back(whole), back_lanes(whole);
  ParallelRng(8).gaussian(f);
  Lattice<Spinor<double>> fe(whole.checkerboard(Parity::even)), fo(whole.checkerboard(Parity::odd));
  fe = pick(Parity::even, f);
  fo = pick(Parity::odd, f);
  auto from_f = [&](const Coordinate& x) { return peek(f, x); };
  EXPECT_TRUE(field_matches(fe, from_f, 0.0));
  EXPECT_TRUE(field_matches(fo, from_f, 0.0));
  back = merge(fe, fo);
  assign<backend::Simt>(back_lanes, merge(fe, fo), AssignSet{});
  EXPECT_TRUE(fields_near(back, f, 0.0));
  EXPECT_TRUE(fields_near(back_lanes, f, 0.0));
  // Checkerboard norms add up to the whole one.
  EXPECT_NEAR(norm2(fe) + norm2(fo), norm2(f), 1e-12 * norm2(f));
}

TEST(Checkerboard, MixingParitiesIsAClearError) {
  const Geometry whole({4, 4, 4, 8});
  Lattice<Complex<double>> f(whole), fe(whole.checkerboard(Parity::even)), fo(whole.checkerboard(Parity::odd));
  auto message_of = [](auto&& statement) -> std::string {
    try {
      statement();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "nothing thrown";
  };
  EXPECT_NE(message_of([&] { fe = fe + fo; }).find("odd sites of extents [4 4 4 8]"), std::string::npos);
  EXPECT_THROW(fe = fe + fo, GeometryMismatch);
  EXPECT_THROW(fe = f, GeometryMismatch);
  EXPECT_THROW(fe = pick(Parity::even, fe), GeometryMismatch);
  EXPECT_THROW(f = merge(fo, fe), GeometryMismatch);
  EXPECT_THROW(peek(fe, Coordinate{1, 0, 0, 0}), CoordinateOutOfRange);
  EXPECT_NE(message_of([&] { peek(fe, Coordinate{1, 0, 0, 0}); }).find("other parity"), std::string::npos);
  EXPECT_THROW(Geometry({5, 4, 4, 4}).checkerboard(Parity::even), LayoutError);
  // Lanes whose blocks have odd extents would mix parities (an explicit lane
  // grid: the default one keeps blocks even where it can).
  if (vector_lanes<double>() >= 2) {
    Coordinate lanes{1, 1, 1, 2};
    for (int mu = 0; product(lanes) < vector_lanes<double>(); ++mu) lanes[mu] = 2;
    const Geometry odd_blocks({4, 4, 4, 6}, lanes);
    EXPECT_NE(message_of([&] { Lattice<Complex<double>> g(odd_blocks.checkerboard(Parity::even)); })
                  .find("cannot be checkerboarded"),
              std::string::npos);
  }
}

class WilsonEvenOddTest : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  Geometry even = geometry.checkerboard(Parity::even), odd = geometry.checkerboard(Parity::odd);
  GaugeField<double> U{geometry};
  Lattice<Spinor<double>> psi{geometry};
  void SetUp() override {
    ParallelRng rng(17);
    U.set_random(rng);
    rng.gaussian(psi);
  }
};

TEST_F(WilsonEvenOddTest, HoppingTermsAreTheBlocksOfDslash) {
  const WilsonEvenOdd<double> schur(U, 0.1);
  Lattice<Spinor<double>> psi_e(even), psi_o(odd), out_e(even), out_o(odd), whole(geometry);
  psi_e = pick(Parity::even, psi);
  psi_o = pick(Parity::odd, psi);
  auto from_whole = [&](const Coordinate& x) { return peek(whole, x); };

  whole = wilson_hopping<+1>(U, psi);
  out_e = schur.hopping_to_even<+1>(psi_o);
  out_o = schur.hopping_to_odd<+1>(psi_e);
  EXPECT_TRUE(field_matches(out_e, from_whole, 1e-14));
  EXPECT_TRUE(field_matches(out_o, from_whole, 1e-14));

  whole = wilson_hopping<-1>(U, psi);
  out_e = schur.hopping_to_even<-1>(psi_o);
  assign<backend::Simt>(out_o, schur.hopping_to_odd<-1>(psi_e), AssignSet{});
  EXPECT_TRUE(field_matches(out_e, from_whole, 1e-14));
  EXPECT_TRUE(field_matches(out_o, from_whole, 1e-14));
}

TEST_F(WilsonEvenOddTest, SchurDaggerIsTheAdjoint) {
  // <chi, Mhat psi> = <Mhat^+ chi, psi> on random even fields.
  const WilsonEvenOdd<double> schur(U, 0.1);
  Lattice<Spinor<double>> a(even), b(even), Ma(even), Mdb(even);
  ParallelRng rng(3);
  rng.gaussian(a);
  rng.gaussian(b);
  schur.apply(Ma, a);
  schur.apply_dagger(Mdb, b);
  const auto left = innerProduct(b, Ma), right = innerProduct(Mdb, a);
  const double scale = std::sqrt(norm2(a) * norm2(b));
  EXPECT_NEAR(real(left), real(right), 1e-13 * scale);
  EXPECT_NEAR(imag(left), imag(right), 1e-13 * scale);
  EXPECT_GT(std::abs(imag(left)), 1e-6 * scale);  // Mhat is not hermitian: the check has teeth
}

TEST_F(WilsonEvenOddTest, SameResultOnTheScalarLayout) {
  GaugeField<double, ScalarWidth> U_scalar(geometry);
  Lattice<Spinor<double>, ScalarWidth> psi_scalar(geometry);
  ParallelRng rng(17);  // the same streams as SetUp
  U_scalar.set_random(rng);
  rng.gaussian(psi_scalar);
  Lattice<Spinor<double>, ScalarWidth> in_scalar(even), out_scalar(even);
  in_scalar = pick(Parity::even, psi_scalar);
  WilsonEvenOdd<double, ScalarWidth>(U_scalar, 0.1).apply(out_scalar, in_scalar);
  Lattice<Spinor<double>> in(even), out(even);
  in = pick(Parity::even, psi);
  WilsonEvenOdd<double>(U, 0.1).apply(out, in);
  EXPECT_TRUE(fields_near(out, out_scalar, 1e-14));
}

TEST(WilsonEvenOdd, SchurSolveMeetsTheWholeSystemToleranceInFewerIterations) {
  WilsonProblem<double> problem({8, 8, 8, 8}, 4, 0.05);
  auto& [geometry, U, M, b, x_eo] = problem;
  Lattice<Spinor<double>> x_plain(geometry), Mx(geometry);
  x_plain = zero;
  const SolverControl control{1e-10, 4000};
  const WilsonEvenOdd<double> schur(U, 0.05);  // built once, reusable for more solves
  const SolverReport eo = solve_wilson_even_odd(schur, M, x_eo, b, control);
  const SolverReport plain = solve_wilson(M, x_plain, b, control);
  M.apply(Mx, x_eo);
  const double residual = std::sqrt(norm2(b - Mx) / norm2(b));  // recomputed here, independently
  EXPECT_LE(residual, 1e-10);
  EXPECT_NEAR(eo.true_residual, residual, 1e-12);
  EXPECT_LT(eo.iterations, plain.iterations);
  EXPECT_LE(std::sqrt(norm2(x_eo - x_plain) / norm2(x_plain)), 1e-7);
  std::printf("even-odd: %d iterations, plain: %d iterations\n", eo.iterations, plain.iterations);
}

// Mixed precision needs a float vector of half the build's width; an SSE2
// CPU build (16 bytes) has none of 8 bytes.
#if LATTE_SIMD_BYTES != 16
TEST(WilsonEvenOdd, MixedPrecisionSchurSolveReachesDoubleTolerance) {
  WilsonProblem<double> problem({8, 8, 8, 8}, 4, 0.05);
  auto& [geometry, U, M, b, x_mixed] = problem;
  Lattice<Spinor<double>> x_double(geometry), Mx(geometry);
  x_double = zero;
  const SolverReport mixed = solve_wilson_even_odd_mixed(M, x_mixed, b, SolverControl{1e-10, 4000});
  M.apply(Mx, x_mixed);
  const double residual = std::sqrt(norm2(b - Mx) / norm2(b));  // recomputed here, independently
  EXPECT_LE(residual, 1e-10);
  EXPECT_NEAR(mixed.true_residual, residual, 1e-12);
  solve_wilson_even_odd(M, x_double, b, SolverControl{1e-11, 4000});
  EXPECT_LE(std::sqrt(norm2(x_mixed - x_double) / norm2(x_double)), 1e-9);
  std::printf("even-odd mixed: %d single-precision iterations\n", mixed.iterations);

  // Operators built once serve a second solve, from the first one's answer.
  const WilsonEvenOdd<double> schur(U, 0.05);
  const WilsonEvenOdd<float, MatchingSingleWidth<DefaultWidth>> schur_single(M.action().single_precision());
  const SolverReport again = solve_wilson_even_odd_mixed(schur, schur_single, M, x_mixed, b, SolverControl{1e-10, 4000});
  EXPECT_EQ(again.iterations, 0);
  EXPECT_LE(again.true_residual, 1e-10);
  const WilsonEvenOdd<float, MatchingSingleWidth<DefaultWidth>> other_mass(
      WilsonAction<double>(U, 0.2).single_precision());
  EXPECT_THROW(solve_wilson_even_odd_mixed(schur, other_mass, M, x_mixed, b, SolverControl{}), GeometryMismatch);
}

TEST(WilsonEvenOdd, MixedPrecisionSchurSolveFailsClearlyAtTheIterationLimit) {
  WilsonProblem<double> problem({4, 4, 4, 4}, 2, 0.01);
  auto& [geometry, U, M, b, x] = problem;
  try {
    solve_wilson_even_odd_mixed(M, x, b, SolverControl{1e-12, 5});
    FAIL() << "expected a SolverError";
  } catch (const SolverError& error) {
    EXPECT_NE(std::string(error.what()).find("even-odd mixed-precision"), std::string::npos) << error.what();
    EXPECT_LE(error.report().iterations, 5);
  }
}
#endif

TEST(WilsonEvenOdd, RejectsCheckerboardedArgumentsAndAForeignSchurOperator) {
  const Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry);
  U.set_unit();
  const WilsonDirac<double> M(U, 0.1);
  Lattice<Spinor<double>> half(geometry.checkerboard(Parity::even)), whole(geometry);
  EXPECT_THROW(solve_wilson_even_odd(M, half, whole, SolverControl{}), GeometryMismatch);
  const WilsonEvenOdd<double> other_mass(U, 0.2);
  EXPECT_THROW(solve_wilson_even_odd(other_mass, M, whole, whole, SolverControl{}), GeometryMismatch);
}

}  // namespace
}  // namespace latte::testing
