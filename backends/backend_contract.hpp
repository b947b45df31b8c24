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
//   B::pack(e, items, payload)         the values of e at a halo message's
//                                      source sites, item after item
//   B::unpack<Real>(items, payload, records, words, nsimd)
//                                      a received message into halo records
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
  B::template unpack<double>(items, in, out, 1, 1);
  B::template unpack<float>(items, in, out, 1, 1);
};

}  // namespace latte
