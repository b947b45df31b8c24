#pragma once
// What every backend (cpu, simt, cuda) offers the DSL, written once. A
// backend B is a type with static members:
//
//   B::name, B::memory_side            which lowering, and where fields are read
//   B::synchronize()                   wait until issued statements are done
//   B::assign(dst, e, op, sites)       dst op= e at the outer sites of `sites`
//   B::reduce<Combine>(e, sites)       accumulators (one per leaf of e's value)
//                                      of e over `sites`
//   B::assign_reduce<Combine>(dst, e, op, r, sites)
//                                      both in one pass; r may read dst at the
//                                      same site
//   B::push(dst, e, targets, sites)    dst(x + d_k)[k] = e(x)[k] at the outer sites
//                                      of `sites` (dsl/push.hpp)
//   B::return_halo<Real>(items, records, payload, words, nsimd)
//   B::deliver_halo<Real>(items, payload, field, record_stride, words, nsimd)
//                                      a push's halo backwards: records into a
//                                      payload, a payload into the field
//   B::pack(e, items, payload)         the values of e at a halo message's
//                                      source sites, item after item
//   B::unpack<Real>(items, payload, records, words, nsimd)
//                                      a received message into halo records
//   B::halo_begin()                    pack, copies and unpack issued from here
//                                      on see the statements issued before
//   B::halo_staged()                   wait until the packed payloads (and
//                                      their copies to the host) are done,
//                                      before MPI reads them
//   B::halo_end()                      statements issued from here on see the
//                                      unpacked halos
//   B::StatementTimer                  made before a statement, seconds() after
//                                      it: how long it ran (the profile's clock)
//   B::stream_triad_gbytes_per_s()     STREAM triad where statements run (the
//                                      profile's reference bandwidth)
// (the three halo hooks do nothing where pack and unpack run synchronously
// on the host; on cuda they order the halo stream against statements).
//
// The statement plan (dsl/statement_plan.hpp) calls them; accumulators merge
// exactly (backends/common/reduction_blocks.hpp). The concept checks the
// parts that do not depend on an expression type.

#include <concepts>

#include "lattice/halo_exchange.hpp"
#include "lattice/memory_side.hpp"

namespace latte {

template <class B>
concept StatementBackend = requires(HaloItemsView items, const void* in, void* out) {
  { B::name } -> std::convertible_to<const char*>;
  { B::memory_side } -> std::convertible_to<MemorySide>;
  B::synchronize();
  B::halo_begin();
  B::halo_staged();
  B::halo_end();
  { typename B::StatementTimer{}.seconds() } -> std::convertible_to<double>;
  { B::stream_triad_gbytes_per_s() } -> std::convertible_to<double>;
  B::template unpack<double>(items, in, out, 1, 1);
  B::template unpack<float>(items, in, out, 1, 1);
  B::template return_halo<double>(items, in, out, 1, 1);
  B::template deliver_halo<float>(items, in, out, 1, 1, 1);
};

}  // namespace latte
