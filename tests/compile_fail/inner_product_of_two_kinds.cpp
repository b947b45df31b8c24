// An inner product is of two values of one kind: over the lattice
// (innerProduct) it is refused before any reduction is built.
// expect-error: Latte: innerProduct\(a, b\) is refused: an inner product is of two values of one kind
// expect-kinds: site_algebra<latte::functors::LocalInnerProduct, latte::kind::spinor, latte::kind::half_spinor ?>::defined
#include "dsl/statements/reduce.hpp"
#include "lattice/tensors/site_types.hpp"

auto inner_product_of_two_kinds(const latte::Lattice<latte::Spinor<double>>& psi,
                                const latte::Lattice<latte::HalfSpinor<double>>& h) {
  return innerProduct(psi, h);
}
