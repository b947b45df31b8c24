#pragma once
// Mixed-precision Wilson solve: defect correction. The outer loop works in
// double and keeps r = b - M x exact to double precision; each cycle solves
// the normal equations for the correction, M^+ M e = M^+ r, in single
// precision to a loose relative tolerance, and adds it: x += e. Single
// precision halves the bytes every inner iteration moves (the solve is
// bandwidth-bound) while the outer residual still reaches double tolerances.
//
// The single-precision fields have the lane count of the double ones
// (MatchingSingleWidth), so precision changes are pointwise statements; the
// same holds on checkerboards, so the even-odd Schur system is solved the
// same way (solve_wilson_even_odd_mixed).

#include <chrono>
#include <cmath>
#include <string>
#include <string_view>

#include "dsl/precision_cast.hpp"
#include "solvers/qcd/wilson_even_odd.hpp"
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

// The links in single precision, on the same lanes as the double ones.
template <class W>
GaugeField<float, MatchingSingleWidth<W>> single_precision_links(const GaugeField<double, W>& U) {
  GaugeField<float, MatchingSingleWidth<W>> U_single(U.geometry());
  for (int mu = 0; mu < 4; ++mu) U_single[mu] = precision_cast<float>(U[mu]);
  return U_single;
}

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

template <class W>
SolverReport solve_wilson_mixed(const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                const MixedPrecisionControl& mixed = {}) {
  const auto U_single = single_precision_links(M.gauge());
  const WilsonDirac<float, MatchingSingleWidth<W>> M_single(U_single, M.mass());
  return solve_by_defect_correction(M, M_single, x, b, control, mixed, "Latte mixed-precision Wilson solve");
}

// Even-odd preconditioning and mixed precision together: defect correction
// on the Schur system (the double Schur operator `schur` outside, its
// single-precision twin `schur_single` inside; both built once, they serve
// any number of solves), then the odd sites are reconstructed in double.
template <class W>
SolverReport solve_wilson_even_odd_mixed(const WilsonEvenOdd<double, W>& schur,
                                         const WilsonEvenOdd<float, MatchingSingleWidth<W>>& schur_single,
                                         const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  const std::string name = "Latte even-odd mixed-precision Wilson solve";
  constexpr int nsimd = Lattice<Spinor<double>, W>::nsimd;  // the single fields have as many lanes
  const SiteLayout& single_sites = schur_single.geometry().layout(nsimd);
  const SiteLayout& double_sites = schur.geometry().layout(nsimd);
  if (schur_single.mass() != schur.mass() || !single_sites.same_as(double_sites))
    throw GeometryMismatch(name + ": the single-precision Schur operator (m = " + std::to_string(schur_single.mass()) +
                           ", " + single_sites.describe() + ") is not the twin of the double one (m = " +
                           std::to_string(schur.mass()) + ", " + double_sites.describe() + ")");
  return solve_through_schur_complement(
      schur, M, x, b, control, name, [&](auto& x_even, const auto& rhs, const SolverControl& reduced) {
        return solve_by_defect_correction(schur, schur_single, x_even, rhs, reduced, mixed, name);
      });
}

// The same, building both Schur operators for this one solve (their link
// copies and first-use tables are part of the time reported).
template <class W>
SolverReport solve_wilson_even_odd_mixed(const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<double, W> schur(M.gauge(), M.mass());
  // The single Schur operator keeps its own copies of the links by parity.
  const WilsonEvenOdd<float, MatchingSingleWidth<W>> schur_single(single_precision_links(M.gauge()), M.mass());
  SolverReport report = solve_wilson_even_odd_mixed(schur, schur_single, M, x, b, control, mixed);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// The same for N right-hand sides at once (batch fields).
template <class W, int N>
SolverReport solve_wilson_mixed(const WilsonDirac<double, W>& M, Lattice<MultiSpinor<double, N>, W>& x,
                                const Lattice<MultiSpinor<double, N>, W>& b, const SolverControl& control,
                                const MixedPrecisionControl& mixed = {}) {
  const auto U_single = single_precision_links(M.gauge());
  const WilsonDirac<float, MatchingSingleWidth<W>> M_single(U_single, M.mass());
  return solve_by_defect_correction(M, M_single, x, b, control, mixed, "Latte mixed-precision Wilson solve");
}
template <class W, int N>
SolverReport solve_wilson_even_odd_mixed(const WilsonDirac<double, W>& M, Lattice<MultiSpinor<double, N>, W>& x,
                                         const Lattice<MultiSpinor<double, N>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  const auto start = std::chrono::steady_clock::now();
  const std::string name = "Latte even-odd mixed-precision Wilson solve";
  const WilsonEvenOdd<double, W> schur(M.gauge(), M.mass());
  const WilsonEvenOdd<float, MatchingSingleWidth<W>> schur_single(single_precision_links(M.gauge()), M.mass());
  SolverReport report = solve_through_schur_complement(
      schur, M, x, b, control, name, [&](auto& x_even, const auto& rhs, const SolverControl& reduced) {
        return solve_by_defect_correction(schur, schur_single, x_even, rhs, reduced, mixed, name);
      });
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

#if defined(LATTE_PRECOMPILED_QCD) && LATTE_QCD_MIXED_PRECISION_INSTANCES
#if LATTE_SIMD_BYTES != 0  // one lane: the single-precision width is DefaultWidth, an instance of its own
LATTE_QCD_MIXED_INSTANCE class WilsonDirac<float, MatchingSingleWidth<DefaultWidth>>;
LATTE_QCD_MIXED_INSTANCE class WilsonEvenOdd<float, MatchingSingleWidth<DefaultWidth>>;
#endif
LATTE_QCD_MIXED_INSTANCE SolverReport solve_wilson_mixed(const WilsonDirac<double>&, Lattice<Spinor<double>>&,
                                                         const Lattice<Spinor<double>>&, const SolverControl&,
                                                         const MixedPrecisionControl&);
LATTE_QCD_MIXED_INSTANCE SolverReport solve_wilson_even_odd_mixed(
    const WilsonEvenOdd<double>&, const WilsonEvenOdd<float, MatchingSingleWidth<DefaultWidth>>&, const WilsonDirac<double>&,
    Lattice<Spinor<double>>&, const Lattice<Spinor<double>>&, const SolverControl&, const MixedPrecisionControl&);
LATTE_QCD_MIXED_INSTANCE SolverReport solve_wilson_even_odd_mixed(const WilsonDirac<double>&, Lattice<Spinor<double>>&,
                                                                  const Lattice<Spinor<double>>&, const SolverControl&,
                                                                  const MixedPrecisionControl&);
#endif

}  // namespace latte
