#pragma once
// Rational hybrid Monte Carlo (Clark & Kennedy, Phys. Rev. Lett. 98 (2007)
// 051601): any number of flavours of any DynamicalFermionAction, one
// flavour (the strange quark) above all, as pseudofermions of a rational
// function of the normal operator A = M^+ M (even-odd: Mhat^+ Mhat).
//
// f flavours are det(A)^(f/2). Split into n pseudofermions (the n-th root
// trick: det(A)^(f/2) = [det(A)^(f/(2n))]^n, each factor a smaller force),
// each pseudofermion j has
//   S_j = phi_j^+ r_action(A) phi_j,     r_action(x) ~ x^(-f/(2n)),
//   heatbath phi_j = r_heatbath(A) eta_j, r_heatbath(x) ~ x^(+f/(4n)),
// with eta_j of density exp(-eta^+ eta). Both are rational approximations in
// partial fractions, r(x) = c + sum_k a_k / (x + sigma_k)
// (solvers/rational/rational_approximation.hpp), so r(A) phi is one
// multi-shift CG with shifts sigma_k (solvers/krylov/multi_shift_conjugate_gradient.hpp).
// The power must lie strictly between 0 and 1 (f < 2n): two flavours with
// one pseudofermion is TwoFlavourMonomial (no approximation).
//
// The action at the start of a trajectory is eta^+ eta (no solve):
// r_heatbath(A)^2 r_action(A) = 1 to the two approximations' errors, which
// is what the heatbath needs (tests/test_rational_hmc.cpp measures it).
//
// Force: with X_k = (A + sigma_k)^-1 phi and Y_k = M X_k,
//   dS = -sum_k a_k X_k^+ dA X_k = sum_k a_k (-2 Re(Y_k^+ dM X_k)),
// the two-flavour force of every pole weighted by its residue
// (solvers/qcd/update/pseudofermion_force.hpp), even-odd with X_k and Y_k
// extended to the odd sites. The force is the exact derivative of the
// rational action, whatever the approximation's error.
//
// Even-odd, det M = det Moo det Mhat, so det(M^+ M)^(f/2) =
// |det Moo|^f det(Mhat^+ Mhat)^(f/2): this monomial is the second factor;
// the first is a constant for Wilson (4 + m) and for clover the log det
// monomial with f flavours (CloverDeterminantMonomial(parameters, f)).
//
// The interval: the approximations hold on [lower, upper], which must
// contain the spectrum of A on every configuration of the chain.
// spectral_bounds() measures it (a few Lanczos steps) for the caller to
// compare; solvers/rational/README.md says how to choose the interval.
//
// The solves start from zero, every sum is reproducible: a trajectory is a
// deterministic function of links and momenta, the same bits on any rank
// count.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "solvers/krylov/multi_shift_conjugate_gradient.hpp"
#include "solvers/krylov/spectral_bounds.hpp"
#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/fermions/fermion_action.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/qcd/update/hmc_monomial.hpp"
#include "solvers/qcd/update/pseudofermion_force.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "solvers/rational/rational_approximation.hpp"
#include "solvers/rational/rational_cache.hpp"

