#pragma once
// An order of outer sites for statements whose sites are large (a batch of
// spinors: 18 KB per outer site for 12 right-hand sides in double at
// AVX-512). In the storage order (dimension 0 fastest, the last slowest) a
// stencil reads the neighbour along the last dimension one whole slice of
// outer sites after it first read it: 31 MB for that batch at 24^4, more
// than the caches hold, so a record can come from memory up to three times
// (once for each neighbour along that dimension and once for its own
// slice). Instead the order walks columns: dimensions 1 .. nd-2 are cut
// into tiles of `tile` sites, and within a tile the last dimension runs
// outside the rows of dimension 0. Neighbours along the last dimension are then one tile
// slice apart (24 x 2 x 2 records, 1.7 MB for that batch) and those along
// the tiled dimensions are in the same slice.
//
// Measured with bench_wilson (24^4, 2 threads, AVX-512 Zen 5, 2026-11-26),
// 12 right-hand sides: storage order 24.6 / 25.3 / 23.8 GFLOPS (double) and
// 59.2 / 62.5 / 52.5 (single); tiles of 2 x 2: 30.5 / 32.0 / 33.3 and 66.0 /
// 66.4 / 69.3; tiles of 3 x 2 were no better, 4 x 4 and 6 x 6 worse. The
// order changes no value: each site is computed exactly as before.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lattice/coordinate.hpp"

namespace latte {

// Sites per tile along each tiled dimension (the measurements above).
inline constexpr int site_tile = 2;

// Every outer site of a block with these reduced extents exactly once, in
// tiled order; empty below three dimensions (nothing to tile).
inline std::vector<std::int32_t> tiled_site_order(const Coordinate& reduced, int tile = site_tile) {
  const int nd = static_cast<int>(reduced.size());
  std::vector<std::int32_t> order;
  if (nd < 3) return order;
  order.reserve(static_cast<std::size_t>(product(reduced)));
  // The grid of tiles over dimensions 1 .. nd-2 (dimension 1 fastest).
  Coordinate tiles(reduced.begin() + 1, reduced.end() - 1);
  for (int& extent : tiles) extent = (extent + tile - 1) / tile;
  for (std::int64_t c = 0; c < product(tiles); ++c) {
    const Coordinate corner = coordinate_from_index(c, tiles);
    Coordinate extents(corner.size());
    for (std::size_t k = 0; k < corner.size(); ++k)
      extents[k] = std::min(tile, reduced[k + 1] - corner[k] * tile);
    // This tile column: the last dimension outermost, then the tile's sites,
    // then a row of dimension 0.
    Coordinate x(reduced.size(), 0);
    for (x[nd - 1] = 0; x[nd - 1] < reduced[nd - 1]; ++x[nd - 1]) {
      for (std::int64_t j = 0; j < product(extents); ++j) {
        const Coordinate inner = coordinate_from_index(j, extents);
        for (std::size_t k = 0; k < inner.size(); ++k) x[k + 1] = corner[k] * tile + inner[k];
        const std::int64_t row = index_from_coordinate(x, reduced);
        for (int x0 = 0; x0 < reduced[0]; ++x0) order.push_back(static_cast<std::int32_t>(row + x0));
      }
    }
  }
  return order;
}

}  // namespace latte
