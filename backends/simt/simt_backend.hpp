#pragma once
// The simt backend: the per-lane lowering (backends/common/lane_statements.hpp)
// run on the CPU, one OpenMP loop over outer sites with the lanes inside.
// It needs no SIMD library and runs the exact code CUDA threads run.
// The contract every backend meets is written in backends/backend_contract.hpp.

#include <cstdint>

#include "backends/common/host_push_halo.hpp"
#include "backends/common/host_statement_timer.hpp"
#include "backends/common/lane_statements.hpp"
#include "backends/common/parallel.hpp"
#include "backends/common/reduction_blocks.hpp"
#include "lattice/field_view.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/memory_side.hpp"

namespace latte::backend {

struct Simt {
  static constexpr const char* name = "simt";
  // The statement profile's clock and STREAM reference (dsl/statement_profile.hpp).
  using StatementTimer = HostStatementTimer;
  static double stream_triad_gbytes_per_s() { return host_stream_triad_gbytes_per_s(); }
  static constexpr MemorySide memory_side = MemorySide::host;
  static void synchronize() {}  // statements are done when assign returns
  // Halo work is done when pack and unpack return; nothing to order.
  static void halo_begin() {}
  static void halo_staged() {}
  static void halo_end() {}

  template <class T, int N, class E, class Op>
  static void assign(const FieldView<T, N>& dst, const E& e, Op op, SiteRange sites) {
    parallel_for(sites.count, [=](std::int64_t i) {
      for (int l = 0; l < N; ++l) lane::assign(dst, e, op, sites[i], l);
    });
  }

  template <class T, int N, class E, int K>
  static void push(const FieldView<T, N>& dst, const E& e, const PushTargets<real_of_t<T>, K>& to, SiteRange sites) {
    parallel_for(sites.count, [=](std::int64_t i) {
      for (int l = 0; l < N; ++l) lane::push(dst, e, to, sites[i], l);
    });
  }

  template <class Combine, class E>
  static auto reduce(const E& e, SiteRange sites) {
    using A = lane::accumulator_of<Combine, E>;
    return parallel_accumulate(
        reduction_blocks(sites.count), start_accumulator<Combine, A>(),
        [&](A& mine, std::int64_t b) { lane::reduce_block<Combine>(mine, e, sites, b); },
        [](A& total, const A& mine) { merge_accumulators<Combine>(total, mine); });
  }

  template <class Combine, class T, int N, class E, class Op, class R>
  static auto assign_reduce(const FieldView<T, N>& dst, const E& e, Op op, const R& r, SiteRange sites) {
    using A = lane::accumulator_of<Combine, R>;
    return parallel_accumulate(
        reduction_blocks(sites.count), start_accumulator<Combine, A>(),
        [&](A& mine, std::int64_t b) { lane::assign_reduce_block<Combine>(mine, dst, e, op, r, sites, b); },
        [](A& total, const A& mine) { merge_accumulators<Combine>(total, mine); });
  }

  template <class E>
  static void pack(const E& e, HaloItemsView items, typename E::real_type* payload) {
    parallel_for(items.items, [=](std::int64_t i) { lane::pack_item(e, items.item[i], i, payload); });
  }

  template <class Real>
  static void return_halo(HaloItemsView items, const void* records, void* payload, int words, int nsimd) {
    host::return_halo<Real>(items, records, payload, words, nsimd);
  }
  template <class Real>
  static void deliver_halo(HaloItemsView items, const void* payload, void* field, int record_stride, int words,
                           int nsimd) {
    host::deliver_halo<Real>(items, payload, field, record_stride, words, nsimd);
  }

  template <class Real>
  static void unpack(HaloItemsView items, const void* payload, void* records, int words, int nsimd) {
    const Real* in = static_cast<const Real*>(payload);
    Real* out = static_cast<Real*>(records);
    parallel_for(items.items, [=](std::int64_t i) { lane::unpack_item(items.item[i], i, in, out, words, nsimd); });
  }
};

}  // namespace latte::backend
