// A trace is of a matrix; a spinor is a vector: refused at trace(), with no
// second error from the statement that assigns it.
// expect-error: Latte: trace\(a\) is refused: the trace is of a matrix only
// expect-kinds: site_algebra<latte::functors::Trace, latte::kind::spinor ?>::defined
#include "dsl/expr/functions.hpp"
#include "dsl/statements/assign.hpp"
#include "lattice/tensors/site_types.hpp"

void trace_of_spinor(const latte::Lattice<latte::Spinor<double>>& psi, latte::Lattice<latte::ComplexD>& z) {
  z = trace(psi);
}
