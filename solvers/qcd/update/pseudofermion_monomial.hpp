#pragma once
// Two flavours of dynamical Wilson or Wilson-clover quarks in hybrid Monte
// Carlo: det(M^+ M) = integral dphi exp(-phi^+ (M^+ M)^-1 phi), a
// pseudofermion phi refreshed at the start of every trajectory.
//
// Unpreconditioned: S = phi^+ (M^+ M)^-1 phi on the whole lattice.
// Even-odd preconditioned, with Mhat the Schur complement on the even
// sites (solvers/qcd/fermions/even_odd_operator.hpp), det M = det Moo det Mhat, so
//   det(M^+ M) = (det Moo)^2 det(Mhat^+ Mhat),
//   S = phi_e^+ (Mhat^+ Mhat)^-1 phi_e  [+ -2 sum_{x odd} log det T(x)],
// the bracket for clover only (Wilson's Moo is the constant 4 + m): it is
// the separate CloverDeterminantMonomial below, which needs no solve and may
// sit on a finer time scale.
//
// Heatbath: eta with density exp(-eta^+ eta) (each real component of
// variance 1/2), phi = M^+ eta (phi_e = Mhat^+ eta_e): S = eta^+ eta at the
// start of the trajectory, used as it is (no solve).
//
// Force (solvers/qcd/fermions/fermion_force.hpp, solvers/qcd/fermions/clover_force.hpp): with
// X = (M^+ M)^-1 phi and Y = M X, dS = -2 Re(Y^+ dM X). Even-odd, with
// X_e = (Mhat^+ Mhat)^-1 phi_e and Y_e = Mhat X_e, differentiating
// Mhat = Mee - Meo Moo^-1 Moe gives the same formula on the whole lattice
// with
//   X_o = -Moo^-1 Moe X_e,      Y_o = -(Moo^+)^-1 (Meo)^+ Y_e,
// so one force routine serves both: the hopping term's outer products and,
// for clover, the insertion -2 Re(Y^+ dT X) into the clover leaves.
//
// The solves start from zero, so a trajectory is a deterministic function
// of the links and momenta (reversible to the solver's tolerance) and the
// same on every rank count.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "solvers/krylov/conjugate_gradient.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/clover_force.hpp"
#include "solvers/qcd/fermions/fermion_force.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/update/hmc_monomial.hpp"

namespace latte {

// The CG tolerances of a pseudofermion: the action's enters dH directly
// (the Metropolis test), the force's only the molecular dynamics.
struct PseudofermionSolves {
  SolverControl action{1e-10, 100000, false};
  SolverControl force{1e-8, 100000, false};
};

// What the solves of a monomial cost, summed since it was made.
struct SolveTally {
  long solves = 0;
  long iterations = 0;
  double seconds = 0;
};

// The Wilson action's operators for the monomial.
template <class R, class W = DefaultWidth>
struct WilsonFermions {
  using Dirac = WilsonDirac<R, W>;
  using Schur = WilsonEvenOdd<R, W>;
  static constexpr bool has_clover = false;
  double mass = 0;
  FermionBoundary boundary = FermionBoundary::periodic();

  Dirac dirac(const GaugeField<R, W>& U) const { return Dirac(U, mass, boundary); }
  static Schur schur(const Dirac& M) { return Schur(M.gauge(), M.mass(), M.boundary()); }
  static const GaugeField<R, W>& hopping_links(const Dirac& M) { return M.links(); }
  std::string describe() const { return "Wilson, " + wilson_description(mass, boundary); }
};

// The Wilson-clover action's operators (the clover term is computed from
// the links each time an operator is made).
template <class R, class W = DefaultWidth>
struct CloverFermions {
  using Dirac = CloverDirac<R, W>;
  using Schur = CloverEvenOdd<R, W>;
  static constexpr bool has_clover = true;
  double mass = 0;
  double c_sw = 0;
  FermionBoundary boundary = FermionBoundary::periodic();

  Dirac dirac(const GaugeField<R, W>& U) const { return Dirac(U, mass, c_sw, boundary); }
  static Schur schur(const Dirac& M) { return Schur(M); }
  static const GaugeField<R, W>& hopping_links(const Dirac& M) { return M.links(); }
  std::string describe() const { return "Wilson-clover, " + clover_description(mass, c_sw, boundary); }
};

template <class Fermions, class R = double, class W = DefaultWidth>
class TwoFlavourMonomial final : public Monomial<R, W> {
 public:
  using Field = Lattice<Spinor<R>, W>;

  TwoFlavourMonomial(const Geometry& geometry, const Fermions& fermions, bool even_odd,
                     const PseudofermionSolves& solves = {})
      : fermions_(fermions), even_odd_(even_odd), solves_(solves),
        phi_(even_odd ? geometry.checkerboard(Parity::even) : geometry) {}

  std::string describe() const override {
    return "two flavours, " + fermions_.describe() + (even_odd_ ? ", even-odd" : "");
  }