namespace latte {

// The two approximations of a rational pseudofermion: of x^(-f/(2n)) for
// the action and force, of x^(f/(4n)) for the heatbath, on one interval.
struct RationalPseudofermionApproximations {
  RationalApproximation action;
  RationalApproximation heatbath;
};

// The powers of f flavours in n pseudofermions, each p/q in lowest terms:
// the action's -f/(2n), the heatbath's f/(4n).
struct RationalPseudofermionPowers {
  int action_numerator, action_denominator, heatbath_numerator, heatbath_denominator;
};
inline RationalPseudofermionPowers rational_pseudofermion_powers(int flavours, int pseudofermions) {
  if (flavours < 1 || pseudofermions < 1 || flavours >= 2 * pseudofermions)
    throw std::invalid_argument("Latte rational pseudofermion: " + std::to_string(flavours) + " flavours in " +
                                std::to_string(pseudofermions) +
                                " pseudofermions need a power f / (2n) strictly between 0 and 1 (f < 2n); two "
                                "flavours in one pseudofermion are TwoFlavourMonomial");
  const int a = std::gcd(flavours, 2 * pseudofermions), h = std::gcd(flavours, 4 * pseudofermions);
  return {-flavours / a, 2 * pseudofermions / a, flavours / h, 4 * pseudofermions / h};
}

// The approximations for `flavours` flavours in `pseudofermions`
// pseudofermions on [lower, upper] to the relative error `tolerance`, read
// from or written to `cache_directory` (solvers/rational/rational_cache.hpp;
// empty: computed without a file).
inline RationalPseudofermionApproximations rational_pseudofermion_approximations(
    int flavours, int pseudofermions, double lower, double upper, double tolerance,
    const std::filesystem::path& cache_directory = {}) {
  const RationalPseudofermionPowers p = rational_pseudofermion_powers(flavours, pseudofermions);
  return {cached_rational_approximation(cache_directory, p.action_numerator, p.action_denominator, lower, upper,
                                        tolerance),
          cached_rational_approximation(cache_directory, p.heatbath_numerator, p.heatbath_denominator, lower, upper,
                                        tolerance)};
}

template <DynamicalFermionAction Action>
class RationalMonomial final : public Monomial<typename Action::real_type, typename Action::width_type> {
 public:
  using R = typename Action::real_type;
  using W = typename Action::width_type;
  using Parameters = typename Action::Parameters;
  using Blocks = typename Action::EvenOddAction;
  using Field = Lattice<Spinor<R>, W>;

  // `pseudofermions` copies of the approximations' pseudofermion; the
  // approximations fix the flavours: f = -2 n power(action).
  RationalMonomial(const Geometry& geometry, const Parameters& parameters, bool even_odd,
                   RationalPseudofermionApproximations approximations, int pseudofermions = 1,
                   const PseudofermionSolves& solves = {})
      : parameters_(parameters), even_odd_(even_odd), r_(std::move(approximations)), solves_(solves) {
    const RationalApproximation &a = r_.action, &h = r_.heatbath;
    // heatbath power = -action power / 2, as integers: h.num * 2 a.den == -a.num h.den.
    if (pseudofermions < 1 || a.poles.empty() || h.poles.empty() ||
        static_cast<long>(h.numerator) * 2 * a.denominator != -static_cast<long>(a.numerator) * h.denominator ||
        a.lower != h.lower || a.upper != h.upper || !(a.power() < 0 && a.power() > -1))
      throw std::invalid_argument(
          "Latte rational pseudofermion: the approximations (" + a.description() + "; " + h.description() +
          ") must be of x^(-f/(2n)) and x^(f/(4n)) on one interval, 0 < f/(2n) < 1, with at least one pseudofermion");
    const Geometry& g = even_odd ? geometry.checkerboard(Parity::even) : geometry;
    for (int j = 0; j < pseudofermions; ++j) phi_.emplace_back(g);
  }

  // f = -2 n p for the action's power p.
  double flavours() const { return -2.0 * static_cast<double>(phi_.size()) * r_.action.power(); }

  std::string describe() const override {
    char text[96];
    std::snprintf(text, sizeof text, "%g flavour%s in %zu rational pseudofermion%s", flavours(),
                  flavours() == 1 ? "" : "s", phi_.size(), phi_.size() == 1 ? "" : "s");
    return std::string(text) + ", " + Action::name + ", " + parameters_.describe() + (even_odd_ ? ", even-odd" : "") +
           "; action " + r_.action.description() + ", heatbath degree " + std::to_string(r_.heatbath.degree);
  }

  // phi_j = r_heatbath(A) eta_j, eta_j from (key, j).
  void refresh(const GaugeField<R, W>& U, std::uint64_t key) override {
    start_action_ = 0;
    with_operator(Action(U, parameters_), [&](const auto& op) {
      for (std::size_t j = 0; j < phi_.size(); ++j) {
        Field eta(U.geometry(), Uninitialized{});
        ParallelRng rng(j == 0 ? key : mixed_key(key, j, 0));
        rng.gaussian(eta);
        eta = std::sqrt(0.5) * eta;
        Field eta_part(phi_[j].geometry(), Uninitialized{});
        if (even_odd_) eta_part = pick(Parity::even, eta);
        else eta_part = eta;
        start_action_ += norm2(eta_part);
        apply_rational(op, r_.heatbath, phi_[j], eta_part, solves_.action);
      }
    });
    fresh_ = true;
  }

