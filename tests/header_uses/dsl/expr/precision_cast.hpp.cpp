// dsl/expr/precision_cast.hpp and the assignment statement, nothing else: a double field copied into single precision.
#include "dsl/expr/precision_cast.hpp"
#include "dsl/statements/assign.hpp"

// An SSE2 CPU build has no 8-byte float vector, hence no single width to match.
#if !(LATTE_SIMD_BYTES == 16 && !defined(LATTE_BACKEND_SIMT) && !defined(LATTE_BACKEND_CUDA))
void use_precision_cast() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<latte::ComplexD> d(geometry);
  latte::Lattice<latte::Complex<float>, latte::MatchingSingleWidth<latte::DefaultWidth>> f(geometry);
  d = latte::zero;
  f = latte::precision_cast<float>(d);
}
#endif
