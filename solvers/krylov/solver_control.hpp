#pragma once
// What a Krylov solver is asked for, what it reports, and how it fails.

#include <stdexcept>
#include <string>
#include <vector>

namespace latte {

struct SolverControl {
  double tolerance = 1e-8;     // on the relative residual |b - A x| / |b|
  int max_iterations = 10000;
  bool keep_history = true;    // record |r| / |b| at every iteration
};

struct SolverReport {
  int iterations = 0;
  double residual = 0;         // the solver's iterated relative residual at exit
  double true_residual = 0;    // recomputed |b - A x| / |b| of the system solved
  std::vector<double> residual_history;
  double seconds = 0;
  double flops = 0;            // operator and linear-algebra flops, counted by model
  // Solves of N right-hand sides together: one entry per right-hand side
  // (empty for a single one). residual and true_residual above are then the
  // largest over them, iterations counts the shared operator applications.
  std::vector<int> rhs_iterations;         // iterations until each converged
  std::vector<double> rhs_residuals;       // iterated relative residual at exit
  std::vector<double> rhs_true_residuals;  // recomputed |b_k - A x_k| / |b_k|
  std::vector<int> unconverged;            // those above the tolerance when the solve gave up
  // Multi-shift solves (solvers/krylov/multi_shift_conjugate_gradient.hpp):
  // the rhs_* entries above are per shift, and these the one-shift CG
  // iterations that refined each shift's solution (0 where none was needed).
  std::vector<int> refinement_iterations;
};

// A solver that cannot deliver: it diverged, broke down, met NaN or ran out
// of iterations. The solution field keeps the last iterate, and the report
// travels with the exception.
class SolverError : public std::runtime_error {
 public:
  SolverError(const std::string& what, SolverReport report) : std::runtime_error(what), report_(std::move(report)) {}
  const SolverReport& report() const { return report_; }

 private:
  SolverReport report_;
};

}  // namespace latte
