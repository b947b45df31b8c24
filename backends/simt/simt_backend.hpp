#pragma once
// The simt backend: the per-lane lowering (backends/common/lane_statements.hpp)
// run on the CPU, one OpenMP loop over outer sites with the lanes inside.
// It needs no SIMD library and runs the exact code CUDA threads run.

#include <cstdint>
#include <vector>

#include "backends/common/lane_statements.hpp"
#include "backends/common/parallel.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "lattice/field_view.hpp"
#include "lattice/memory_side.hpp"

namespace latte::backend {

struct Simt {
  static constexpr const char* name = "simt";
  static constexpr MemorySide memory_side = MemorySide::host;
  static void synchronize() {}  // statements are done when assign returns

  template <class T, int N, class E, class Op>
  static void assign(const FieldView<T, N>& dst, const E& e, Op op) {
    parallel_for(dst.site_layout->outer_volume(), [=](std::int64_t o) {
      for (int l = 0; l < N; ++l) lane::assign(dst, e, op, o, l);
    });
  }

  template <class Combine, class E>
  static auto reduce(const E& e) {
    const std::int64_t outer = e.layout()->outer_volume();
    using Result = decltype(lane::reduce_block<Combine>(e, 0, outer));
    std::vector<Result> partial(reduction_blocks(outer));
    parallel_for(static_cast<std::int64_t>(partial.size()),
                 [&](std::int64_t b) { partial[b] = lane::reduce_block<Combine>(e, b, outer); });
    return combine_blocks<Combine>(partial);
  }

  template <class Combine, class T, int N, class E, class Op, class R>
  static auto assign_reduce(const FieldView<T, N>& dst, const E& e, Op op, const R& r) {
    const std::int64_t outer = dst.site_layout->outer_volume();
    using Result = decltype(lane::reduce_block<Combine>(r, 0, outer));
    std::vector<Result> partial(reduction_blocks(outer));
    parallel_for(static_cast<std::int64_t>(partial.size()),
                 [&](std::int64_t b) { partial[b] = lane::assign_reduce_block<Combine>(dst, e, op, r, b, outer); });
    return combine_blocks<Combine>(partial);
  }
};

}  // namespace latte::backend
