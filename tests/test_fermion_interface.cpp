// The fermion-action interface (solvers/qcd/fermions/fermion_action.hpp) with an
// action that is not Wilson, written in this file alone: the Wilson hopping
// term with a diagonal that is a colour matrix different at every site,
// D(x) = V(x) diag(l) V(x)^+ (V a random SU(3) field, l three different
// complex numbers): not a number, not hermitian, its inverse
// V(x) diag(1/l) V(x)^+ known exactly, and independent of the links. The
// action supplies only its members; the Schur complement, its adjoint and
// the even-odd solve are the generic ones, checked against the whole
// operator written as one expression of its own, and hybrid Monte Carlo
// runs it through the generic two-flavour monomial: its force against the
// numerical derivative of its action, and dH ~ h^2 over a trajectory.

#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "hmc_test_support.hpp"
#include "solvers/qcd/fermions/fermion_force.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/fermions/wilson_dirac.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/solves/even_odd_solve.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using R = double;
using Links = Lattice<ColourMatrix<R>>;

// The toy's diagonal, fixed (it does not depend on the links), whole and by
// parity; the actions below refer to it through their parameters.
struct ToyDiagonal {
  Geometry geometry, even, odd;
  Links D{geometry}, D_inverse{geometry};
  Links D_even{even}, D_odd{odd}, D_inverse_even{even}, D_inverse_odd{odd};

  // V from `rng` (a random SU(3) field).
  ToyDiagonal(const Geometry& lattice, ParallelRng& rng)
      : geometry(lattice), even(geometry.checkerboard(Parity::even)), odd(geometry.checkerboard(Parity::odd)) {
    GaugeField<R> V(geometry);
    V.set_random(rng);
    const std::array<std::complex<double>, 3> l{{{4.3, 0.4}, {3.9, -0.6}, {4.8, 0.2}}};
    ColourMatrix<R> diagonal = zero_value<ColourMatrix<R>>(), inverse = zero_value<ColourMatrix<R>>();
    for (int c = 0; c < colours; ++c) {
      diagonal.m[c][c] = Complex<R>(l[c].real(), l[c].imag());
      const std::complex<double> inv = 1.0 / l[c];
      inverse.m[c][c] = Complex<R>(inv.real(), inv.imag());
    }
    for_each_coordinate(geometry, [&](const Coordinate& x) {
      const ColourMatrix<R> v = peek(V[0], x);
      poke(D, x, ColourMatrix<R>(v * diagonal * adj(v)));
      poke(D_inverse, x, ColourMatrix<R>(v * inverse * adj(v)));
    });
    D_even = pick(Parity::even, D);
    D_odd = pick(Parity::odd, D);
    D_inverse_even = pick(Parity::even, D_inverse);
    D_inverse_odd = pick(Parity::odd, D_inverse);
  }
};

// A random gauge field and the toy's diagonal on one lattice, from one
// random stream (the links first).
struct ToyFields {
  Geometry geometry;
  ParallelRng rng{23};
  GaugeField<R> U;
  ToyDiagonal diagonal;

  explicit ToyFields(const Coordinate& dims) : geometry(dims), U(random_links(geometry, rng)), diagonal(geometry, rng) {}
  static GaugeField<R> random_links(const Geometry& geometry, ParallelRng& rng) {
    GaugeField<R> links(geometry);
    links.set_random(rng);
    return links;
  }
};

// D psi or D^+ psi, site by site.
template <int Sign, class F>
auto times_diagonal(const Links& D, const F& psi) {
  if constexpr (Sign > 0) return D * psi;
  else return adj(D) * psi;
}

// What makes the toy action besides the links.
struct ToyParameters {
  const ToyDiagonal* diagonal = nullptr;
  double label = 0;  // the action's only number, for the check that operators belong together
  std::string describe() const { return "toy " + std::to_string(label); }
};

class ToyEvenOddAction;

