#pragma once
// Even-odd preconditioned Wilson solves: CG on the normal equations of the
// Schur complement (solvers/qcd/fermions/wilson_even_odd.hpp) through the
// solve written once for every action (solvers/qcd/solves/even_odd_solve.hpp),
// for one right-hand side or a batch of them.

#include <chrono>

#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/solves/even_odd_solve.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte {

// Even-odd preconditioned CG: CG on the Schur system's normal equations.
template <class R, class W>
SolverReport solve_wilson_even_odd(const WilsonEvenOdd<R, W>& schur, const WilsonDirac<R, W>& M,
                                   Lattice<Spinor<R>, W>& x, const Lattice<Spinor<R>, W>& b,
                                   const SolverControl& control) {
  return solve_even_odd(schur, M, x, b, control, "Latte even-odd Wilson solve");
}

// The same, building the Schur operator for this one solve (its links by
// parity and first-use tables are part of the time reported; it shares M's
// whole-lattice links).
template <class R, class W>
SolverReport solve_wilson_even_odd(const WilsonDirac<R, W>& M, Lattice<Spinor<R>, W>& x,
                                   const Lattice<Spinor<R>, W>& b, const SolverControl& control) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<R, W> schur(M);
  SolverReport report = solve_wilson_even_odd(schur, M, x, b, control);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// The same for N right-hand sides at once: one Schur operator application
// per iteration for all of them.
template <class R, class W, int N>
SolverReport solve_wilson_even_odd(const WilsonEvenOdd<R, W>& schur, const WilsonDirac<R, W>& M,
                                   Lattice<MultiSpinor<R, N>, W>& x, const Lattice<MultiSpinor<R, N>, W>& b,
                                   const SolverControl& control) {
  return solve_even_odd(schur, M, x, b, control, "Latte even-odd Wilson solve");
}
template <class R, class W, int N>
SolverReport solve_wilson_even_odd(const WilsonDirac<R, W>& M, Lattice<MultiSpinor<R, N>, W>& x,
                                   const Lattice<MultiSpinor<R, N>, W>& b, const SolverControl& control) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<R, W> schur(M);
  SolverReport report = solve_wilson_even_odd(schur, M, x, b, control);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson(const WilsonEvenOdd<double>&, Lattice<Spinor<double>>&,
                                                    const Lattice<Spinor<double>>&, const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson(const WilsonEvenOdd<float>&, Lattice<Spinor<float>>&,
                                                    const Lattice<Spinor<float>>&, const SolverControl&);
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonEvenOdd<double>&, const WilsonDirac<double>&,
                                                             Lattice<Spinor<double>>&, const Lattice<Spinor<double>>&,
                                                             const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonEvenOdd<float>&, const WilsonDirac<float>&,
                                                             Lattice<Spinor<float>>&, const Lattice<Spinor<float>>&,
                                                             const SolverControl&);
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonDirac<double>&, Lattice<Spinor<double>>&,
                                                             const Lattice<Spinor<double>>&, const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonDirac<float>&, Lattice<Spinor<float>>&,
                                                             const Lattice<Spinor<float>>&, const SolverControl&);
#endif

}  // namespace latte
