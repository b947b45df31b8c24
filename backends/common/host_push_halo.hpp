#pragma once
// A push's halo, backwards (dsl/push.hpp), for the backends that work on
// host memory (cpu and simt): records into a payload, and a received
// payload into the field. Only sites on a block face take part, so the
// items run one per iteration, lane by lane, with the per-lane bodies the
// cuda kernels use too.

#include <cstdint>

#include "backends/common/lane_statements.hpp"
#include "backends/common/parallel.hpp"
#include "lattice/halo_exchange.hpp"

namespace latte::host {

template <class Real>
void return_halo(HaloItemsView items, const void* records, void* payload, int words, int nsimd) {
  const Real* in = static_cast<const Real*>(records);
  Real* out = static_cast<Real*>(payload);
  parallel_for(items.items, [=](std::int64_t i) { lane::return_item(items.item[i], i, in, out, words, nsimd); });
}

template <class Real>
void deliver_halo(HaloItemsView items, const void* payload, void* field, int record_stride, int words, int nsimd) {
  const Real* in = static_cast<const Real*>(payload);
  Real* out = static_cast<Real*>(field);
  parallel_for(items.items,
               [=](std::int64_t i) { lane::deliver_item(items.item[i], i, in, out, record_stride, words, nsimd); });
}

}  // namespace latte::host
