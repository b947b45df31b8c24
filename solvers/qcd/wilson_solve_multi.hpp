#pragma once
// Solving M x = b for N right-hand sides held together in one batch field
// (MultiSpinor<R, N>: N spinors per site), e.g. the 12 columns of a quark
// propagator.
//
// PROVISIONAL: this version solves the columns one after the other with the
// single-right-hand-side solve_wilson (solvers/qcd/wilson_solve.hpp), copying
// each column out of the batch and back. It stands in, with the same
// signature and the same failure behaviour, for the multi-right-hand-side
// solver that applies each link to all N columns at once; that solver
// replaces this file.
//
// The report adds up iterations, flops and seconds over the columns; its
// residual and true_residual are the largest of any column, and its history
// is the columns' histories one after the other. Each column's initial guess
// is the matching column of x.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "solvers/qcd/wilson_solve.hpp"

namespace latte {

template <class R, class W, int N>
SolverReport solve_wilson(const WilsonDirac<R, W>& M, Lattice<MultiSpinor<R, N>, W>& x,
                          const Lattice<MultiSpinor<R, N>, W>& b, const SolverControl& control) {
  using Column = Lattice<Spinor<R>, W>;
  constexpr auto columns = std::make_integer_sequence<int, N>{};
  // The columns of x, each solved in place: after a failure x still holds
  // the solved columns, the failing one's last iterate and the initial
  // guesses of the rest.
  std::vector<Column> solutions;
  solutions.reserve(N);
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((solutions.emplace_back(x.geometry()) = element<K>(x)), ...);
  }(columns);
  const auto store = [&]<int... K>(std::integer_sequence<int, K...>) {
    x = pack<MultiSpinor<R, N>>(solutions[K]...);
  };

  SolverReport total;
  const auto add = [&total](const SolverReport& column) {
    total.iterations += column.iterations;
    total.flops += column.flops;
    total.seconds += column.seconds;
    total.residual = std::max(total.residual, column.residual);
    total.true_residual = std::max(total.true_residual, column.true_residual);
    total.residual_history.insert(total.residual_history.end(), column.residual_history.begin(),
                                  column.residual_history.end());
  };
  Column rhs(b.geometry());
  const auto solve_column = [&]<int K>(std::integral_constant<int, K>) {
    rhs = element<K>(b);
    try {
      add(solve_wilson(M, solutions[K], rhs, control));
    } catch (const SolverError& error) {
      add(error.report());
      store(columns);
      throw SolverError("Latte Wilson solve, column " + std::to_string(K) + " of " + std::to_string(N) + ": " +
                            error.what(),
                        total);
    }
  };
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (solve_column(std::integral_constant<int, K>{}), ...);
  }(columns);
  store(columns);
  return total;
}

}  // namespace latte
