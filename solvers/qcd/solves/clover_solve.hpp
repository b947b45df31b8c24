#pragma once
// Clover solves: even-odd preconditioned CG on the clover Schur complement
// (solvers/qcd/fermions/clover_action.hpp), and the same with mixed
// precision (defect correction with the single-precision twin of the
// action inside, CloverAction::single_precision).

#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/solves/even_odd_solve.hpp"
#include "solvers/qcd/solves/wilson_solve_mixed.hpp"

namespace latte {

// Even-odd preconditioned CG for the clover operator.
template <class R, class W, class Site>
SolverReport solve_clover_even_odd(const CloverEvenOdd<R, W>& schur, const CloverDirac<R, W>& M,
                                   Lattice<Site, W>& x, const Lattice<Site, W>& b, const SolverControl& control) {
  return solve_even_odd(schur, M, x, b, control, "Latte even-odd clover solve");
}

// Even-odd preconditioning and mixed precision together: defect correction
// on the Schur system with the single-precision twin inside, e.g.
// CloverEvenOdd<float, MatchingSingleWidth<W>>(M.action().single_precision())
// (built once, it serves any number of solves).
template <class W>
SolverReport solve_clover_even_odd_mixed(const CloverEvenOdd<double, W>& schur,
                                         const CloverEvenOdd<float, MatchingSingleWidth<W>>& schur_single,
                                         const CloverDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  return solve_even_odd_mixed(schur, schur_single, M, x, b, control, mixed,
                              "Latte even-odd mixed-precision clover solve");
}

// The same with the twin made for this one solve from M's action
// (CloverAction::single_precision: links, T and T^-1 rounded, the links
// then phased).
template <class W>
SolverReport solve_clover_even_odd_mixed(const CloverEvenOdd<double, W>& schur, const CloverDirac<double, W>& M,
                                         Lattice<Spinor<double>, W>& x, const Lattice<Spinor<double>, W>& b,
                                         const SolverControl& control, const MixedPrecisionControl& mixed = {}) {
  return solve_even_odd_mixed(schur, M, x, b, control, mixed, "Latte even-odd mixed-precision clover solve");
}

}  // namespace latte
