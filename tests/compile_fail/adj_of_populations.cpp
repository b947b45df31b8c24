// The adjoint is of a matrix, a complex number or a real: adj of
// lattice-Boltzmann populations is refused.
// expect-error: Latte: adj\(a\) is refused: the adjoint is of a matrix, a complex number or a real only
// expect-kinds: site_algebra<latte::functors::Adj, latte::kind::populations<9> ?>::defined
#include "dsl/expr/functions.hpp"
#include "dsl/statements/assign.hpp"
#include "lattice/tensors/site_types.hpp"

void adj_of_populations(const latte::Lattice<latte::Populations<double, 9>>& f,
                        latte::Lattice<latte::Populations<double, 9>>& g) {
  g = adj(f);
}
