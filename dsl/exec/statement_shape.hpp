#pragma once
// A statement's shape (backends/common/traversal.hpp), from its destination's
// site type and layout, and the site pattern that runs its kernel under the
// traversal the backend chooses for that shape: the one place where the
// statements hand their kernels to a backend.

#include <cstddef>
#include <cstdint>

#include "backends/common/traversal.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "lattice/tensors/tensor.hpp"

namespace latte {

// Bytes of one outer site of a field of T with N lanes.
template <class T, int N>
constexpr std::size_t outer_site_bytes() {
  return sizeof(real_of_t<T>) * words_v<T> * N;
}

template <class T, int N>
StatementShape statement_shape(StatementForm form, const SiteLayout& layout, bool reads_destination,
                               std::size_t bytes_read_per_site) {
  constexpr std::size_t site = outer_site_bytes<T, N>();
  return {form, reads_destination, static_cast<std::size_t>(layout.outer_volume()) * site, site, bytes_read_per_site};
}

// kernel at every site of `sites`. `interior`: the interior flags the kernel
// may rely on (null where it may not).
template <class Backend, class Kernel>
void for_each_site(const StatementShape& shape, const SiteLayout& layout, SiteRange sites, const Kernel& kernel,
                   const std::uint8_t* interior) {
  Backend::for_each_site(Backend::traversal(shape, sites, layout, interior), kernel);
}

// The accumulators of kernel(site) over `sites`.
template <class Backend, class Combine, class Kernel>
auto reduce_sites(const StatementShape& shape, const SiteLayout& layout, SiteRange sites, const Kernel& kernel,
                  const std::uint8_t* interior) {
  return Backend::template reduce_sites<Combine>(Backend::traversal(shape, sites, layout, interior), kernel);
}

}  // namespace latte
