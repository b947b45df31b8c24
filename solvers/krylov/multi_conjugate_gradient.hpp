#pragma once
// Conjugate gradient for N right-hand sides at once (a batch field,
// lattice/tensors/site_types.hpp): A x_k = b_k for k = 0..N-1 with one application
// of A per iteration for all of them, so an operator that reads its links
// once per site (the Wilson operator on a batch) reads them once for N.
//
// Each right-hand side has its own CG: its own alpha_k, beta_k and
// residual, exactly the recurrences of the one-field CG
// (solvers/krylov/conjugate_gradient.hpp). The vector updates are the same fused
// statements with a batch of coefficients (x += alpha p multiplies x_k by
// alpha_k). When r_k meets its tolerance the right-hand side converges: its
// alpha_k is 0 and p_k is set to 0, so x_k does not change any more (A p_k
// = 0, and its terms cost no flops worth counting, but still pass through
// memory with the others). The solve ends when all have converged; at the
// end each residual is recomputed from b_k - A x_k, and a right-hand side
// whose recomputed residual misses the tolerance is restarted alone, as the
// one-field CG restarts. If the iteration limit is reached first, a
// SolverError names the right-hand sides that did not converge (report
// field `unconverged`); x holds every right-hand side's last iterate.
//
// A is anything with
//   void apply(Field& out, const Field& in)
//   double flops_per_site                      (per right-hand side)
// and optionally
//   Batch<double, N> apply_and_dot(Field& out, const Field& in)
//                                              Re <in_k, A in_k> for each k
//                                              from the pass that applies A.

#include <array>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/krylov/solver_control.hpp"