  // sum_j phi_j^+ r_action(A) phi_j; eta^+ eta right after the refresh.
  double action(const GaugeField<R, W>& U) override {
    if (fresh_) {
      fresh_ = false;
      return start_action_;
    }
    return with_operator(Action(U, parameters_), [&](const auto& op) {
      double s = 0;
      for (const Field& phi : phi_) {
        Field r_phi(phi.geometry(), Uninitialized{});
        apply_rational(op, r_.action, r_phi, phi, solves_.action);
        s += real(innerProduct(phi, r_phi));
      }
      return s;
    });
  }

  // The operator (and, unpreconditioned, the blocks for the force) made
  // once per kick for all pseudofermions and poles.
  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    fresh_ = false;
    const Action action(U, parameters_);
    std::vector<Field> X;
    if (even_odd_) {
      const Schur schur{Blocks(action)};
      for (const Field& phi : phi_) {
        shifted_solves(schur, r_.action, X, phi, solves_.force);
        Field Y(phi.geometry(), Uninitialized{});
        for (std::size_t k = 0; k < X.size(); ++k) {
          schur.apply(Y, X[k]);
          add_even_odd_pseudofermion_force(schur, X[k], Y, P, r_.action.residues[k] * eps);
        }
      }
    } else {
      const Whole M(action);
      const Blocks blocks(action);
      for (const Field& phi : phi_) {
        shifted_solves(M, r_.action, X, phi, solves_.force);
        Field Y(phi.geometry(), Uninitialized{});
        for (std::size_t k = 0; k < X.size(); ++k) {
          M.apply(Y, X[k]);
          add_pseudofermion_force(blocks, X[k], Y, P, r_.action.residues[k] * eps);
        }
      }
    }
  }

  // The extreme eigenvalues of A on U (Lanczos), to compare with the
  // approximations' interval.
  SpectralBounds spectral_bounds(const GaugeField<R, W>& U, const SpectralBoundsControl& control = {}) const {
    return with_operator(Action(U, parameters_), [&](const auto& op) {
      using Operator = std::decay_t<decltype(op)>;
      return latte::spectral_bounds<Field>(NormalOperator<Operator>(op), op.geometry(), control);
    });
  }

  const Parameters& parameters() const { return parameters_; }
  bool even_odd() const { return even_odd_; }
  const RationalPseudofermionApproximations& approximations() const { return r_; }
  const SolveTally& tally() const { return tally_; }
  const std::vector<Field>& pseudofermions() const { return phi_; }

 private:
  using Whole = FermionOperator<Action>;
  using Schur = EvenOddOperator<Blocks>;

  // f(Mhat) or f(M), the operator made once from `action`.
  template <class F> decltype(auto) with_operator(const Action& action, F&& f) const {
    if (even_odd_) return f(Schur{Blocks(action)});
    return f(Whole(action));
  }

  // out = r(A) in = c in + sum_k a_k (A + sigma_k)^-1 in, A the normal operator of op.
  template <class Operator>
  void apply_rational(const Operator& op, const RationalApproximation& r, Field& out, const Field& in,
                      const SolverControl& control) {
    std::vector<Field> X;
    shifted_solves(op, r, X, in, control);
    out = r.constant * in;
    for (std::size_t k = 0; k < X.size(); ++k) out += r.residues[k] * X[k];
  }

  // X_k = (A + sigma_k)^-1 phi, A the normal operator of `op`, from zero.
  template <class Operator>
  void shifted_solves(const Operator& op, const RationalApproximation& r, std::vector<Field>& X, const Field& phi,
                      const SolverControl& control) {
    const auto start = std::chrono::steady_clock::now();
    MultiShiftControl multi;
    multi.tolerances = {control.tolerance};
    multi.max_iterations = control.max_iterations;
    SolverReport report;
    try {
      report = multi_shift_conjugate_gradient(NormalOperator<Operator>(op), r.poles, X, phi, multi);
    } catch (const SolverError& error) {
      throw SolverError("Latte rational pseudofermion (" + describe() + "): " + error.what(), error.report());
    }
    ++tally_.solves;
    tally_.iterations += report.iterations;
    for (int refined : report.refinement_iterations) tally_.iterations += refined;
    tally_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  Parameters parameters_;
  bool even_odd_;
  RationalPseudofermionApproximations r_;
  PseudofermionSolves solves_;
  std::vector<Field> phi_;
  double start_action_ = 0;
  bool fresh_ = false;
  SolveTally tally_;
};

}  // namespace latte