// M = D - 1/2 Dslash on the whole lattice, one expression, made from the
// links and the parameters (as hybrid Monte Carlo makes it at every step).
class ToyAction {
 public:
  using real_type = R;
  using width_type = DefaultWidth;
  using Parameters = ToyParameters;
  using EvenOddAction = ToyEvenOddAction;
  static constexpr const char* name = "toy";
  static constexpr double flops_per_site = 1320 + 264 + 2 * 24;
  static constexpr const char* profile_name = "toy M";
  static constexpr const char* adjoint_profile_name = "toy M^+";

  ToyAction(const GaugeField<R>& U, const ToyParameters& parameters) : U_(&U), parameters_(parameters) {}

  const Geometry& geometry() const { return U_->geometry(); }
  const GaugeField<R>& gauge() const { return *U_; }
  const ToyParameters& toy_parameters() const { return parameters_; }
  std::vector<double> parameters() const { return {parameters_.label}; }
  std::string describe() const { return parameters_.describe(); }
  template <int Sign, class F> auto M(const F& psi) const {
    return times_diagonal<Sign>(parameters_.diagonal->D, psi) - 0.5 * wilson_hopping<Sign>(*U_, psi);
  }

 private:
  const GaugeField<R>* U_;
  ToyParameters parameters_;
};

// Its even-odd blocks: all the even-odd code and the pseudofermion get
// from it. The hopping term is Wilson's, with kappa = -1/2 and periodic
// links, so its force is the library's outer products on the whole-lattice
// links; the diagonal does not depend on the links and has no force.
class ToyEvenOddAction {
 public:
  using real_type = R;
  using width_type = DefaultWidth;
  static constexpr double hopping_flops_per_site = 1320;
  static constexpr double diagonal_flops_per_site = 264;

  explicit ToyEvenOddAction(const ToyAction& action)
      : U_(&action.gauge()), parameters_(action.toy_parameters()), U_even_(split(Parity::even)),
        U_odd_(split(Parity::odd)) {}

  const Geometry& even_geometry() const { return diagonal().even; }
  const Geometry& odd_geometry() const { return diagonal().odd; }
  double hopping_coefficient() const { return -0.5; }
  std::vector<double> parameters() const { return {parameters_.label}; }
  std::string describe() const { return parameters_.describe(); }
  template <int Sign, class F> auto hopping_to_even(const F& odd_field) const {
    return wilson_hopping<Sign>(U_even_, U_odd_, odd_field);
  }
  template <int Sign, class F> auto hopping_to_odd(const F& even_field) const {
    return wilson_hopping<Sign>(U_odd_, U_even_, even_field);
  }
  template <int Sign, class F> auto diagonal(Parity parity, const F& psi) const {
    return times_diagonal<Sign>(parity == Parity::even ? diagonal().D_even : diagonal().D_odd, psi);
  }
  template <int Sign, class F> auto diagonal_inverse(Parity parity, const F& psi) const {
    return times_diagonal<Sign>(parity == Parity::even ? diagonal().D_inverse_even : diagonal().D_inverse_odd, psi);
  }
  template <class Psi>
  void add_hopping_force(const Psi& X, const Psi& Y, GaugeField<R>& P, double coefficient) const {
    latte::add_hopping_force(*U_, X, Y, P, coefficient);
  }
  template <class Psi> void add_diagonal_force(const Psi&, const Psi&, GaugeField<R>&, double) const {}

 private:
  const ToyDiagonal& diagonal() const { return *parameters_.diagonal; }
  std::array<Links, 4> split(Parity parity) const {
    const Geometry& half = parity == Parity::even ? diagonal().even : diagonal().odd;
    std::array<Links, 4> links{Links(half), Links(half), Links(half), Links(half)};
    for (int mu = 0; mu < 4; ++mu) links[mu] = pick(parity, (*U_)[mu]);
    return links;
  }

  const GaugeField<R>* U_;
  ToyParameters parameters_;
  std::array<Links, 4> U_even_, U_odd_;
};

static_assert(FermionAction<ToyAction>);
static_assert(EvenOddFermionAction<ToyEvenOddAction>);
static_assert(DynamicalFermionAction<ToyAction>);
static_assert(!ConstantDiagonal<ToyEvenOddAction>);
static_assert(ConstantDiagonal<WilsonEvenOddAction<double>>);

