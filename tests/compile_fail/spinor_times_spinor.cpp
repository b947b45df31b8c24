// The site algebra has no product of two spinors (a bilinear is written
// with localInnerProduct or a spin matrix): refused at the operator.
// expect-error: Latte: a \* b is refused: the site algebra has no product of these two kinds
// expect-kinds: site_algebra<latte::functors::Times, latte::kind::spinor, latte::kind::spinor ?>::defined
#include "dsl/expr/operators.hpp"
#include "dsl/statements/assign.hpp"
#include "lattice/tensors/site_types.hpp"

void product_of_spinors(const latte::Lattice<latte::Spinor<double>>& psi,
                        const latte::Lattice<latte::Spinor<double>>& phi, latte::Lattice<latte::Spinor<double>>& chi) {
  chi = psi * phi;
}
