#pragma once
// What every backend (cpu, simt, cuda) offers the DSL, written once. A
// backend B is a type with static members:
//
//   B::name, B::memory_side            which lowering, and where fields are read
//   B::has_vectors<Real>(bytes)        whether fields of Real may have `bytes` per
//                                      virtual-node vector
//   B::synchronize()                   wait until issued statements are done
//   B::traversal(shape, sites, layout, interior)
//                                      how to walk the sites of a statement of
//                                      this shape (backends/common/traversal.hpp): chosen
//                                      once per statement, from the backend's
//                                      tuning constants
//   B::for_each_site(traversal, kernel)
//                                      kernel(site, streaming) at every site of
//                                      the traversal, kernel.prefetch(next,
//                                      destination) ahead where it says so; the
//                                      backend picks the site type: a VectorSite
//                                      (all lanes) or a LaneSite (one lane)
//   B::reduce_sites<Combine>(traversal, kernel)
//                                      the accumulators (one per leaf) of
//                                      kernel(site) over the traversal's sites
//                                      (a kernel carries real_type, nsimd and
//                                      bytes_read_per_site, for a backend's
//                                      choice of loop at compile time)
//   B::for_each_halo_item(items, kernel)
//                                      kernel(place) over a halo message's items:
//                                      a HaloGroupAt (the items whose source is
//                                      one record, all lanes) or a HaloItemAt
//                                      (one item), backends/common/traversal.hpp
// The statements' kernels are written once, over either site type
// (dsl/exec/statement_kernels.hpp), for every statement form, and so is the
// halo work, over either place (dsl/exec/halo_kernels.hpp: pack, unpack,
// and a push's return and delivery); a new form needs nothing from a
// backend. What a backend writes itself is how sites and halo items are
// walked, when halo work may run, and its clock:
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
// (the three halo hooks do nothing where halo kernels run synchronously on
// the host; on cuda they order the halo stream against statements).
//
// The statement plan (dsl/statements/statement_plan.hpp) calls them; accumulators merge
// exactly (backends/common/reduction_blocks.hpp). The concept checks the
// parts that do not depend on an expression type, and the halo walk with a
// kernel that takes either place.

#include <concepts>
#include <cstdint>

#include "backends/common/traversal.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/memory/memory_side.hpp"

namespace latte {

// A halo kernel that does nothing, for the concept's check of the walk.
struct HaloKernelProbe {
  template <template <class, int> class SiteOf> void operator()(HaloGroupAt<SiteOf>) const {}
  template <template <class, int> class SiteOf> void operator()(HaloItemAt<SiteOf>) const {}
};

template <class B>
concept StatementBackend = requires(HaloItemsView items, const void* in, void* out, const SiteLayout& layout,
                                    const std::uint8_t* interior) {
  { B::name } -> std::convertible_to<const char*>;
  { B::memory_side } -> std::convertible_to<MemorySide>;
  { B::template has_vectors<float>(16) } -> std::convertible_to<bool>;
  { B::traversal(StatementShape{}, SiteRange{}, layout, interior) } -> std::same_as<Traversal>;
  B::synchronize();
  B::halo_begin();
  B::halo_staged();
  B::halo_end();
  { typename B::StatementTimer{}.seconds() } -> std::convertible_to<double>;
  { B::stream_triad_gbytes_per_s() } -> std::convertible_to<double>;
  B::for_each_halo_item(items, HaloKernelProbe{});
};

}  // namespace latte
