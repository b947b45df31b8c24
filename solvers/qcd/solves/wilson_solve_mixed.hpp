#pragma once
// Mixed-precision Wilson solves: defect correction
// (solvers/qcd/solves/defect_correction.hpp) with the Wilson operator or its
// even-odd Schur complement, and the single-precision twin of its action
// (WilsonAction::single_precision: on the same lanes, MatchingSingleWidth,
// the links rounded from the double ones and then phased, the same mass and
// fermion boundary).

#include <chrono>
#include <cmath>
#include <string>

#include "dsl/expr/precision_cast.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/solves/defect_correction.hpp"
#include "solvers/qcd/solves/even_odd_solve.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte {

// The single-precision fields take float vectors of half the build's width,
// which the backend must have (an SSE2 cpu build has none of 8 bytes).
template <class W>
inline constexpr bool mixed_precision_available = backend::Default::template has_vectors<float>(W::bytes / 2);

template <class W>
SolverReport solve_wilson_mixed(const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                const MixedPrecisionControl& mixed = {}) {
  const WilsonDirac<float, MatchingSingleWidth<W>> M_single(M.action().single_precision());
  return solve_by_defect_correction(M, M_single, x, b, control, mixed, "Latte mixed-precision Wilson solve");
}

// Even-odd preconditioning and mixed precision together: defect correction
// on the Schur system (the double Schur operator `schur` outside, its
// single-precision twin `schur_single` inside, e.g.
// WilsonEvenOdd<float, MatchingSingleWidth<W>>(M.action().single_precision());
// both built once, they serve any number of solves), then the odd sites are
// reconstructed in double.
template <class W>
SolverReport solve_wilson_even_odd_mixed(const WilsonEvenOdd<double, W>& schur,
                                         const WilsonEvenOdd<float, MatchingSingleWidth<W>>& schur_single,
                                         const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  return solve_even_odd_mixed(schur, schur_single, M, x, b, control, mixed,
                              "Latte even-odd mixed-precision Wilson solve");
}

// The same, building both Schur operators for this one solve (the double
// one shares M's links; the single one is made from the twin of M's action,
// and its rounding and links by parity are part of the time reported).
template <class W>
SolverReport solve_wilson_even_odd_mixed(const WilsonDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<double, W> schur(M);
  const WilsonEvenOdd<float, MatchingSingleWidth<W>> schur_single(M.action().single_precision());
  SolverReport report = solve_wilson_even_odd_mixed(schur, schur_single, M, x, b, control, mixed);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// The same for N right-hand sides at once (batch fields).
template <class W, int N>
SolverReport solve_wilson_mixed(const WilsonDirac<double, W>& M, Lattice<MultiSpinor<double, N>, W>& x,
                                const Lattice<MultiSpinor<double, N>, W>& b, const SolverControl& control,
                                const MixedPrecisionControl& mixed = {}) {
  const WilsonDirac<float, MatchingSingleWidth<W>> M_single(M.action().single_precision());
  return solve_by_defect_correction(M, M_single, x, b, control, mixed, "Latte mixed-precision Wilson solve");
}
template <class W, int N>
SolverReport solve_wilson_even_odd_mixed(const WilsonDirac<double, W>& M, Lattice<MultiSpinor<double, N>, W>& x,
                                         const Lattice<MultiSpinor<double, N>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<double, W> schur(M);
  const WilsonEvenOdd<float, MatchingSingleWidth<W>> schur_single(M.action().single_precision());
  SolverReport report = solve_even_odd_mixed(schur, schur_single, M, x, b, control, mixed,
                                             "Latte even-odd mixed-precision Wilson solve");
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

#if defined(LATTE_PRECOMPILED_QCD) && LATTE_QCD_MIXED_PRECISION_INSTANCES
#if LATTE_SIMD_BYTES != 0  // one lane: the single-precision width is DefaultWidth, an instance of its own
LATTE_QCD_MIXED_INSTANCE class FermionOperator<WilsonAction<float, MatchingSingleWidth<DefaultWidth>>>;
LATTE_QCD_MIXED_INSTANCE class WilsonDirac<float, MatchingSingleWidth<DefaultWidth>>;
LATTE_QCD_MIXED_INSTANCE class EvenOddOperator<WilsonEvenOddAction<float, MatchingSingleWidth<DefaultWidth>>>;
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
