#pragma once
// Where an expression is evaluated. Every node answers eval(site) for both:
//  - VectorSite: one outer site, all lanes at once, leaves are SIMD vectors
//    (the CPU lowering). The backend supplies the lane permute.
//  - LaneSite: one (outer site, lane) pair, leaves are plain reals (the
//    per-lane lowering: the simt backend on the CPU and CUDA threads).

#include <cstddef>
#include <cstdint>

#include "lattice/tensors/tensor.hpp"
#include "platform/build.hpp"

namespace latte {

template <class Vector, class Real, class VectorOps>
struct VectorSite {
  static constexpr bool is_vector = true;
  using leaf_type = Vector;
  using real_type = Real;
  using ops_type = VectorOps;
  std::int64_t outer;
  // An interior outer site (SiteLayout::interior_sites): shifts by one step
  // whose table is interior_regular need not read their tables. Set only by
  // the CPU loops over a statement's sites; false is always correct.
  bool interior = false;
  // The statement streams its operands from memory (set by the CPU loops
  // where the destination is larger than the caches): a batch of
  // right-hand sides then prefetches within the site (dsl/expr/batch_lowering.hpp).
  bool from_memory = false;

  LATTE_INLINE VectorSite at(std::int64_t other_outer) const { return {other_outer}; }
  // The same site, for prefetches into the second-level cache only.
  LATTE_INLINE VectorSite<Vector, Real, typename VectorOps::ToSecondLevel> to_second_level() const {
    return {outer, interior, from_memory};
  }

  LATTE_INLINE static void prefetch(const void* p, std::size_t bytes) { VectorOps::prefetch(p, bytes); }
  LATTE_INLINE static void stream(Vector& target, const Vector& value) { VectorOps::stream(target, value); }

  // Lane l of the result takes lane lane_map[l] of the value.
  template <class T>
  LATTE_INLINE static void permute(T& value, const std::int32_t* lane_map) {
    for_each_leaf([&](Vector& leaf) LATTE_LAMBDA { leaf = VectorOps::permute(leaf, lane_map); }, value);
  }
};

// The outer sites a statement runs over: a run of consecutive sites (list
// null: first .. first + count - 1; all of them when first is 0), or a list
// (the interior or the surface of a statement with halos, where they are
// not one run). Trivially copyable, for kernels.
struct SiteRange {
  const std::int32_t* list = nullptr;
  std::int64_t count = 0;
  std::int64_t first = 0;
  // The same sites in tiled order (lattice/layout/tiled_order.hpp), in host memory,
  // where a split of the lattice made such a list; the CPU lowering takes
  // statements with large sites through it. Null otherwise.
  const std::int32_t* tiled = nullptr;
  LATTE_INLINE std::int64_t operator[](std::int64_t i) const { return list ? list[i] : first + i; }
};

template <class Real>
struct LaneSite {
  static constexpr bool is_vector = false;
  using leaf_type = Real;
  using real_type = Real;
  std::int64_t outer;
  int lane;
};

}  // namespace latte
