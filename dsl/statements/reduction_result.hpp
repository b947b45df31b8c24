#pragma once
// The last step of every reduction: the accumulators of this rank's sites
// (backends/common/reduction_blocks.hpp) are merged with every other rank's
// and turned into the result. Accumulators merge exactly, so the result has
// the same bits for any number of ranks and any process grid.

#include <cstring>
#include <vector>

#include "backends/common/reduction_blocks.hpp"
#include "lattice/layout/simd_layout.hpp"

namespace latte {

template <class Combine, class Accumulator>
auto reduction_over_ranks(Accumulator total, const SiteLayout& layout) {
  const Communicator& comm = layout.decomposition().communicator();
  if (comm.size() > 1) {
    static std::vector<unsigned char> gathered;  // kept: an iteration of reductions allocates nothing
    gathered.resize(sizeof(Accumulator) * static_cast<std::size_t>(comm.size()));
    comm.all_gather(&total, sizeof(Accumulator), gathered.data());
    total = start_accumulator<Combine, Accumulator>();
    for (int r = 0; r < comm.size(); ++r) {
      Accumulator theirs;
      std::memcpy(static_cast<void*>(&theirs), gathered.data() + sizeof(Accumulator) * static_cast<std::size_t>(r),
                  sizeof(Accumulator));
      merge_accumulators<Combine>(total, theirs);
    }
  }
  return accumulated_value<Combine>(total);
}

}  // namespace latte
