#pragma once
// Solving M x = b through the even-odd Schur complement of any action
// (solvers/qcd/fermions/even_odd_operator.hpp): prepare the even-site system
// Mhat x_e = bhat_e, solve it (CG on Mhat^+ Mhat, or defect correction with a
// single-precision twin of Mhat), reconstruct the odd sites and recompute
// the whole system's |b - M x| / |b| with M.
//
// The residual of the whole system is that of the Schur system,
// |b - M x| = |bhat_e - Mhat x_e|, exactly: the odd rows are solved exactly
// by the reconstruction. So the tolerance on |b - M x| / |b| becomes one on
// |bhat_e - Mhat x_e| / |bhat_e| by the factor |b| / |bhat_e|.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/fermions/fermion_action.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/solves/defect_correction.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte {

// Solve M x = b (fields on the whole lattice) through the even-odd Schur
// complement `schur` of M (the same action: same parameters, same lattice):
// prepare the even-site system Mhat x_e = bhat_e, hand it to
// solve_even(x_e, bhat_e, control) with the tolerance rescaled from |b| to
// |bhat_e|, reconstruct the odd sites and recompute |b - M x| / |b| with M.
// x is also the initial guess. `name` opens the error messages. The fields
// may be batches of right-hand sides (Site = MultiSpinor): the rescaled
// tolerance is then the tightest over them, and every |b_k - M x_k| / |b_k|
// is checked.
template <SchurOperator Schur, WholeLatticeOperator Dirac, class Site, class W, class EvenSolve>
SolverReport solve_through_schur_complement(const Schur& schur, const Dirac& M, Lattice<Site, W>& x,
                                            const Lattice<Site, W>& b, const SolverControl& control,
                                            const std::string& name, EvenSolve&& solve_even) {
  using Field = Lattice<Site, W>;
  const auto& action = schur.action();
  if (b.geometry().checkerboarded() || x.geometry().checkerboarded())
    throw GeometryMismatch(name + ": x and b must be fields on the whole lattice; got " + x.layout().describe() +
                           " and " + b.layout().describe());
  if (action.parameters() != M.action().parameters() ||
      !schur.geometry().layout(Field::nsimd).checkerboard(Parity::all).same_as(b.layout()))
    throw GeometryMismatch(name + ": the Schur operator (" + action.describe() + ", " +
                           schur.geometry().layout(Field::nsimd).describe() + ") does not belong to M (" +
                           M.action().describe() + ") on " + b.layout().describe());
  const auto start = std::chrono::steady_clock::now();
  const double kappa = action.hopping_coefficient();

  // bhat_e = b_e - Meo Moo^-1 b_o, with Moo^-1 applied on the odd sites
  // first, or folded into the coefficient for a constant diagonal.
  Field b_odd(schur.odd_geometry(), Uninitialized{});
  b_odd = pick(Parity::odd, b);
  Field rhs(schur.geometry(), Uninitialized{}), x_even(schur.geometry(), Uninitialized{});
  if constexpr (Schur::diagonal_is_constant) {
    rhs = pick(Parity::even, b) + schur.coefficient_after_hop(-kappa) * action.template hopping_to_even<+1>(b_odd);
  } else {
    Field b_odd_inverse(schur.odd_geometry(), Uninitialized{});
    b_odd_inverse = schur.template odd_before_hop<+1>(b_odd);
    rhs = pick(Parity::even, b) + schur.coefficient_after_hop(-kappa) *
                                      action.template hopping_to_even<+1>(b_odd_inverse);
  }
  x_even = pick(Parity::even, x);

  // |b - M x| = |rhs - Mhat x_e|: scale the tolerance from |b| to |rhs|.
  const std::vector<double> b_norms = rhs_norms(b), rhs_norm = rhs_norms(rhs);
  double scale = 0;
  bool first = true;
  for (std::size_t k = 0; k < b_norms.size(); ++k) {
    if (!std::isfinite(b_norms[k]))
      throw SolverError(name + ": the right-hand side contains NaN or infinity", SolverReport{});
    if (rhs_norm[k] > 0) scale = first ? b_norms[k] / rhs_norm[k] : std::min(scale, b_norms[k] / rhs_norm[k]);
    if (rhs_norm[k] > 0) first = false;
  }
  SolverControl reduced = control;
  if (!first) reduced.tolerance = control.tolerance * scale;
  SolverReport report = solve_even(x_even, rhs, reduced);

  // x_o = Moo^-1 (b_o - Moe x_e).
  Field x_odd(schur.odd_geometry(), Uninitialized{});
  x_odd = schur.template MooInv<+1>(b_odd + (-kappa) * action.template hopping_to_odd<+1>(x_even));
  x = merge(x_even, x_odd);
  const std::vector<double> residuals = relative_residuals(M, x, b);
  report.true_residual = 0;
  for (double e : residuals) report.true_residual = std::max(report.true_residual, e);
  if (batch_size_v<Site> > 0) report.rhs_true_residuals = residuals;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report.true_residual > control.tolerance) {
    report.unconverged.clear();
    for (std::size_t k = 0; k < residuals.size(); ++k)
      if (residuals[k] > control.tolerance) report.unconverged.push_back(static_cast<int>(k));
    throw SolverError(name + ": |b - M x| / |b| = " + std::to_string(report.true_residual) +
                          " above the tolerance " + std::to_string(control.tolerance) +
                          " after reconstructing the odd sites",
                      report);
  }
  return report;
}

