#pragma once
// Mixed-precision Wilson solve: defect correction. The outer loop works in
// double and keeps r = b - M x exact to double precision; each cycle solves
// the normal equations for the correction, M^+ M e = M^+ r, in single
// precision to a loose relative tolerance, and adds it: x += e. Single
// precision halves the bytes every inner iteration moves (the solve is
// bandwidth-bound) while the outer residual still reaches double tolerances.
//
// The single-precision fields have the lane count of the double ones
// (MatchingSingleWidth), so precision changes are pointwise statements.

#include <chrono>
#include <cmath>
#include <string>
#include <string_view>

#include "dsl/precision_cast.hpp"
#include "solvers/qcd/wilson_solve.hpp"

namespace latte {

// The CPU backend needs a float vector of half the build's width: an SSE2
// build has none of 8 bytes. Every other build and backend has it.
template <class W>
inline constexpr bool mixed_precision_available =
    W::bytes != 16 || std::string_view(backend::Default::name) != std::string_view("cpu");

struct MixedPrecisionControl {
  double inner_tolerance = 1e-4;  // relative, on the single-precision normal equations of each cycle
  int max_cycles = 50;
};

template <class W>
SolverReport solve_wilson_mixed(const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                const MixedPrecisionControl& mixed = {}) {
  using SingleWidth = MatchingSingleWidth<W>;
  using Field = Lattice<Spinor<double>, W>;
  using SingleField = Lattice<Spinor<float>, SingleWidth>;
  const Geometry& geometry = b.geometry();
  const auto start = std::chrono::steady_clock::now();

  GaugeField<float, SingleWidth> U_single(geometry);
  for (int mu = 0; mu < 4; ++mu) U_single[mu] = precision_cast<float>(M.gauge()[mu]);
  const WilsonDirac<float, SingleWidth> M_single(U_single, M.mass());

  Field Mx(geometry, Uninitialized{}), r(geometry, Uninitialized{});
  SingleField r_single(geometry, Uninitialized{}), rhs_single(geometry, Uninitialized{}), e_single(geometry);
  const double b_norm = std::sqrt(norm2(b));
  if (!(b_norm > 0)) throw SolverError("Latte mixed-precision Wilson solve: the source is zero or not finite", {});

  SolverReport total;
  M.apply(Mx, x);
  r = b - Mx;
  double residual = std::sqrt(norm2(r)) / b_norm;
  for (int cycle = 0; residual > control.tolerance; ++cycle) {
    if (cycle == mixed.max_cycles || total.iterations >= control.max_iterations)
      throw SolverError("Latte mixed-precision Wilson solve: |b - M x| / |b| = " + std::to_string(residual) +
                            " after " + std::to_string(cycle) + " cycles and " + std::to_string(total.iterations) +
                            " single-precision iterations, above the tolerance " + std::to_string(control.tolerance),
                        total);
    r_single = precision_cast<float>(r);
    M_single.apply_dagger(rhs_single, r_single);
    e_single = zero;
    SolverControl inner{mixed.inner_tolerance, control.max_iterations - total.iterations, control.keep_history};
    SolverReport step;
    try {
      step = conjugate_gradient(NormalOperator<WilsonDirac<float, SingleWidth>>(M_single), e_single, rhs_single, inner);
    } catch (const SolverError& e) {
      step = e.report();  // its last iterate may still correct x; the outer residual judges
    }
    total.iterations += step.iterations;
    total.flops += step.flops;
    total.residual_history.insert(total.residual_history.end(), step.residual_history.begin(),
                                  step.residual_history.end());
    x += precision_cast<double>(e_single);
    M.apply(Mx, x);
    r = b - Mx;
    total.flops += WilsonDirac<double, W>::flops_per_site * static_cast<double>(geometry.volume());
    const double previous = residual;
    residual = std::sqrt(norm2(r)) / b_norm;
    if (!(residual < 0.9 * previous))
      throw SolverError("Latte mixed-precision Wilson solve: a cycle took |b - M x| / |b| from " +
                            std::to_string(previous) + " only to " + std::to_string(residual) +
                            " (single precision cannot resolve this system further)",
                        total);
  }
  total.residual = residual;
  total.true_residual = residual;
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

}  // namespace latte
