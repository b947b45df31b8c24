#pragma once
// The cpu backend's traversal of a statement, and every machine-tuned
// constant it rests on. Chosen once per statement from its shape
// (backends/common/traversal.hpp), applied alike by every site pattern.

#include <cstddef>
#include <cstdint>

#include "backends/common/traversal.hpp"
#include "lattice/layout/simd_layout.hpp"

namespace latte::backend::cpu {

struct Tuning {
  // Software prefetch, one outer site ahead, of everything a statement reads
  // there (through its shifts) and the destination it writes. It pays off
  // when the fields stream from memory and a site takes long: the hardware
  // prefetchers then fall behind the many streams of a stencil (Dslash at
  // 24^4: 1.6x; at 8^4 with flushed caches 0.24 -> 0.39 of STREAM) and cost
  // nothing measurable when the fields sit in cache (8^4 warm: 46 against
  // 42 GFLOPS). Statements that read little per site (lattice Boltzmann,
  // BLAS-1) keep up without it and lose up to 10% to the extra instructions
  // (D2Q9 at 192^2), so they prefetch only beyond the caches of two cores.
  // Measured 2026-11-22 on the 2-core AVX-512 VM, 2 threads.
  static constexpr std::size_t prefetch_above_bytes = std::size_t(4) << 20;
  static constexpr std::size_t heavy_site_bytes = std::size_t(8) << 10;  // Dslash: 10.8 KB (single) per outer site
  static constexpr std::size_t heavy_prefetch_above_bytes = std::size_t(256) << 10;
  // A reduction over a plain run of sites (no site list, no interior flags,
  // no prefetch: what reduce statements traverse) takes a loop with nothing
  // per site but the site: norm2 of a spinor field at 32^4, 3.64 -> 2.59 ms
  // (Zen 5 VM, 2026-11-28). Only kernels that read less than this per outer
  // site get that second copy of their loop: a stencil's work at a site
  // hides the bookkeeping of the general loop, and the copies of the Wilson
  // kernels with a fused norm were 6 % of the object code of the Wilson
  // solvers (solvers/qcd/solves/instances/wilson_double.cpp: 26.1 -> 24.3 s of GCC
  // without them, Xeon VM, 2026-12-02).
  static constexpr std::size_t plain_reduction_below_site_bytes = heavy_site_bytes;
  // Outer sites ahead to prefetch. Measured on D3Q19 (the cheapest site per
  // byte of the stencils here): 1 and 2 equal, 4 worse.
  static constexpr std::int64_t prefetch_distance = 1;
  // A push statement's site is dearer (a whole collision, and each element
  // stored through a table): its misses need more lead. In-place D3Q19
  // double at 128^3, bench_lbm, 2 threads, same binary: 1 site ahead
  // 0.66/0.64 of STREAM, 2 ahead 0.73, 3 ahead 0.75/0.76, 5 ahead 0.74
  // (single 0.81 -> 0.86). Measured 2026-11-25 on the 2-core AVX-512 VM.
  static constexpr std::int64_t push_prefetch_distance = 3;
  // Outer sites of at least this many bytes of result go in tiled order
  // (lattice/layout/tiled_order.hpp): batches of spinors (12 in double at AVX-512:
  // 18 KB; 4 in double: 6 KB). One spinor (1.5 KB) showed no gain from it,
  // and reductions keep the storage order their sums are defined in.
  static constexpr std::size_t tiled_above_site_bytes = std::size_t(4) << 10;
  // Beyond this a batch's sites come from memory, not from the last-level
  // cache (32 MiB on the machine measured), and RhsLoop prefetches each
  // right-hand side within the site (dsl/expr/batch_lowering.hpp). At 8^4 with
  // 12 spinors (9.4 MB in double) the fields stay in cache.
  static constexpr std::size_t batch_from_memory_above_bytes = std::size_t(16) << 20;

  static bool worth_prefetching(const StatementShape& shape) {
    return shape.destination_bytes >
           (shape.bytes_read_per_site >= heavy_site_bytes ? heavy_prefetch_above_bytes : prefetch_above_bytes);
  }

  // `interior` is the interior flags the kernel may rely on (null where it
  // may not: a push whose targets are not regular).
  static Traversal traversal(const StatementShape& shape, SiteRange sites, const SiteLayout& layout,
                             const std::uint8_t* interior) {
    Traversal t;
    t.sites = sites;
    t.team = worth_a_team(shape, sites.count);
    const bool prefetch = worth_prefetching(shape);
    switch (shape.form) {
      case StatementForm::assign:
        t.interior = interior;
        t.prefetch_distance = prefetch ? prefetch_distance : 0;
        // Overwriting a field larger than the caches: stream the stores (and
        // do not prefetch the lines they replace). A smaller result stays in
        // cache for the next statement.
        t.streaming_stores = shape.destination_bytes > prefetch_above_bytes && !shape.reads_destination;
        t.prefetch_destination = !t.streaming_stores;
        t.from_memory = prefetch && shape.destination_bytes > batch_from_memory_above_bytes;
        if (shape.site_bytes >= tiled_above_site_bytes) {
          if (sites.tiled != nullptr) t.sites.list = sites.tiled;  // the interior or surface under halos
          else if (sites.list == nullptr && sites.count == layout.outer_volume())
            t.sites.list = layout.tiled_order();  // null where there is nothing to tile
        }
        break;
      case StatementForm::assign_reduce:
        t.interior = interior;
        t.prefetch_distance = prefetch ? prefetch_distance : 0;
        t.prefetch_destination = true;  // the reduction reads it back
        break;
      case StatementForm::reduce:
        break;  // reads at the site only: the hardware prefetchers keep up
      case StatementForm::push:
        t.interior = interior;
        t.prefetch_distance = prefetch ? push_prefetch_distance : 0;
        break;
    }
    return t;
  }
};

}  // namespace latte::backend::cpu
