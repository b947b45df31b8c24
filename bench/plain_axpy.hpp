#pragma once
// YARDSTICK, not library code: z = a*x + y for complex fields written as the
// plainest OpenMP loop over the very same memory the DSL statement streams.
// If the DSL falls short of STREAM but matches this loop, the shortfall is
// the memory system's (write-allocate, page policy), not the expression
// templates'; if this loop is faster, the DSL's generated code is to blame.
//
// It relies on the memory image documented in lattice/fields/field_view.hpp: a
// complex site holds Nsimd real parts, then Nsimd imaginary parts.

#include <cstdint>

namespace latte::bench {

template <int Nsimd, class Real>
void plain_complex_axpy(Real a_re, Real a_im, const Real* __restrict x, const Real* __restrict y,
                        Real* __restrict z, std::int64_t outer_sites) {
#pragma omp parallel for schedule(static)
  for (std::int64_t o = 0; o < outer_sites; ++o) {
    const std::int64_t re = o * 2 * Nsimd, im = re + Nsimd;
#pragma omp simd
    for (int l = 0; l < Nsimd; ++l) {
      z[re + l] = a_re * x[re + l] - a_im * x[im + l] + y[re + l];
      z[im + l] = a_re * x[im + l] + a_im * x[re + l] + y[im + l];
    }
  }
}

}  // namespace latte::bench