// Even-odd preconditioned CG: CG on the Schur system's normal equations
// (solve_wilson, which takes any operator). The operators keep their own
// types (WilsonEvenOdd, not its base) all the way down, so that a build's
// precompiled solves are the ones used (solvers/qcd/fermions/precompiled_instances.hpp). x and b may be batches of
// right-hand sides: one application of Mhat per iteration for all of them.
template <SchurOperator Schur, WholeLatticeOperator Dirac, class Site, class W>
SolverReport solve_even_odd(const Schur& schur, const Dirac& M, Lattice<Site, W>& x, const Lattice<Site, W>& b, const SolverControl& control,
                            const std::string& name = "Latte even-odd solve") {
  return solve_through_schur_complement(
      schur, M, x, b, control, name,
      [&](auto& x_even, const auto& rhs, const SolverControl& reduced) { return solve_wilson(schur, x_even, rhs, reduced); });
}

// Even-odd preconditioning and mixed precision together: defect correction
// on the Schur system (the double Schur operator `schur` outside, its
// single-precision twin `schur_single` inside: the same action's parameters
// on the same sites; both built once, they serve any number of solves), then
// the odd sites are reconstructed in double.
template <SchurOperator Schur, SchurOperator SingleSchur, WholeLatticeOperator Dirac, class Site, class W>
SolverReport solve_even_odd_mixed(const Schur& schur, const SingleSchur& schur_single, const Dirac& M,
                                  Lattice<Site, W>& x,
                                  const Lattice<Site, W>& b, const SolverControl& control,
                                  const MixedPrecisionControl& mixed = {},
                                  const std::string& name = "Latte even-odd mixed-precision solve") {
  constexpr int nsimd = Lattice<Site, W>::nsimd;  // the single fields have as many lanes
  const SiteLayout& single_sites = schur_single.geometry().layout(nsimd);
  const SiteLayout& double_sites = schur.geometry().layout(nsimd);
  if (schur_single.action().parameters() != schur.action().parameters() || !single_sites.same_as(double_sites))
    throw GeometryMismatch(name + ": the single-precision Schur operator (" + schur_single.action().describe() +
                           ", " + single_sites.describe() + ") is not the twin of the double one (" +
                           schur.action().describe() + ", " + double_sites.describe() + ")");
  return solve_through_schur_complement(
      schur, M, x, b, control, name, [&](auto& x_even, const auto& rhs, const SolverControl& reduced) {
        return solve_by_defect_correction(schur, schur_single, x_even, rhs, reduced, mixed, name);
      });
}

// The same with the single-precision twin taken from M's action
// (single_precision(), solvers/qcd/fermions/fermion_action.hpp): its
// even-odd blocks, made for this solve (the rounding and the links by
// parity are part of the time reported).
template <SchurOperator Schur, WholeLatticeOperator Dirac, class Site, class W>
  requires SinglePrecisionTwin<typename Dirac::action_type>
SolverReport solve_even_odd_mixed(const Schur& schur, const Dirac& M, Lattice<Site, W>& x, const Lattice<Site, W>& b,
                                  const SolverControl& control, const MixedPrecisionControl& mixed = {},
                                  const std::string& name = "Latte even-odd mixed-precision solve") {
  const auto start = std::chrono::steady_clock::now();
  const auto twin = M.action().single_precision();
  using SingleBlocks = typename std::remove_cvref_t<decltype(twin)>::EvenOddAction;
  const EvenOddOperator<SingleBlocks> schur_single{SingleBlocks(twin)};
  SolverReport report = solve_even_odd_mixed(schur, schur_single, M, x, b, control, mixed, name);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace latte
