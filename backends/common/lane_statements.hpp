#pragma once
// The per-lane bodies of the backends' reductions: what one (outer site,
// lane) thread adds. The simt backend runs them in OpenMP loops on the CPU;
// the CUDA backend runs the very same bodies, one GPU thread per (site,
// lane). The statements' kernels themselves are written once for both site
// types (dsl/exec/statement_kernels.hpp), the halo work likewise
// (dsl/exec/halo_kernels.hpp).

#include <cstdint>
#include <type_traits>
#include <utility>

#include "backends/common/reduction_blocks.hpp"
#include "lattice/fields/field_view.hpp"
#include "lattice/tensors/site_index.hpp"
#include "platform/build.hpp"

namespace latte::lane {

// The accumulator type of a reduction kernel's values (kernel(site):
// dsl/exec/statement_kernels.hpp).
template <class Combine, class Kernel>
using accumulator_of = accumulator_t<Combine, std::remove_cvref_t<decltype(std::declval<const Kernel&>()(
                                                  LaneSite<typename Kernel::real_type>{0, 0}))>>;

// Add kernel(o, l) to the accumulators a (one per leaf of its value).
template <class Combine, class A, class Kernel>
LATTE_INLINE void accumulate_site(A& a, const Kernel& kernel, std::int64_t outer, int lane) {
  accumulate<Combine>(a, kernel(LaneSite<typename Kernel::real_type>{outer, lane}));
}

// Reduce block b of the sites into a.
template <class Combine, class A, class Kernel>
LATTE_INLINE void reduce_block(A& a, const Kernel& kernel, SiteRange sites, std::int64_t block) {
  const std::int64_t begin = block * reduction_block_sites;
  const std::int64_t end = begin + reduction_block_sites < sites.count ? begin + reduction_block_sites : sites.count;
  for (std::int64_t i = begin; i < end; ++i)
    for (int l = 0; l < Kernel::nsimd; ++l) accumulate_site<Combine>(a, kernel, sites[i], l);
}

}  // namespace latte::lane
