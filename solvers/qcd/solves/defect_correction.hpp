#pragma once
// Defect correction, the mixed-precision solve of any operator: the outer
// loop works in double and keeps r = b - M x exact to double precision; each
// cycle solves the normal equations for the correction, M^+ M e = M^+ r, in
// single precision to a loose relative tolerance, and adds it: x += e.
// Single precision halves the bytes every inner iteration moves (the solve
// is bandwidth-bound) while the outer residual still reaches double
// tolerances. The single-precision fields have the lane count of the double
// ones (MatchingSingleWidth), so precision changes are pointwise statements;
// the same holds on checkerboards, so an even-odd Schur system is solved the
// same way (solvers/qcd/solves/even_odd_solve.hpp).

#include <chrono>
#include <cmath>
#include <string>

#include "dsl/expr/precision_cast.hpp"
#include "solvers/qcd/fermions/fermion_action.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte {

struct MixedPrecisionControl {
  double inner_tolerance = 1e-4;  // relative, on the single-precision normal equations of each cycle
  int max_cycles = 50;
};

// Defect correction for any operator M (double) with a single-precision
// twin M_single acting on the same sites: both have apply and apply_dagger,
// and the inner solves are CG on M_single^+ M_single. The tolerance applies
// to |b - M x| / |b|, computed in double after every cycle. `name` opens the
// error messages. x and b may be batches of right-hand sides: each cycle
// then corrects those still above the tolerance (the others' inner
// right-hand side is zero, so CG leaves them alone), and the tolerance
// applies to each |b_k - M x_k| / |b_k|.
template <class Dirac, class SingleDirac, class Field>
SolverReport solve_by_defect_correction(const Dirac& M, const SingleDirac& M_single, Field& x, const Field& b,
                                        const SolverControl& control, const MixedPrecisionControl& mixed,
                                        const std::string& name) {
  using Site = typename Field::value_type;
  using SingleField = Lattice<rebind_t<Site, float>, typename SingleDirac::Field::width_type>;
  static_assert(Field::nsimd == SingleField::nsimd, "the single-precision operator must use the same lanes");
  constexpr int batch = batch_size_v<Site>;
  const Geometry& geometry = b.geometry();
  const auto start = std::chrono::steady_clock::now();

  Field Mx(geometry, Uninitialized{}), r(geometry, Uninitialized{});
  SingleField r_single(geometry, Uninitialized{}), rhs_single(geometry, Uninitialized{}), e_single(geometry);
  const std::vector<double> b_norms = rhs_norms(b);
  for (double n : b_norms)
    if (!(n > 0)) throw SolverError(name + ": a source is zero or not finite", {});
  const std::size_t count = b_norms.size();

  SolverReport total;
  std::vector<double> residuals(count);
  auto measure = [&] {
    M.apply(Mx, x);
    r = b - Mx;
    const std::vector<double> norms = rhs_norms(r);
    double largest = 0;
    for (std::size_t k = 0; k < count; ++k) largest = std::max(largest, residuals[k] = norms[k] / b_norms[k]);
    return largest;
  };
  double residual = measure();
  for (int cycle = 0; residual > control.tolerance; ++cycle) {
    if (cycle == mixed.max_cycles || total.iterations >= control.max_iterations)
      throw SolverError(name + ": |b - M x| / |b| = " + std::to_string(residual) + " after " +
                            std::to_string(cycle) + " cycles and " + std::to_string(total.iterations) +
                            " single-precision iterations, above the tolerance " + std::to_string(control.tolerance),
                        total);
    if constexpr (batch > 0) {
      Batch<double, batch> open;  // 1 for a right-hand side still to correct
      for (int k = 0; k < batch; ++k) open.v[k] = residuals[k] > control.tolerance ? 1.0 : 0.0;
      r_single = precision_cast<float>(open * r);
    } else {
      r_single = precision_cast<float>(r);
    }
    M_single.apply_dagger(rhs_single, r_single);
    e_single = zero;
    SolverControl inner{mixed.inner_tolerance, control.max_iterations - total.iterations, control.keep_history};
    SolverReport step;
    try {
      step = conjugate_gradient(NormalOperator<SingleDirac, SingleField>(M_single), e_single, rhs_single, inner);
    } catch (const SolverError& e) {
      step = e.report();  // its last iterate may still correct x; the outer residual judges
    }
    total.iterations += step.iterations;
    total.flops += step.flops;
    total.residual_history.insert(total.residual_history.end(), step.residual_history.begin(),
                                  step.residual_history.end());
    x += precision_cast<double>(e_single);
    total.flops += Dirac::flops_per_site * static_cast<double>(geometry.volume()) * static_cast<double>(count);
    const double previous = residual;
    residual = measure();
    if (!(residual < 0.9 * previous))
      throw SolverError(name + ": a cycle took |b - M x| / |b| from " + std::to_string(previous) + " only to " +
                            std::to_string(residual) + " (single precision cannot resolve this system further)",
                        total);
  }
  total.residual = residual;
  total.true_residual = residual;
  if constexpr (batch > 0) total.rhs_true_residuals = residuals;
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

// Defect correction for the whole-lattice operator of any action with a
// single-precision twin: the inner operator is made from
// M.action().single_precision() for this solve (its rounding is part of the
// time reported). x and b may be batches of right-hand sides.
template <WholeLatticeOperator Dirac, class Field>
  requires SinglePrecisionTwin<typename Dirac::action_type>
SolverReport solve_mixed(const Dirac& M, Field& x, const Field& b, const SolverControl& control,
                         const MixedPrecisionControl& mixed = {},
                         const std::string& name = "Latte mixed-precision solve") {
  const auto start = std::chrono::steady_clock::now();
  const FermionOperator<decltype(M.action().single_precision())> M_single(M.action().single_precision());
  SolverReport report = solve_by_defect_correction(M, M_single, x, b, control, mixed, name);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace latte
