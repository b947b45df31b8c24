#pragma once
// The per-lane lowering of a statement: what one (outer site, lane) thread
// does. The simt backend runs these bodies in OpenMP loops on the CPU; the
// CUDA backend runs the very same bodies, one GPU thread per (site, lane).
// Keeping them here, free of any loop or launch, is what lets the CPU test
// suite exercise the GPU's evaluation logic.

#include <cstdint>

#include "backends/common/reduction_blocks.hpp"
#include "backends/config.hpp"
#include "lattice/field_view.hpp"
#include "lattice/site_index.hpp"

namespace latte::lane {

// dst(o, l) op= e(o, l)
template <class T, int N, class E, class Op>
LATTE_INLINE void assign(const FieldView<T, N>& dst, const E& e, Op, std::int64_t outer, int lane) {
  using Real = real_of_t<T>;
  const LaneSite<Real> s{outer, lane};
  if constexpr (Op::reads_destination) dst.store(s, Op::apply(dst.load(s), e.eval(s)));
  else dst.store(s, Op::apply(T{}, e.eval(s)));
}

// The double-precision value of e at (o, l), the unit the reductions add.
template <class E>
LATTE_INLINE auto value_in_double(const E& e, std::int64_t outer, int lane) {
  using Real = typename E::real_type;
  auto v = e.eval(LaneSite<Real>{outer, lane});
  using Result = rebind_t<decltype(v), double>;
  return transform_leaves<Result>([](const auto& x) LATTE_LAMBDA { return static_cast<double>(x); }, v);
}

// Reduce one block of outer sites, sites in order and lanes in order.
template <class Combine, class E>
LATTE_INLINE auto reduce_block(const E& e, std::int64_t block, std::int64_t outer_volume) {
  const std::int64_t begin = block * reduction_block_sites;
  const std::int64_t end = begin + reduction_block_sites < outer_volume ? begin + reduction_block_sites : outer_volume;
  auto acc = value_in_double(e, begin, 0);
  for (std::int64_t o = begin; o < end; ++o)
    for (int l = (o == begin ? 1 : 0); l < E::nsimd; ++l) acc = combine<Combine>(acc, value_in_double(e, o, l));
  return acc;
}

// Assign one block of outer sites and reduce r over it, each lane reading
// back the value it has just written.
template <class Combine, class T, int N, class E, class Op, class R>
LATTE_INLINE auto assign_reduce_block(const FieldView<T, N>& dst, const E& e, Op op, const R& r, std::int64_t block,
                                      std::int64_t outer_volume) {
  const std::int64_t begin = block * reduction_block_sites;
  const std::int64_t end = begin + reduction_block_sites < outer_volume ? begin + reduction_block_sites : outer_volume;
  assign(dst, e, op, begin, 0);
  auto acc = value_in_double(r, begin, 0);
  for (std::int64_t o = begin; o < end; ++o)
    for (int l = (o == begin ? 1 : 0); l < N; ++l) {
      assign(dst, e, op, o, l);
      acc = combine<Combine>(acc, value_in_double(r, o, l));
    }
  return acc;
}

}  // namespace latte::lane