class ToyFermion : public ::testing::Test {
 public:  // the checks below are function templates over Sign
  ToyFields fields{{4, 4, 4, 8}};
  const ToyDiagonal& diagonal = fields.diagonal;
  FermionOperator<ToyAction> M{ToyAction(fields.U, {&diagonal})};
  EvenOddOperator<ToyEvenOddAction> schur{ToyEvenOddAction(M.action())};
  using Field = Lattice<Spinor<R>>;
  Field psi{fields.geometry}, psi_e{diagonal.even}, psi_o{diagonal.odd};
  void SetUp() override {
    ParallelRng rng(31);
    rng.gaussian(psi);
    psi_e = pick(Parity::even, psi);
    psi_o = pick(Parity::odd, psi);
  }
  double relative_difference(const Field& a, const Field& b) const { return std::sqrt(norm2(a - b) / norm2(b)); }
};

TEST_F(ToyFermion, TheDiagonalIsAMatrixThatDiffersFromSiteToSite) {
  // Without this the tests below would not tell a matrix from a number.
  const ColourMatrix<R> here = peek(diagonal.D, Coordinate{0, 0, 0, 0}), there = peek(diagonal.D, Coordinate{1, 0, 0, 0});
  EXPECT_GT(std::abs(static_cast<double>(real(here.m[0][1]))) + std::abs(static_cast<double>(imag(here.m[0][1]))), 1e-2);
  EXPECT_GT(max_abs_difference(here, there), 1e-2);
  EXPECT_GT(max_abs_difference(here, adj(here)), 1e-2);  // not hermitian: M^+ differs from M in the diagonal too
  // The inverse is exact site by site, for D and for D^+.
  Field back_e(diagonal.even), back_o(diagonal.odd);
  back_e = schur.MeeInv(schur.Mee(psi_e));
  back_o = schur.MooInv<-1>(schur.Moo<-1>(psi_o));
  EXPECT_LT(relative_difference(back_e, psi_e), 1e-14);
  EXPECT_LT(relative_difference(back_o, psi_o), 1e-14);
}

// M psi on the whole lattice, parity by parity from the blocks:
// (M psi)_e = Mee psi_e + Meo psi_o, (M psi)_o = Moe psi_e + Moo psi_o.
template <int Sign, class Fixture>
void expect_blocks_of_the_whole_operator(Fixture& t) {
  Lattice<Spinor<R>> whole(t.fields.geometry), out_e(t.diagonal.even), out_o(t.diagonal.odd),
      expected_e(t.diagonal.even), expected_o(t.diagonal.odd);
  if constexpr (Sign > 0) t.M.apply(whole, t.psi);
  else t.M.apply_dagger(whole, t.psi);
  expected_e = pick(Parity::even, whole);
  expected_o = pick(Parity::odd, whole);
  out_e = t.schur.template Mee<Sign>(t.psi_e) + t.schur.template Meo<Sign>(t.psi_o);
  out_o = t.schur.template Moe<Sign>(t.psi_e) + t.schur.template Moo<Sign>(t.psi_o);
  EXPECT_LT(t.relative_difference(out_e, expected_e), 1e-14) << "Sign " << Sign;
  EXPECT_LT(t.relative_difference(out_o, expected_o), 1e-14) << "Sign " << Sign;
}

TEST_F(ToyFermion, BlocksAreThoseOfTheWholeOperator) {
  expect_blocks_of_the_whole_operator<+1>(*this);
  expect_blocks_of_the_whole_operator<-1>(*this);
}

