#pragma once
// Two flavours of dynamical quarks of any action in hybrid Monte Carlo
// (solvers/qcd/fermions/fermion_action.hpp: DynamicalFermionAction; Wilson,
// Wilson-clover, a test's toy): det(M^+ M) = integral dphi
// exp(-phi^+ (M^+ M)^-1 phi), a pseudofermion phi refreshed at the start of
// every trajectory. The monomial knows the action only through its
// interface: it makes the action from the links and the action's
// Parameters at every step, the even-odd blocks from the action, and takes
// the force from the blocks.
//
// Unpreconditioned: S = phi^+ (M^+ M)^-1 phi on the whole lattice.
// Even-odd preconditioned, with Mhat the Schur complement on the even
// sites (solvers/qcd/fermions/even_odd_operator.hpp), det M = det Moo det Mhat, so
//   det(M^+ M) = (det Moo)^2 det(Mhat^+ Mhat),
//   S = phi_e^+ (Mhat^+ Mhat)^-1 phi_e  [- log (det Moo)^2],
// and this monomial is the first term. The bracket is a constant, and no
// monomial at all, where Moo does not depend on the links (Wilson's 4 + m,
// a twisted mass); for clover it is -2 sum_{x odd} log det T(x), the
// separate CloverDeterminantMonomial (solvers/qcd/update/clover_determinant_monomial.hpp)
// that a clover chain adds beside this one: it needs no solve and may sit on
// a finer time scale.
//
// Heatbath: eta with density exp(-eta^+ eta) (each real component of
// variance 1/2), phi = M^+ eta (phi_e = Mhat^+ eta_e): S = eta^+ eta at the
// start of the trajectory, used as it is (no solve).
//
// Force (solvers/qcd/update/pseudofermion_force.hpp): with
// X = (M^+ M)^-1 phi and Y = M X, dS = -2 Re(Y^+ dM X). Even-odd, with
// X_e = (Mhat^+ Mhat)^-1 phi_e and Y_e = Mhat X_e, the same formula on the
// whole lattice with X and Y extended to the odd sites, so one force serves
// both: the blocks' hopping part (the outer products along the links) and
// their diagonal part (for clover the insertion -2 Re(Y^+ dT X) into the
// clover leaves; nothing for Wilson).
//
// The solves start from zero, so a trajectory is a deterministic function
// of the links and momenta (reversible to the solver's tolerance) and the
// same on every rank count.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>

#include "solvers/krylov/conjugate_gradient.hpp"
#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/fermions/fermion_action.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/update/hmc_monomial.hpp"
#include "solvers/qcd/update/pseudofermion_force.hpp"

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

// X = (A^+ A)^-1 b by CG from zero (a trajectory is then a deterministic
// function of links and momenta), counted in tally; a failure names the
// monomial `who`. Every pseudofermion monomial's one-shift solves.
template <class Operator, class Field>
void normal_solve_from_zero(const Operator& A, Field& X, const Field& b, const SolverControl& control,
                            SolveTally& tally, const std::string& who) {
  const auto start = std::chrono::steady_clock::now();
  X = 0.0 * b;
  SolverReport report;
  try {
    report = conjugate_gradient(NormalOperator<Operator>(A), X, b, control);
  } catch (const SolverError& error) {
    throw SolverError("Latte " + who + ": " + error.what(), error.report());
  }
  ++tally.solves;
  tally.iterations += report.iterations;
  tally.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Two flavours of the action Action (WilsonAction<double>,
// CloverAction<double>, ...) with parameters Action::Parameters.
template <DynamicalFermionAction Action>
class TwoFlavourMonomial final : public Monomial<typename Action::real_type, typename Action::width_type> {
 public:
  using R = typename Action::real_type;
  using W = typename Action::width_type;
  using Parameters = typename Action::Parameters;
  using Blocks = typename Action::EvenOddAction;
  using Field = Lattice<Spinor<R>, W>;

  TwoFlavourMonomial(const Geometry& geometry, const Parameters& parameters, bool even_odd,
                     const PseudofermionSolves& solves = {})
      : parameters_(parameters), even_odd_(even_odd), solves_(solves),
        phi_(even_odd ? geometry.checkerboard(Parity::even) : geometry) {}

  std::string describe() const override {
    return "two flavours, " + std::string(Action::name) + ", " + parameters_.describe() + (even_odd_ ? ", even-odd" : "");
  }

  void refresh(const GaugeField<R, W>& U, std::uint64_t key) override {
    Field eta(U.geometry(), Uninitialized{});
    ParallelRng rng(key);
    rng.gaussian(eta);
    eta = std::sqrt(0.5) * eta;
    const Action action(U, parameters_);
    if (even_odd_) {
      const Schur schur{Blocks(action)};
      Field eta_even(phi_.geometry(), Uninitialized{});
      eta_even = pick(Parity::even, eta);
      schur.apply_dagger(phi_, eta_even);
      start_action_ = norm2(eta_even);
    } else {
      const Whole M(action);
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
    const Action action(U, parameters_);
    if (even_odd_) solve(Schur{Blocks(action)}, X, solves_.action);
    else solve(Whole(action), X, solves_.action);
    return real(innerProduct(phi_, X));
  }

  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    fresh_ = false;
    const Action action(U, parameters_);
    if (even_odd_) {
      const Schur schur{Blocks(action)};
      Field X_even(phi_.geometry(), Uninitialized{}), Y_even(phi_.geometry(), Uninitialized{});
      solve(schur, X_even, solves_.force);
      schur.apply(Y_even, X_even);
      add_even_odd_pseudofermion_force(schur, X_even, Y_even, P, eps);
    } else {
      const Whole M(action);
      Field X(U.geometry(), Uninitialized{}), Y(U.geometry(), Uninitialized{});
      solve(M, X, solves_.force);
      M.apply(Y, X);
      // The blocks are made only for their force members (the force is on
      // the whole lattice; their halves are not read, but the lattice must
      // split into checkerboards as for even-odd).
      add_pseudofermion_force(Blocks(action), X, Y, P, eps);
    }
  }

  const Parameters& parameters() const { return parameters_; }
  bool even_odd() const { return even_odd_; }
  const SolveTally& tally() const { return tally_; }
  const Field& pseudofermion() const { return phi_; }

 private:
  using Whole = FermionOperator<Action>;
  using Schur = EvenOddOperator<Blocks>;

  // X = (A^+ A)^-1 phi by CG from zero.
  template <class Operator> void solve(const Operator& A, Field& X, const SolverControl& control) {
    normal_solve_from_zero(A, X, phi_, control, tally_, "two-flavour pseudofermion (" + describe() + ")");
  }

  Parameters parameters_;
  bool even_odd_;
  PseudofermionSolves solves_;
  Field phi_;
  double start_action_ = 0;
  bool fresh_ = false;
  SolveTally tally_;
};

}  // namespace latte
