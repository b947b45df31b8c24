#pragma once
// Solving M x = b for the Wilson operator through the normal equations
// M^+ M x = M^+ b, which CG can handle because M^+ M is hermitian and
// positive definite. The report's true residual is that of the original
// system, |b - M x| / |b|, and the tolerance applies to it.

#include <chrono>
#include <cmath>

#include "solvers/krylov/conjugate_gradient.hpp"
#include "solvers/krylov/rhs_norms.hpp"
#include "solvers/qcd/fermions/wilson_dirac.hpp"

namespace latte {

// A = M^+ M, with <p, A p> = |M p|^2 computed in the pass that applies M.
// Field may be a batch of right-hand sides (Dirac::MultiField<N>): then
// apply_and_dot gives |M p_k|^2 for each k.
template <class Dirac, class FieldType = typename Dirac::Field>
class NormalOperator {
 public:
  using Field = FieldType;
  static constexpr double flops_per_site = 2 * Dirac::flops_per_site;  // per right-hand side

  explicit NormalOperator(const Dirac& M) : M_(M), scratch_(M.geometry()) {}

  void apply(Field& out, const Field& in) const {
    M_.apply(scratch_, in);
    M_.apply_dagger(out, scratch_);
  }
  auto apply_and_dot(Field& out, const Field& in) const {
    const auto norm = M_.apply_and_norm2(scratch_, in);
    M_.apply_dagger(out, scratch_);
    return norm;
  }

 private:
  const Dirac& M_;
  mutable Field scratch_;
};

// Relative residual |b - M x| / |b|.
template <class Dirac, class Field>
double relative_residual(const Dirac& M, const Field& x, const Field& b) {
  Field Mx(b.geometry());
  M.apply(Mx, x);
  return std::sqrt(norm2(b - Mx) / norm2(b));
}

// |b_k - M x_k| / |b_k| for every right-hand side (one entry for a single
// field; 0 where b_k = 0).
template <class Dirac, class Field>
std::vector<double> relative_residuals(const Dirac& M, const Field& x, const Field& b) {
  Field Mx(b.geometry());
  M.apply(Mx, x);
  std::vector<double> out = rhs_norms(b - Mx);
  const std::vector<double> b_norms = rhs_norms(b);
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = b_norms[k] > 0 ? out[k] / b_norms[k] : 0.0;
  return out;
}

template <class Dirac, class Field>
SolverReport solve_wilson(const Dirac& M, Field& x, const Field& b, const SolverControl& control) {
  Field rhs(b.geometry());
  M.apply_dagger(rhs, b);
  // Tighten the normal-equation tolerance until the original system meets
  // its own: |b - M x| <= |r_normal| / sigma_min(M), unknown in advance.
  SolverControl normal = control;
  SolverReport total;
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0; attempt < 8; ++attempt) {
    SolverReport step = conjugate_gradient(NormalOperator<Dirac>(M), x, rhs, normal);
    total.iterations += step.iterations;
    total.flops += step.flops;
    total.residual = step.residual;
    total.residual_history.insert(total.residual_history.end(), step.residual_history.begin(),
                                  step.residual_history.end());
    total.true_residual = relative_residual(M, x, b);
    if (total.true_residual <= control.tolerance) break;
    normal.tolerance = step.true_residual * control.tolerance / total.true_residual * 0.5;
    normal.max_iterations = control.max_iterations - total.iterations;
    if (normal.max_iterations <= 0)
      throw SolverError("Latte Wilson solve: |b - M x| / |b| = " + std::to_string(total.true_residual) +
                            " above the tolerance when the iteration limit was reached",
                        total);
  }
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (total.true_residual > control.tolerance)
    throw SolverError("Latte Wilson solve: |b - M x| / |b| = " + std::to_string(total.true_residual) +
                          " stays above the tolerance " + std::to_string(control.tolerance),
                      total);
  return total;
}

}  // namespace latte

// N right-hand sides at once.
#include "solvers/qcd/solves/wilson_solve_multi.hpp"

namespace latte {

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE double relative_residual(const WilsonDirac<double>&, const Lattice<Spinor<double>>&,
                                                   const Lattice<Spinor<double>>&);
LATTE_QCD_SINGLE_INSTANCE double relative_residual(const WilsonDirac<float>&, const Lattice<Spinor<float>>&,
                                                   const Lattice<Spinor<float>>&);
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson(const WilsonDirac<double>&, Lattice<Spinor<double>>&,
                                                    const Lattice<Spinor<double>>&, const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson(const WilsonDirac<float>&, Lattice<Spinor<float>>&,
                                                    const Lattice<Spinor<float>>&, const SolverControl&);
#endif

}  // namespace latte
