// Sums are of values of one kind: a spinor plus a colour vector is refused.
// expect-error: Latte: a \+ b is refused: the site algebra adds only values of one kind
// expect-kinds: site_algebra<latte::functors::Plus, latte::kind::spinor, latte::kind::colour_vector ?>::defined
#include "dsl/expr/operators.hpp"
#include "dsl/statements/assign.hpp"
#include "lattice/tensors/site_types.hpp"

void spinor_plus_colour_vector(const latte::Lattice<latte::Spinor<double>>& psi,
                               const latte::Lattice<latte::ColourVector<double>>& c,
                               latte::Lattice<latte::Spinor<double>>& chi) {
  chi = psi + c;
}
