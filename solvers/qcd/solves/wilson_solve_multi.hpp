#pragma once
// Solving M x_k = b_k for N right-hand sides at once (a batch field), through
// the normal equations as solve_wilson does for one (wilson_solve.hpp): CG
// on M^+ M with every application of M and M^+ shared by the N, each right-
// hand side with its own coefficients and convergence
// (solvers/krylov/multi_conjugate_gradient.hpp). M may be the Wilson operator or
// the even-odd Schur operator (anything with apply, apply_dagger and
// apply_and_norm2 on batches).
//
// The tolerance applies to each |b_k - M x_k| / |b_k|. A right-hand side
// whose original-system residual misses it after the normal equations have
// converged has its normal-equation tolerance tightened alone, and CG goes
// on from the current x (the others do not iterate again). The report has
// every right-hand side's iterations and residuals; a SolverError names
// those that did not converge (report field `unconverged`).

#include <array>
#include <chrono>
#include <sstream>
#include <string>

#include "solvers/krylov/multi_conjugate_gradient.hpp"
#include "solvers/krylov/rhs_norms.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte {

template <class Dirac, class R, int N, class W>
SolverReport solve_wilson(const Dirac& M, Lattice<MultiSpinor<R, N>, W>& x, const Lattice<MultiSpinor<R, N>, W>& b,
                          const SolverControl& control) {
  using Field = Lattice<MultiSpinor<R, N>, W>;
  const auto start = std::chrono::steady_clock::now();
  Field rhs(b.geometry());
  M.apply_dagger(rhs, b);
  std::array<double, N> tolerances;
  tolerances.fill(control.tolerance);
  SolverReport total;
  total.rhs_iterations.assign(N, 0);
  total.rhs_residuals.assign(N, 0.0);
  total.rhs_true_residuals.assign(N, 0.0);
  auto finish = [&] {
    total.residual = total.true_residual = 0;
    for (int k = 0; k < N; ++k) {
      total.residual = std::max(total.residual, total.rhs_residuals[k]);
      total.true_residual = std::max(total.true_residual, total.rhs_true_residuals[k]);
    }
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  auto add = [&](const SolverReport& step) {
    total.iterations += step.iterations;
    total.flops += step.flops;
    for (int k = 0; k < N; ++k) {
      total.rhs_iterations[k] += step.rhs_iterations[k];
      if (step.rhs_iterations[k] > 0) total.rhs_residuals[k] = step.rhs_residuals[k];
    }
    total.residual_history.insert(total.residual_history.end(), step.residual_history.begin(),
                                  step.residual_history.end());
  };
  auto give_up = [&](const std::string& why) {
    finish();
    std::ostringstream message;
    message << "Latte Wilson solve (" << N << " right-hand sides): " << why;
    throw SolverError(message.str(), total);
  };

  for (int attempt = 0;; ++attempt) {
    SolverControl normal = control;
    normal.max_iterations = control.max_iterations - total.iterations;
    SolverReport step;
    try {
      step = conjugate_gradient(NormalOperator<Dirac, Field>(M), x, rhs, tolerances, normal);
    } catch (const SolverError& error) {
      add(error.report());
      total.unconverged = error.report().unconverged;
      total.rhs_true_residuals = relative_residuals(M, x, b);
      give_up(error.what());
    }
    add(step);
    total.rhs_true_residuals = relative_residuals(M, x, b);
    std::ostringstream missing;
    total.unconverged.clear();
    for (int k = 0; k < N; ++k) {
      if (total.rhs_true_residuals[k] <= control.tolerance) continue;
      total.unconverged.push_back(k);
      missing << (total.unconverged.size() > 1 ? ", " : "") << k << " (" << total.rhs_true_residuals[k] << ")";
      // |b - M x| <= |r_normal| / sigma_min(M): tighten this one alone.
      tolerances[k] = step.rhs_true_residuals[k] * control.tolerance / total.rhs_true_residuals[k] * 0.5;
    }
    if (total.unconverged.empty()) break;
    if (attempt == 7 || total.iterations >= control.max_iterations)
      give_up("|b_k - M x_k| / |b_k| stays above the tolerance " + std::to_string(control.tolerance) +
              " for right-hand side(s) " + missing.str());
  }
  finish();
  return total;
}

}  // namespace latte
