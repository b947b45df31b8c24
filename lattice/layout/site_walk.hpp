#pragma once
// Host-side visits of every site with its coordinate, for initialisation
// and I/O (random fields, coordinate fields, point sources). Statements never
// use this: they go through the backends.

#include <cstdint>
#include <vector>

#include "lattice/layout/simd_layout.hpp"
#include "platform/coordinate.hpp"
#include "platform/parallel.hpp"

namespace latte {

// visit(outer, lane, x) for every site this rank holds, x its global
// coordinate, in parallel over outer sites.
template <class Visit>
void for_each_site(const SiteLayout& layout, Visit&& visit) {
  const int nd = layout.dimensions();
  const int nsimd = layout.nsimd();
  // Lane offsets reduced[d] * xl[d] on the lanes' grid, once per lane.
  std::vector<Coordinate> lane_offset(nsimd);
  for (int l = 0; l < nsimd; ++l) {
    lane_offset[l] = coordinate_from_index(l, layout.simd_layout());
    for (int mu = 0; mu < nd; ++mu) lane_offset[l][mu] *= layout.reduced_dims()[mu];
  }
  const Coordinate& origin = layout.origin();
  parallel_for(layout.outer_volume(), [&](std::int64_t o) {
    const Coordinate xo = coordinate_from_index(o, layout.reduced_dims());
    Coordinate x(nd);
    for (int l = 0; l < nsimd; ++l) {
      for (int mu = 0; mu < nd; ++mu) x[mu] = xo[mu] + lane_offset[l][mu];
      layout.unfold(x);
      for (int mu = 0; mu < nd; ++mu) x[mu] += origin[mu];
      visit(o, l, x);
    }
  });
}

}  // namespace latte
