// A colour matrix acts on colour vectors (and the colour vectors inside a
// spinor or a batch), never on real or complex elements: times D2Q9
// populations it is refused at the operator, not nine matrices per site
// that fail only at the assignment.
// expect-error: Latte: a \* b is refused: the site algebra has no product of these two kinds
// expect-kinds: site_algebra<latte::functors::Times, latte::kind::colour_matrix, latte::kind::populations<9> ?>::defined
#include "dsl/expr/operators.hpp"
#include "dsl/statements/assign.hpp"
#include "lattice/tensors/site_types.hpp"

void link_times_populations(const latte::Lattice<latte::ColourMatrix<double>>& U,
                            const latte::Lattice<latte::Populations<double, 9>>& f,
                            latte::Lattice<latte::Populations<double, 9>>& g) {
  g = U * f;
}
