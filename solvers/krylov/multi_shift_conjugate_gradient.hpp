#pragma once
// Multi-shift conjugate gradient: (A + sigma_k) x_k = b for k = 0..n-1 with
// one Krylov space, for a hermitian positive A and shifts with A + sigma_k
// positive (the poles of a rational approximation, RHMC's shifts:
// solvers/rational/rational_approximation.hpp).
//
// Krylov spaces are shift invariant: K(A + sigma, b) = K(A, b). So CG runs
// once, on the base system A + sigma_0 with sigma_0 the smallest shift (the
// slowest to converge), and each shifted system's residual is a multiple of
// the base residual, r_k = zeta_k r. The recurrences (Jegerlehner,
// hep-lat/9612014; with Delta_k = sigma_k - sigma_0 >= 0, and
// zeta_k = zeta_k(previous) = 1, alpha(previous) = 1 at the start):
//   zeta_k(next) = zeta_k zeta_k(prev) alpha(prev) /
//                  (alpha beta(prev) (zeta_k(prev) - zeta_k) + zeta_k(prev) alpha(prev) (1 + Delta_k alpha))
//   alpha_k = alpha zeta_k(next) / zeta_k,      x_k += alpha_k p_k
//   beta_k  = beta (zeta_k(next) / zeta_k)^2,   p_k = zeta_k(next) r + beta_k p_k
// with alpha, beta the base CG's. Per iteration: one application of A
// (with <p, A p> from the same pass where A offers it), the base updates
// (r with |r|^2, p with |p|^2), and for each shift still iterating one pass
// that updates x_k and p_k together (assign_all: x_k, p_k and r read, x_k
// and p_k written; the base r is updated first, so beta is known).
//
// Per-shift stopping: shift k stops (x_k and p_k are no longer touched) once
// |zeta_k r| <= tolerance_k |b|; the iteration ends when every shift has
// stopped. Then every shift's true residual |b - (A + sigma_k) x_k| / |b| is
// computed; a shift whose true residual misses its tolerance (round-off over
// long solves) is refined by the one-shift CG from its x_k when
// control.refine is set, and the refinement's iterations reported.
//
// The same bits on any rank count, SIMD width and thread count: every
// scalar comes from the reproducible reductions (norm2, the fused sums), the
// recurrences are the same double arithmetic on every rank.
//
// A is anything the one-field CG takes (solvers/krylov/conjugate_gradient.hpp):
//   void apply(Field& out, const Field& in), double flops_per_site,
// and optionally double apply_and_dot(Field& out, const Field& in).
//
// The report: iterations counts the shared Krylov iterations (applications
// of A), residual and true_residual are the largest over the shifts, and per
// shift (in the order given): rhs_iterations (the iteration it stopped at),
// rhs_residuals (|zeta_k r| / |b| there), rhs_true_residuals (recomputed,
// after any refinement) and refinement_iterations.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "dsl/latte.hpp"
#include "solvers/krylov/conjugate_gradient.hpp"
#include "solvers/krylov/solver_control.hpp"