// The Schur complement is the elimination of the odd sites: with
// y_o = -Moo^-1 Moe psi_e, M (psi_e, y_o) = (Mhat psi_e, 0). M is the whole
// operator's own expression, not the blocks; the same for M^+ and Mhat^+.
template <int Sign, class Fixture>
void expect_schur_complement_eliminates_the_odd_sites(Fixture& t) {
  Lattice<Spinor<R>> y_o(t.diagonal.odd), x(t.fields.geometry), Mx(t.fields.geometry), Mx_e(t.diagonal.even),
      Mx_o(t.diagonal.odd), schur_e(t.diagonal.even);
  y_o = -1.0 * t.schur.template MooInv<Sign>(t.schur.template Moe<Sign>(t.psi_e));
  x = merge(t.psi_e, y_o);
  if constexpr (Sign > 0) {
    t.M.apply(Mx, x);
    t.schur.apply(schur_e, t.psi_e);
  } else {
    t.M.apply_dagger(Mx, x);
    t.schur.apply_dagger(schur_e, t.psi_e);
  }
  Mx_e = pick(Parity::even, Mx);
  Mx_o = pick(Parity::odd, Mx);
  EXPECT_LT(std::sqrt(norm2(Mx_o) / norm2(Mx_e)), 1e-14) << "Sign " << Sign;
  EXPECT_LT(t.relative_difference(schur_e, Mx_e), 1e-14) << "Sign " << Sign;
  // Not trivially so: Mhat differs from Mee by the odd sites' contribution.
  Lattice<Spinor<R>> diagonal_only(t.diagonal.even);
  diagonal_only = t.schur.template Mee<Sign>(t.psi_e);
  EXPECT_GT(t.relative_difference(schur_e, diagonal_only), 1e-2) << "Sign " << Sign;
}

TEST_F(ToyFermion, SchurComplementIsTheEliminationOfTheOddSites) {
  expect_schur_complement_eliminates_the_odd_sites<+1>(*this);
  expect_schur_complement_eliminates_the_odd_sites<-1>(*this);
}

TEST_F(ToyFermion, SchurDaggerIsTheAdjoint) {
  // <chi, Mhat psi> = <Mhat^+ chi, psi> on random even fields; also with the
  // fused norm of Mhat psi.
  Field chi(diagonal.even), Mpsi(diagonal.even), Mdchi(diagonal.even), fused(diagonal.even);
  ParallelRng(37).gaussian(chi);
  schur.apply(Mpsi, psi_e);
  schur.apply_dagger(Mdchi, chi);
  const auto left = innerProduct(chi, Mpsi), right = innerProduct(Mdchi, psi_e);
  const double scale = std::sqrt(norm2(chi) * norm2(psi_e));
  EXPECT_NEAR(real(left), real(right), 1e-13 * scale);
  EXPECT_NEAR(imag(left), imag(right), 1e-13 * scale);
  EXPECT_GT(std::abs(imag(left)), 1e-6 * scale);  // Mhat is not hermitian: the check has teeth
  const double norm = schur.apply_and_norm2(fused, psi_e);
  EXPECT_TRUE(fields_near(fused, Mpsi, 1e-15));
  EXPECT_NEAR(norm, norm2(Mpsi), 1e-12 * norm);
}

TEST_F(ToyFermion, EvenOddSolveAgreesWithTheUnpreconditionedSolve) {
  const SolverControl control{1e-10, 4000};
  Field x_eo(fields.geometry), x_plain(fields.geometry), Mx(fields.geometry);
  x_eo = zero;
  x_plain = zero;
  const SolverReport eo = solve_even_odd(schur, M, x_eo, psi, control);
  const SolverReport plain = solve_wilson(M, x_plain, psi, control);
  M.apply(Mx, x_eo);
  const double residual = std::sqrt(norm2(psi - Mx) / norm2(psi));  // recomputed here, independently
  EXPECT_LE(residual, 1e-10);
  EXPECT_NEAR(eo.true_residual, residual, 1e-12);
  EXPECT_LE(plain.true_residual, 1e-10);
  EXPECT_LE(relative_difference(x_eo, x_plain), 1e-8);
  EXPECT_LT(eo.iterations, plain.iterations);
  std::printf("toy action: even-odd %d iterations, unpreconditioned %d\n", eo.iterations, plain.iterations);
}