  void refresh(const GaugeField<R, W>& U, std::uint64_t key) override {
    Field eta(U.geometry(), Uninitialized{});
    ParallelRng rng(key);
    rng.gaussian(eta);
    eta = std::sqrt(0.5) * eta;
    const auto M = fermions_.dirac(U);
    if (even_odd_) {
      const auto schur = Fermions::schur(M);
      Field eta_even(phi_.geometry(), Uninitialized{});
      eta_even = pick(Parity::even, eta);
      schur.apply_dagger(phi_, eta_even);
      start_action_ = norm2(eta_even);
    } else {
      M.apply_dagger(phi_, eta);
      start_action_ = norm2(eta);
    }
    fresh_ = true;
  }

  // phi^+ (M^+ M)^-1 phi; eta^+ eta right after the refresh.
  double action(const GaugeField<R, W>& U) override {
    if (fresh_) {
      fresh_ = false;
      return start_action_;
    }
    Field X(phi_.geometry(), Uninitialized{});
    const auto M = fermions_.dirac(U);
    if (even_odd_) solve(Fermions::schur(M), X, solves_.action);
    else solve(M, X, solves_.action);
    return real(innerProduct(phi_, X));
  }

  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    fresh_ = false;
    const auto M = fermions_.dirac(U);
    Field X(U.geometry(), Uninitialized{}), Y(U.geometry(), Uninitialized{});
    if (even_odd_) {
      const auto schur = Fermions::schur(M);
      Field X_even(phi_.geometry(), Uninitialized{}), Y_even(phi_.geometry(), Uninitialized{});
      solve(schur, X_even, solves_.force);
      schur.apply(Y_even, X_even);
      Field X_odd(schur.odd_geometry(), Uninitialized{}), Y_odd(schur.odd_geometry(), Uninitialized{});
      X_odd = -schur.template MooInv<+1>(schur.template Moe<+1>(X_even));
      Y_odd = -schur.template MooInv<-1>(schur.template Moe<-1>(Y_even));
      X = merge(X_even, X_odd);
      Y = merge(Y_even, Y_odd);
    } else {
      solve(M, X, solves_.force);
      M.apply(Y, X);
    }
    // dS = Re(Y^+ dDslash X) - 2 Re(Y^+ dT X); P -= eps F is P += (eps/2) Ta(O).
    add_hopping_force(Fermions::hopping_links(M), X, Y, P, 0.5 * eps);
    if constexpr (Fermions::has_clover) {
      CloverInsertion<R, W> lambda(U.geometry());
      clover_insertion_from_spinors(lambda, X, Y, fermions_.c_sw);
      add_clover_force(U, lambda, P, 0.5 * eps);
    }
  }

  const Fermions& fermions() const { return fermions_; }
  bool even_odd() const { return even_odd_; }
  const SolveTally& tally() const { return tally_; }
  const Field& pseudofermion() const { return phi_; }

 private:
  // X = (A^+ A)^-1 phi by CG from zero.
  template <class Operator> void solve(const Operator& A, Field& X, const SolverControl& control) {
    const auto start = std::chrono::steady_clock::now();
    X = 0.0 * phi_;
    SolverReport report;
    try {
      report = conjugate_gradient(NormalOperator<Operator>(A), X, phi_, control);
    } catch (const SolverError& error) {
      throw SolverError("Latte two-flavour pseudofermion (" + describe() + "): " + error.what(), error.report());
    }
    ++tally_.solves;
    tally_.iterations += report.iterations;
    tally_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  Fermions fermions_;
  bool even_odd_;
  PseudofermionSolves solves_;
  Field phi_;
  double start_action_ = 0;
  bool fresh_ = false;
  SolveTally tally_;
};

// -2 sum_{x odd} log det T(x): the odd clover blocks' share of two flavours'
// det(M^+ M) when the pseudofermion is even-odd preconditioned.
template <class R = double, class W = DefaultWidth>
class CloverDeterminantMonomial final : public Monomial<R, W> {
 public:
  CloverDeterminantMonomial(double mass, double c_sw) : mass_(mass), c_sw_(c_sw) {}

  std::string describe() const override {
    return "clover log det on odd sites, m = " + std::to_string(mass_) + ", c_sw = " + std::to_string(c_sw_);
  }
  double action(const GaugeField<R, W>& U) override {
    const CloverTerm<R, W> term(U, mass_, c_sw_);
    return -2.0 * sum(map(functors::CloverLogDeterminant{}, pick(Parity::odd, term.term())));
  }
  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    const CloverTerm<R, W> term(U, mass_, c_sw_);
    Lattice<CloverSite<R>, W> odd_inverse(U.geometry().checkerboard(Parity::odd), Uninitialized{});
    odd_inverse = pick(Parity::odd, term.inverse());
    CloverInsertion<R, W> lambda(U.geometry());
    clover_insertion_from_log_det(lambda, odd_inverse, c_sw_, -2.0);
    add_clover_force(U, lambda, P, 0.5 * eps);
  }

 private:
  double mass_, c_sw_;
};

}  // namespace latte
