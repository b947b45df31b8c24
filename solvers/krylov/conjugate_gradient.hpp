#pragma once
// Conjugate gradient for a hermitian positive-definite operator A, written
// only with DSL statements and reductions. A is anything with
//   void apply(Field& out, const Field& in)     out = A in
//   double flops_per_site                       (for the report)
// and optionally
//   double apply_and_dot(Field& out, const Field& in)   out = A in, returning
//                                                Re <in, A in> from the same pass
// which spares CG a pass over memory.
//
// Per iteration: Ap = A p (with <p, Ap>), x += alpha p, r -= alpha Ap fused
// with |r|^2, p = r + beta p. Convergence is declared on the iterated
// residual and then checked on the recomputed one; if round-off has let them
// drift apart, CG restarts from the current x until the recomputed residual
// meets the tolerance too.

#include <chrono>
#include <cmath>
#include <sstream>

#include "dsl/latte.hpp"
#include "solvers/krylov/solver_control.hpp"

namespace latte {

template <class Operator, class Field>
double apply_with_dot(const Operator& A, Field& out, const Field& in) {
  if constexpr (requires { A.apply_and_dot(out, in); }) {
    return A.apply_and_dot(out, in);
  } else {
    A.apply(out, in);
    return real(innerProduct(in, out));
  }
}

template <class Operator, class Field>
SolverReport conjugate_gradient(const Operator& A, Field& x, const Field& b, const SolverControl& control) {
  const profile::Region region("CG");  // names its vector statements in the statement profile
  const auto start = std::chrono::steady_clock::now();
  const double volume = static_cast<double>(b.geometry().volume());
  const double reals = static_cast<double>(words_v<typename Field::value_type>);
  SolverReport report;
  auto fail = [&](const std::string& why) {
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream message;
    message << "Latte CG: " << why << " after " << report.iterations << " iterations (relative residual "
            << report.residual << ", tolerance " << control.tolerance << "); x holds the last iterate";
    throw SolverError(message.str(), report);
  };

  const double b2 = norm2(b);
  if (!std::isfinite(b2)) fail("the right-hand side contains NaN or infinity");
  if (b2 == 0) {
    x = zero;
    return report;
  }
  const double target2 = control.tolerance * control.tolerance * b2;

  Field r(b.geometry()), p(b.geometry()), Ap(b.geometry());
  for (int restart = 0;; ++restart) {
    A.apply(Ap, x);
    double rr = assign_and_sum(r, b - Ap, localNorm2(r));
    report.flops += A.flops_per_site * volume + 3 * reals * volume;
    report.true_residual = std::sqrt(rr / b2);
    if (rr <= target2) break;  // the recomputed residual meets the tolerance
    if (restart > 0 && report.iterations >= control.max_iterations) fail("no convergence");
    p = r;
    while (true) {
      if (report.iterations >= control.max_iterations) fail("no convergence");
      const double pAp = apply_with_dot(A, Ap, p);
      if (!std::isfinite(pAp)) fail("NaN or infinity in <p, A p>");
      if (pAp <= 0) fail("breakdown: <p, A p> = " + std::to_string(pAp) + " is not positive, A is not positive definite");
      const double alpha = rr / pAp;
      x += alpha * p;
      const double rr_next = assign_and_sum(r, alpha * Ap, localNorm2(r), AssignSubtract{});
      ++report.iterations;
      report.flops += A.flops_per_site * volume + 10 * reals * volume;
      report.residual = std::sqrt(rr_next / b2);
      if (control.keep_history) report.residual_history.push_back(report.residual);
      if (!std::isfinite(rr_next)) fail("NaN or infinity in the residual");
      if (rr_next <= target2) break;
      p = r + (rr_next / rr) * p;
      rr = rr_next;
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace latte

// The same for N right-hand sides at once (batch fields).
#include "solvers/krylov/multi_conjugate_gradient.hpp"
