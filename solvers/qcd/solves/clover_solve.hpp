#pragma once
// Clover solves: even-odd preconditioned CG on the clover Schur complement
// (solvers/qcd/fermions/clover_action.hpp), and the same with mixed
// precision (defect correction with a single-precision twin inside).

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

// The single-precision twin of a double clover Schur operator: links and
// clover term (and its inverse) rounded from the double ones, on the same
// lanes, and the same boundary (its phases applied to the rounded links, as
// for Wilson's twin). It owns its single-precision links.
template <class W>
class SingleCloverEvenOdd {
 public:
  using SingleWidth = MatchingSingleWidth<W>;
  explicit SingleCloverEvenOdd(const CloverDirac<double, W>& M)
      : U_(single_precision_links(M.gauge())),
        term_(CloverTerm<float, SingleWidth>::rounded_from(M.clover_term())),
        schur_(U_, term_, M.boundary()) {}
  const CloverEvenOdd<float, SingleWidth>& schur() const { return schur_; }

 private:
  GaugeField<float, SingleWidth> U_;
  CloverTerm<float, SingleWidth> term_;
  CloverEvenOdd<float, SingleWidth> schur_;
};

// Even-odd preconditioning and mixed precision together (defect correction
// on the Schur system with the single twin inside).
template <class W>
SolverReport solve_clover_even_odd_mixed(const CloverEvenOdd<double, W>& schur,
                                         const CloverEvenOdd<float, MatchingSingleWidth<W>>& schur_single,
                                         const CloverDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  return solve_even_odd_mixed(schur, schur_single, M, x, b, control, mixed,
                              "Latte even-odd mixed-precision clover solve");
}

}  // namespace latte
