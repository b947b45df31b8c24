#pragma once
// An order of outer sites for statements whose sites are large (a batch of
// spinors: 18 KB per outer site for 12 right-hand sides in double at
// AVX-512). In the storage order (dimension 0 fastest, the last slowest) a
// stencil reads the neighbour along the last dimension one whole slice of
// outer sites after it first read it: 31 MB for that batch at 24^4, more
// than the caches hold, so a record can come from memory up to three times
// (once for each neighbour along that dimension and once for its own
// slice). Instead the order walks columns: dimensions 0 .. nd-2 are cut
// into tiles of `tile` sites, and within a tile column the last dimension
// runs outside the tile's sites (dimension 0 fastest). Neighbours along the
// last dimension are then one tile slice apart (4 x 4 x 4 records, 1.2 MB
// for that batch) and those inside the tile in the same slice; only records
// on a tile's faces are read again, by the next column.
//
// Measured with bench_wilson on the 2-core AVX-512 Zen 5 VM, 2 threads, 12
// right-hand sides (2026-11-26): storage order 24.6 / 25.3 / 23.8 GFLOPS in
// double at 24^4 and 59.2 / 62.5 / 52.5 in single; whole rows of dimension 0
// in columns of 2 x 2 tiles: 30.5 / 32.0 / 33.3 and 66.0 / 66.4 / 69.3 (3 x
// 2, 4 x 4 and 6 x 6 with whole rows were no better or worse). Tiling
// dimension 0 as well (2026-11-27), in a stand-alone probe of the access
// pattern (reduced lattices 24 x 12^3 and 32 x 16^3, 18 KB records, four
// timings each): 4 x 4 x 4 tiles took 0.88-0.96 of the 2 x 2 columns' time
// at 24^4 and 0.77-0.89 at 32^4; 8 x 4 x 4 and 6 x 6 x 6 were close, 8 x 8
// x 8 and whole rows with 4 x 4 worse. In bench_wilson, binaries run
// alternately twice, 12 right-hand sides: 39.3 / 41.7 -> 42.0 / 40.3
// GFLOPS (24^4 double), 81.0 / 83.1 -> 83.8 / 83.9 (single), 38.7 / 37.1 ->
// 41.5 / 40.3 (32^4 double), 80.1 / 79.3 -> 84.2 / 83.4 (single). The
// records a column keeps in use (about two tile slices per thread) stay
// well inside the 32 MB last-level cache both cores share; most of what
// is still read twice are the records on a tile's faces. The order changes
// no value: each site is computed exactly as before.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "platform/coordinate.hpp"

namespace latte {

// Sites per tile along each tiled dimension (the measurements above).
inline constexpr int site_tile = 4;

// Every outer site of a block with these reduced extents exactly once, in
// tiled order; empty below three dimensions (nothing to tile).
inline std::vector<std::int32_t> tiled_site_order(const Coordinate& reduced, int tile = site_tile) {
  const int nd = static_cast<int>(reduced.size());
  std::vector<std::int32_t> order;
  if (nd < 3) return order;
  order.reserve(static_cast<std::size_t>(product(reduced)));
  // The grid of tiles over dimensions 0 .. nd-2 (dimension 0 fastest).
  Coordinate tiles(reduced.begin(), reduced.end() - 1);
  for (int& extent : tiles) extent = (extent + tile - 1) / tile;
  for (std::int64_t c = 0; c < product(tiles); ++c) {
    const Coordinate corner = coordinate_from_index(c, tiles);
    Coordinate extents(corner.size());
    for (std::size_t k = 0; k < corner.size(); ++k) extents[k] = std::min(tile, reduced[k] - corner[k] * tile);
    // This tile column: the last dimension outermost, then the tile's sites.
    Coordinate x(reduced.size(), 0);
    for (x[nd - 1] = 0; x[nd - 1] < reduced[nd - 1]; ++x[nd - 1]) {
      for (std::int64_t j = 0; j < product(extents); ++j) {
        const Coordinate inner = coordinate_from_index(j, extents);
        for (std::size_t k = 0; k < inner.size(); ++k) x[k] = corner[k] * tile + inner[k];
        order.push_back(static_cast<std::int32_t>(index_from_coordinate(x, reduced)));
      }
    }
  }
  return order;
}

}  // namespace latte