TEST_F(ToyFermion, ForeignSchurOperatorIsAClearError) {
  const EvenOddOperator<ToyEvenOddAction> other{ToyEvenOddAction(ToyAction(fields.U, {&diagonal, 1.0}))};
  Field x(fields.geometry), half(diagonal.even);
  x = zero;
  const std::string message = error_of<GeometryMismatch>([&] { solve_even_odd(other, M, x, psi, SolverControl{}); });
  EXPECT_NE(message.find("the Schur operator (toy 1.000000, "), std::string::npos) << message;
  EXPECT_NE(message.find("does not belong to M (toy 0.000000)"), std::string::npos) << message;
  EXPECT_THROW(solve_even_odd(schur, M, half, psi, SolverControl{}), GeometryMismatch);
}

// Hybrid Monte Carlo with two flavours of the toy, through the monomial
// every action uses (solvers/qcd/update/pseudofermion_monomial.hpp): it
// gets nothing of the toy but the members above. The toy's even-odd
// pseudofermion differs from Wilson's where it matters: Moo^-1 is a field
// and not hermitian, so X_o and Y_o take different inverses.
class ToyFermionHmc : public ::testing::Test {
 protected:
  ToyFields fields{{4, 4, 4, 4}};
  GaugeField<R>& U = fields.U;
  ToyParameters toy{&fields.diagonal};
  GaugeMonomial<R> gauge{GaugeAction::wilson(5.6)};
  PseudofermionSolves tight{{1e-12, 100000, false}, {1e-12, 100000, false}};
};

TEST_F(ToyFermionHmc, ForceIsTheDerivativeOfTheAction) {
  rough_gauge_field(U, 41, 0.35);
  for (const bool even_odd : {false, true}) {
    TwoFlavourMonomial<ToyAction> quarks(fields.geometry, toy, even_odd, tight);
    expect_force_is_derivative_of_action(quarks, U, even_odd ? "toy, even-odd" : "toy");
  }
}

TEST_F(ToyFermionHmc, EnergyViolationScalesAsTheStepSquared) {
  // Near equilibrium of the quenched action: a few trajectories from the unit field.
  U.set_unit();
  {
    MolecularDynamics<R> md({{IntegratorScheme::omelyan, 4, {&gauge}}});
    HybridMonteCarlo<R> hmc(U, md, {&gauge}, {1.0, 7, true, 3});
    for (int i = 0; i < 8; ++i) hmc.trajectory();
  }
  GaugeField<R> start(fields.geometry);
  for (int mu = 0; mu < 4; ++mu) start[mu] = U[mu];
  TwoFlavourMonomial<ToyAction> quarks(fields.geometry, toy, true, tight);
  EXPECT_EQ(quarks.describe(), "two flavours, toy, toy 0.000000, even-odd");
  std::vector<double> steps, violations;
  for (const int n : {16, 32, 64}) {
    for (int mu = 0; mu < 4; ++mu) U[mu] = start[mu];
    // Both terms on one level: the step of both forces is 1 / n; the same
    // momenta and pseudofermion (seed 21) for every n.
    MolecularDynamics<R> md({{IntegratorScheme::leapfrog, n, {&quarks, &gauge}}});
    HybridMonteCarlo<R> hmc(U, md, {&quarks, &gauge}, {1.0, 21, false});
    violations.push_back(hmc.trajectory().delta_h);
    steps.push_back(1.0 / n);
    EXPECT_GT(largest_link_difference(U, start), 0.05) << n << " steps: the links should move";
  }
  std::printf("toy HMC: |dH| = %.3g, %.3g, %.3g at 16, 32, 64 steps\n", std::abs(violations[0]),
              std::abs(violations[1]), std::abs(violations[2]));
  EXPECT_NEAR(log_log_slope(steps, violations), 2.0, 0.25)
      << "|dH| = " << violations[0] << ", " << violations[1] << ", " << violations[2];
  // A wrong quark force would leave dH of the order of the quarks' change
  // of action along the trajectory however small the step.
  EXPECT_LT(std::abs(violations[2]), 0.05);
  EXPECT_GT(quarks.tally().iterations, 0);
}

}  // namespace
}  // namespace latte::testing