namespace latte {

struct MultiShiftControl {
  std::vector<double> tolerances{1e-8};  // per shift on |b - (A + sigma_k) x_k| / |b|, or one for all
  int max_iterations = 10000;
  bool keep_history = false;             // the base system's iterated residual at every iteration
  bool refine = true;                    // refine a shift whose true residual misses its tolerance
};

// A + sigma as an operator for the one-shift CG (the refinement).
template <class Operator>
struct ShiftedOperator {
  const Operator& A;
  double shift;
  double flops_per_site;
  ShiftedOperator(const Operator& op, double sigma) : A(op), shift(sigma), flops_per_site(op.flops_per_site + 48) {}
  template <class Field> void apply(Field& out, const Field& in) const {
    A.apply(out, in);
    out += shift * in;
  }
};

template <class Operator, class Field>
SolverReport multi_shift_conjugate_gradient(const Operator& A, const std::vector<double>& shifts, std::vector<Field>& x,
                                            const Field& b, const MultiShiftControl& control) {
  const profile::Region region("multi-shift CG");
  const auto start = std::chrono::steady_clock::now();
  const int n = static_cast<int>(shifts.size());
  const double volume = static_cast<double>(b.geometry().volume());
  const double reals = static_cast<double>(words_v<typename Field::value_type>);
  SolverReport report;
  auto fail = [&](const std::string& why) {
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream message;
    message << "Latte multi-shift CG: " << why << " after " << report.iterations << " iterations; x holds the last iterates";
    throw SolverError(message.str(), report);
  };
  if (n == 0) fail("no shifts");
  if (control.tolerances.size() != 1 && static_cast<int>(control.tolerances.size()) != n)
    fail(std::to_string(control.tolerances.size()) + " tolerances for " + std::to_string(n) + " shifts");
  std::vector<double> tolerance(n);
  for (int k = 0; k < n; ++k) {
    tolerance[k] = control.tolerances.size() == 1 ? control.tolerances[0] : control.tolerances[k];
    if (!(tolerance[k] > 0)) fail("tolerance " + std::to_string(tolerance[k]) + " of shift " + std::to_string(k) + " is not positive");
    if (!std::isfinite(shifts[k])) fail("shift " + std::to_string(k) + " is not finite");
  }
  while (static_cast<int>(x.size()) < n) x.emplace_back(b.geometry());
  x.erase(x.begin() + n, x.end());
  report.rhs_iterations.assign(n, 0);
  report.rhs_residuals.assign(n, 0);
  report.rhs_true_residuals.assign(n, 0);
  report.refinement_iterations.assign(n, 0);

  const double b2 = norm2(b);
  if (!std::isfinite(b2)) fail("the right-hand side contains NaN or infinity");
  for (Field& xk : x) xk = zero;
  if (b2 == 0) return report;
  const double b_norm = std::sqrt(b2);

  const double sigma0 = *std::min_element(shifts.begin(), shifts.end());
  Field r(b.geometry()), p(b.geometry()), Ap(b.geometry());
  r = b;
  p = b;
  // A shift equal to sigma_0 keeps zeta = 1 exactly (alpha(prev) / alpha(prev)),
  // so its p_k is the base p: it steps along p, with no field of its own.
  std::vector<std::optional<Field>> pk(n);
  for (int k = 0; k < n; ++k)
    if (shifts[k] != sigma0) {
      pk[k].emplace(b.geometry());
      *pk[k] = b;
    }
  std::vector<double> zeta(n, 1.0), zeta_previous(n, 1.0);
  std::vector<bool> active(n, true);
  int still_active = n;
  double rr = b2, pp = b2, alpha_previous = 1.0, beta_previous = 0.0;

  while (still_active > 0) {
    if (report.iterations >= control.max_iterations) {
      for (int k = 0; k < n; ++k)
        if (active[k]) report.unconverged.push_back(k);
      fail("no convergence of " + std::to_string(still_active) + " of " + std::to_string(n) + " shifts");
    }
    // Base system: <p, (A + sigma0) p> = <p, A p> + sigma0 |p|^2.
    const double pAp = apply_with_dot(A, Ap, p) + sigma0 * pp;
    if (!std::isfinite(pAp)) fail("NaN or infinity in <p, A p>");
    if (pAp <= 0) fail("breakdown: <p, (A + sigma_0) p> = " + std::to_string(pAp) + " is not positive");
    const double alpha = rr / pAp;
    const double rr_next = assign_and_sum(r, alpha * Ap + (alpha * sigma0) * p, localNorm2(r), AssignSubtract{});
    ++report.iterations;
    report.flops += A.flops_per_site * volume + 12 * reals * volume;
    if (!std::isfinite(rr_next)) fail("NaN or infinity in the residual");
    const double beta = rr_next / rr;
    for (int k = 0; k < n; ++k) {
      if (!active[k]) continue;
      const double delta = shifts[k] - sigma0;
      const double denominator = alpha * beta_previous * (zeta_previous[k] - zeta[k]) +
                                 zeta_previous[k] * alpha_previous * (1 + delta * alpha);
      const double zeta_next = zeta[k] * zeta_previous[k] * alpha_previous / denominator;
      const double ratio = zeta_next / zeta[k];
      const double alpha_k = alpha * ratio;
      const double residual = std::abs(zeta_next) * std::sqrt(rr_next) / b_norm;
      report.rhs_residuals[k] = residual;
      if (!std::isfinite(residual)) fail("NaN or infinity in the residual of shift " + std::to_string(k));
      const bool converged = residual <= tolerance[k];
      if (converged || !pk[k]) {  // x_k's last update (p_k no longer needed), or a step along the base p
        x[k] += alpha_k * (pk[k] ? *pk[k] : p);
        report.flops += 4 * reals * volume;
      } else {
        // x_k += alpha_k p_k and p_k = zeta_k(next) r + beta_k p_k in one pass
        // (both read the old p_k): x_k, p_k and r read, x_k and p_k written.
        assign_all(std::tie(x[k], *pk[k]), x[k] + alpha_k * *pk[k], zeta_next * r + (beta * ratio * ratio) * *pk[k]);
        report.flops += 8 * reals * volume;
      }
      if (converged) {
        active[k] = false;
        --still_active;
        report.rhs_iterations[k] = report.iterations;
        continue;
      }
      zeta_previous[k] = zeta[k];
      zeta[k] = zeta_next;
    }
    if (control.keep_history) report.residual_history.push_back(std::sqrt(rr_next / b2));
    if (still_active == 0) break;
    pp = assign_and_sum(p, r + beta * p, localNorm2(p));
    rr = rr_next;
    alpha_previous = alpha;
    beta_previous = beta;
  }

  // Every shift's true residual, and a refinement where it misses.
  for (int k = 0; k < n; ++k) {
    A.apply(Ap, x[k]);
    double true2 = assign_and_sum(Ap, b - Ap - shifts[k] * x[k], localNorm2(Ap));
    report.flops += A.flops_per_site * volume + 4 * reals * volume;
    report.rhs_true_residuals[k] = std::sqrt(true2 / b2);
    if (report.rhs_true_residuals[k] > tolerance[k] && control.refine) {
      SolverControl one;
      one.tolerance = tolerance[k];
      one.max_iterations = control.max_iterations;
      one.keep_history = false;
      const SolverReport refined = conjugate_gradient(ShiftedOperator<Operator>(A, shifts[k]), x[k], b, one);
      report.refinement_iterations[k] = refined.iterations;
      report.flops += refined.flops;
      report.rhs_true_residuals[k] = refined.true_residual;
    }
  }
  report.residual = *std::max_element(report.rhs_residuals.begin(), report.rhs_residuals.end());
  report.true_residual = *std::max_element(report.rhs_true_residuals.begin(), report.rhs_true_residuals.end());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace latte
