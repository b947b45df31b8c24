#pragma once
// Hasenbusch mass preconditioning (Hasenbusch, Phys. Lett. B519 (2001) 177):
// two flavours of a light action M1 written as a heavier pair M2 times the
// ratio
//   det(M1^+ M1) = det(M2^+ M2) x det(M1^+ M1) / det(M2^+ M2).
// Each factor has a smaller force than the light determinant alone, the
// heavy one costs fewer CG iterations, and the cheap factors go on finer
// time scales of the nested integrator than the light ratio: fewer light
// solves per trajectory at the same acceptance. A chain of masses
// m1 < m2 < ... < mk is the ratios (m1, m2), (m2, m3), ... and
// TwoFlavourMonomial at mk.
//
// The ratio as one pseudofermion: with K = M2 (M1^+ M1)^-1 M2^+,
// det K^-1 = det(M1^+ M1) / det(M2^+ M2), so
//   S = phi^+ M2 (M1^+ M1)^-1 M2^+ phi = chi^+ X,
//   chi = M2^+ phi,  X = (M1^+ M1)^-1 chi;
// heatbath phi = (M2^+)^-1 M1^+ eta = M2 (M2^+ M2)^-1 M1^+ eta (one CG on
// M2's normal operator), which makes S = eta^+ eta at the start.
//
// Force: dS = 2 Re(X^+ dchi) - X^+ d(M1^+ M1) X with dchi = dM2^+ phi:
//   dS = -2 Re(Y1^+ dM1 X) - 2 Re((-phi)^+ dM2 X),   Y1 = M1 X,
// two terms of the form of every pseudofermion force
// (solvers/qcd/update/pseudofermion_force.hpp), one with each operator's
// blocks. Even-odd, the same with Mhat1, Mhat2 on the even sites.
//
// Even-odd and clover: det M = det Moo det Mhat for each mass, and the
// chain's Moo factors cancel down to the lightest one's: the chain is
// TwoFlavourMonomial(mk, even-odd), the ratios of the Mhat's, and
// CloverDeterminantMonomial of the lightest mass m1 alone (Wilson's
// Moo = 4 + m is a constant and needs none).
//
// The two actions must be of one kind on the same links, differing in
// their parameters (the masses; for clover the same c_sw).

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
#include "solvers/qcd/update/pseudofermion_monomial.hpp"

namespace latte {

template <DynamicalFermionAction Action>
class HasenbuschRatioMonomial final : public Monomial<typename Action::real_type, typename Action::width_type> {
 public:
  using R = typename Action::real_type;
  using W = typename Action::width_type;
  using Parameters = typename Action::Parameters;
  using Blocks = typename Action::EvenOddAction;
  using Field = Lattice<Spinor<R>, W>;

  // det(M1^+ M1) / det(M2^+ M2): `light` is M1's parameters, `heavy` M2's.
  HasenbuschRatioMonomial(const Geometry& geometry, const Parameters& light, const Parameters& heavy, bool even_odd,
                          const PseudofermionSolves& solves = {})
      : light_(light), heavy_(heavy), even_odd_(even_odd), solves_(solves),
        phi_(even_odd ? geometry.checkerboard(Parity::even) : geometry) {}

  std::string describe() const override {
    return "Hasenbusch ratio, " + std::string(Action::name) + ", " + light_.describe() + " over " + heavy_.describe() +
           (even_odd_ ? ", even-odd" : "");
  }

  void refresh(const GaugeField<R, W>& U, std::uint64_t key) override {
    Field eta(U.geometry(), Uninitialized{});
    ParallelRng rng(key);
    rng.gaussian(eta);
    eta = std::sqrt(0.5) * eta;
    const Action light(U, light_), heavy(U, heavy_);
    Field eta_part(phi_.geometry(), Uninitialized{}), source(phi_.geometry(), Uninitialized{}),
        Z(phi_.geometry(), Uninitialized{});
    if (even_odd_) {
      eta_part = pick(Parity::even, eta);
      const Schur M1{Blocks(light)}, M2{Blocks(heavy)};
      M1.apply_dagger(source, eta_part);
      solve(M2, Z, source, solves_.action);  // Z = (M2^+ M2)^-1 M1^+ eta
      M2.apply(phi_, Z);
    } else {
      eta_part = eta;
      const Whole M1(light), M2(heavy);
      M1.apply_dagger(source, eta_part);
      solve(M2, Z, source, solves_.action);
      M2.apply(phi_, Z);
    }
    start_action_ = norm2(eta_part);
    fresh_ = true;
  }

  // chi^+ (M1^+ M1)^-1 chi with chi = M2^+ phi; eta^+ eta right after the refresh.
  double action(const GaugeField<R, W>& U) override {
    if (fresh_) {
      fresh_ = false;
      return start_action_;
    }
    const Action light(U, light_), heavy(U, heavy_);
    Field chi(phi_.geometry(), Uninitialized{}), X(phi_.geometry(), Uninitialized{});
    if (even_odd_) {
      const Schur M1{Blocks(light)}, M2{Blocks(heavy)};
      M2.apply_dagger(chi, phi_);
      solve(M1, X, chi, solves_.action);
    } else {
      const Whole M1(light), M2(heavy);
      M2.apply_dagger(chi, phi_);
      solve(M1, X, chi, solves_.action);
    }
    return real(innerProduct(chi, X));
  }

  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    fresh_ = false;
    const Action light(U, light_), heavy(U, heavy_);
    Field chi(phi_.geometry(), Uninitialized{}), X(phi_.geometry(), Uninitialized{}),
        Y(phi_.geometry(), Uninitialized{});
    if (even_odd_) {
      const Schur M1{Blocks(light)}, M2{Blocks(heavy)};
      M2.apply_dagger(chi, phi_);
      solve(M1, X, chi, solves_.force);
      M1.apply(Y, X);
      add_even_odd_pseudofermion_force(M1, X, Y, P, eps);
      Y = -phi_;
      add_even_odd_pseudofermion_force(M2, X, Y, P, eps);
    } else {
      const Whole M1(light), M2(heavy);
      M2.apply_dagger(chi, phi_);
      solve(M1, X, chi, solves_.force);
      M1.apply(Y, X);
      add_pseudofermion_force(Blocks(light), X, Y, P, eps);
      Y = -phi_;
      add_pseudofermion_force(Blocks(heavy), X, Y, P, eps);
    }
  }

  const Parameters& light_parameters() const { return light_; }
  const Parameters& heavy_parameters() const { return heavy_; }
  bool even_odd() const { return even_odd_; }
  const SolveTally& tally() const { return tally_; }

 private:
  using Whole = FermionOperator<Action>;
  using Schur = EvenOddOperator<Blocks>;

  // X = (A^+ A)^-1 b by CG from zero.
  template <class Operator>
  void solve(const Operator& A, Field& X, const Field& b, const SolverControl& control) {
    normal_solve_from_zero(A, X, b, control, tally_, "Hasenbusch ratio (" + describe() + ")");
  }

  Parameters light_, heavy_;
  bool even_odd_;
  PseudofermionSolves solves_;
  Field phi_;
  double start_action_ = 0;
  bool fresh_ = false;
  SolveTally tally_;
};

}  // namespace latte
