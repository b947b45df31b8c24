#pragma once
// Copying fields out of the virtual-node layout into plain arrays in global
// lexicographic order (x fastest), for writers (VTK, PNG, CSV) and for
// analysis of the whole field (profiles, centre lines).
//
// On a lattice spread over ranks this is collective: every rank passes its
// block and every rank gets the whole array (the same on all), so the code
// that follows runs unchanged on any number of ranks. The array is the
// whole lattice on every rank: meant for output-sized fields (a 2-D flow, a
// 3-D field of a few million sites), not for the state of a large run,
// which checkpoints and NERSC files move block by block instead.

#include <cstdint>
#include <vector>

#include "dsl/latte.hpp"
#include "lattice/layout/block_slices.hpp"

namespace latte::lbm {

// Component `component` of every site's value (for a real field, 0).
template <class T, class W>
std::vector<double> gather_component(const Lattice<T, W>& field, int component = 0) {
  using R = real_of_t<T>;
  if (field.geometry().checkerboarded())
    throw GeometryMismatch("lbm: gathering a field for output needs a whole lattice, not " + field.layout().describe());
  const BlockSlices block(field.layout());
  const std::int64_t block_sites = block.slices() * block.sites_per_slice();
  std::vector<double> mine(static_cast<std::size_t>(block_sites));
  const auto view = field.host_view(Access::read);
  for (int t = 0; t < block.slices(); ++t)
    parallel_for(block.sites_per_slice(), [&](std::int64_t s) {
      const auto [outer, lane] = block.place(t, s);
      const T value = view.load(LaneSite<R>{outer, lane});
      int k = 0;
      double picked = 0;
      for_each_leaf([&](const R& leaf) { if (k++ == component) picked = static_cast<double>(leaf); }, value);
      mine[static_cast<std::size_t>(t * block.sites_per_slice() + s)] = picked;
    });

  const Decomposition& d = field.layout().decomposition();
  if (!d.decomposed()) return mine;  // the block is the whole lattice, in order
  const Communicator& communicator = d.communicator();
  std::vector<double> blocks(mine.size() * static_cast<std::size_t>(communicator.size()));
  communicator.all_gather(mine.data(), mine.size() * sizeof(double), blocks.data());
  std::vector<double> out(static_cast<std::size_t>(field.geometry().volume()));
  const int nd = d.dimensions();
  for (int r = 0; r < communicator.size(); ++r) {
    const Coordinate place = communicator.coordinates_of(r, nd);
    const double* theirs = &blocks[static_cast<std::size_t>(r) * mine.size()];
    for (std::int64_t i = 0; i < block_sites; ++i) {
      Coordinate x = coordinate_from_index(i, d.local_dims());
      for (int mu = 0; mu < nd; ++mu) x[mu] += place[mu] * d.local_dims()[mu];
      out[static_cast<std::size_t>(index_from_coordinate(x, d.global_dims()))] = theirs[i];
    }
  }
  return out;
}

}  // namespace latte::lbm