namespace latte {

template <class Operator, class T, int N, class W>
Batch<double, N> apply_with_dots(const Operator& A, Lattice<Batch<T, N>, W>& out, const Lattice<Batch<T, N>, W>& in) {
  if constexpr (requires { { A.apply_and_dot(out, in) } -> std::same_as<Batch<double, N>>; }) {
    return A.apply_and_dot(out, in);
  } else {
    A.apply(out, in);
    const auto dots = sum(rhs_inner_product(in, out));
    Batch<double, N> re;
    for (int k = 0; k < N; ++k) re.v[k] = dots.v[k].re;
    return re;
  }
}

// The same with a tolerance per right-hand side (on |b_k - A x_k| / |b_k|).
template <class Operator, class T, int N, class W>
SolverReport conjugate_gradient(const Operator& A, Lattice<Batch<T, N>, W>& x, const Lattice<Batch<T, N>, W>& b,
                                const std::type_identity_t<std::array<double, N>>& tolerances,
                                const SolverControl& control) {
  using Field = Lattice<Batch<T, N>, W>;
  using Coefficients = Batch<double, N>;
  const profile::Region region("CG");
  const auto start = std::chrono::steady_clock::now();
  const double volume = static_cast<double>(b.geometry().volume());
  const double reals = static_cast<double>(words_v<Batch<T, N>>);  // of all N
  SolverReport report;
  report.rhs_iterations.assign(N, 0);
  report.rhs_residuals.assign(N, 0.0);
  report.rhs_true_residuals.assign(N, 0.0);
  std::array<bool, N> active{};
  auto list = [](const std::array<bool, N>& which) {
    std::ostringstream out;
    const char* separator = "";
    for (int k = 0; k < N; ++k)
      if (which[k]) out << separator << k, separator = ", ";
    return out.str();
  };
  auto largest = [](const std::vector<double>& v) {
    double m = 0;
    for (double e : v) m = std::max(m, e);
    return m;
  };
  Field r(b.geometry()), p(b.geometry()), Ap(b.geometry());
  Coefficients b2;
  // Out of iterations: the report gets every right-hand side's true
  // residual at the last iterate (one more application of A).
  auto recompute_true_residuals = [&] {
    A.apply(Ap, x);
    const Coefficients rr = sum(rhs_norm2(b - Ap));
    for (int k = 0; k < N; ++k) report.rhs_true_residuals[k] = b2.v[k] > 0 ? std::sqrt(rr.v[k] / b2.v[k]) : 0.0;
  };
  auto fail = [&](const std::string& why, const std::array<bool, N>& which) {
    if (why == "no convergence") recompute_true_residuals();
    report.true_residual = largest(report.rhs_true_residuals);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.residual = largest(report.rhs_residuals);
    report.unconverged.clear();
    for (int k = 0; k < N; ++k)
      if (which[k]) report.unconverged.push_back(k);
    std::ostringstream message;
    message << "Latte CG (" << N << " right-hand sides): " << why << " for right-hand side(s) " << list(which)
            << " after " << report.iterations << " iterations (largest relative residual " << report.residual
            << "); x holds every right-hand side's last iterate";
    throw SolverError(message.str(), report);
  };

  b2 = sum(rhs_norm2(b));
  std::array<double, N> target2{};
  std::array<bool, N> bad{};
  bool any_bad = false;
  Coefficients keep;  // 1 for a right-hand side with b_k != 0, 0 to set x_k = 0
  bool any_zero = false;
  for (int k = 0; k < N; ++k) {
    bad[k] = !std::isfinite(b2.v[k]);
    any_bad = any_bad || bad[k];
    target2[k] = tolerances[k] * tolerances[k] * b2.v[k];
    keep.v[k] = b2.v[k] == 0 ? 0.0 : 1.0;
    any_zero = any_zero || b2.v[k] == 0;
  }
  if (any_bad) fail("the right-hand side contains NaN or infinity", bad);
  if (any_zero) x = keep * x;  // a pass over x only when some b_k is zero

  for (int restart = 0;; ++restart) {
    A.apply(Ap, x);
    Coefficients rr = assign_and_sum(r, b - Ap, rhs_norm2(r));
    report.flops += (A.flops_per_site * N + 3 * reals) * volume;
    bool any_active = false;
    Coefficients start_direction;
    for (int k = 0; k < N; ++k) {
      report.rhs_true_residuals[k] = b2.v[k] > 0 ? std::sqrt(rr.v[k] / b2.v[k]) : 0.0;
      active[k] = b2.v[k] > 0 && rr.v[k] > target2[k];
      start_direction.v[k] = active[k] ? 1.0 : 0.0;
      any_active = any_active || active[k];
    }
    if (!any_active) break;  // every recomputed residual meets its tolerance
    if (restart > 0 && report.iterations >= control.max_iterations) fail("no convergence", active);
    p = start_direction * r;
    while (true) {
      if (report.iterations >= control.max_iterations) fail("no convergence", active);
      const Coefficients pAp = apply_with_dots(A, Ap, p);
      Coefficients alpha;
      std::array<bool, N> broken{};
      bool any_broken = false;
      for (int k = 0; k < N; ++k) {
        alpha.v[k] = 0;
        if (!active[k]) continue;
        broken[k] = !(std::isfinite(pAp.v[k]) && pAp.v[k] > 0);
        any_broken = any_broken || broken[k];
        alpha.v[k] = rr.v[k] / pAp.v[k];
      }
      if (any_broken)
        fail("breakdown: <p, A p> is not a positive number (NaN, infinity, or A not positive definite)", broken);
      x += alpha * p;
      const Coefficients rr_next = assign_and_sum(r, alpha * Ap, rhs_norm2(r), AssignSubtract{});
      ++report.iterations;
      report.flops += (A.flops_per_site * N + 10 * reals) * volume;
      Coefficients beta, direction;
      any_active = false;
      for (int k = 0; k < N; ++k) {
        beta.v[k] = 0;
        direction.v[k] = 0;
        if (!active[k]) continue;
        ++report.rhs_iterations[k];
        report.rhs_residuals[k] = std::sqrt(rr_next.v[k] / b2.v[k]);
        if (!std::isfinite(rr_next.v[k])) broken[k] = any_broken = true;
        if (rr_next.v[k] <= target2[k]) {
          active[k] = false;  // converged: p_k = 0 from here on
        } else {
          beta.v[k] = rr_next.v[k] / rr.v[k];
          direction.v[k] = 1;
          any_active = true;
        }
        rr.v[k] = rr_next.v[k];
      }
      if (any_broken) fail("NaN or infinity in the residual", broken);
      if (control.keep_history) report.residual_history.push_back(largest(report.rhs_residuals));
      if (!any_active) break;
      p = direction * r + beta * p;
    }
  }
  report.residual = largest(report.rhs_residuals);
  report.true_residual = largest(report.rhs_true_residuals);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// N right-hand sides, one tolerance for all (control.tolerance).
template <class Operator, class T, int N, class W>
SolverReport conjugate_gradient(const Operator& A, Lattice<Batch<T, N>, W>& x, const Lattice<Batch<T, N>, W>& b,
                                const SolverControl& control) {
  std::array<double, N> tolerances;
  tolerances.fill(control.tolerance);
  return conjugate_gradient(A, x, b, tolerances, control);
}

}  // namespace latte
