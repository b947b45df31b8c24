// A refused product inside larger statements is their only error: the
// scaling, the sums, the negation, the assignments and the reduction around
// it take the refused expression without a word (the product itself, the
// same operator for the same operand types, is reported once).
// expect-error: Latte: a \* b is refused: the site algebra has no product of these two kinds
// expect-kinds: site_algebra<latte::functors::Times, latte::kind::spinor, latte::kind::colour_matrix ?>::defined
#include "dsl/expr/functions.hpp"
#include "dsl/expr/operators.hpp"
#include "dsl/statements/assign.hpp"
#include "lattice/tensors/site_types.hpp"

double refusal_inside_a_statement(const latte::Lattice<latte::Spinor<double>>& psi,
                                  const latte::Lattice<latte::ColourMatrix<double>>& U,
                                  latte::Lattice<latte::Spinor<double>>& chi) {
  chi = 0.5 * (psi * U) - chi;
  chi += -(psi * U);
  return norm2(psi * U + chi);
}
