#pragma once
// Sums of a real field over the slices of one direction:
//
//   slice_sum(f, mu)[t] = sum over the sites x with x[mu] = t of f(x),   t = 0 .. L_mu - 1
//
// e.g. a correlator's timeslices. Each slice is summed into its own
// ReproducibleSum (platform/reproducible_sum.hpp), as the whole-lattice
// reductions are, so every entry is the same bits for any number of ranks,
// process grid, SIMD width, thread count and backend, and equal to the
// masked reduction sum(where(coordinate == t, f, 0)) of the same field.
//
// Cost: one pass over the field on the host (on a device backend the field
// is first copied there: V reals), each thread adding into L_mu binned sums
// of its own, then one all_gather of L_mu sums (64 bytes each) per rank. One
// masked reduction per slice would read the field L_mu times.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "lattice/fields/lattice_type.hpp"
#include "platform/parallel.hpp"
#include "platform/reproducible_sum.hpp"

namespace latte {

template <class R, class W>
std::vector<double> slice_sum(const Lattice<R, W>& field, int direction) {
  static_assert(std::is_floating_point_v<R>, "Latte: slice_sum needs a real field (sum localNorm2(f) or real(f) into one)");
  const SiteLayout& layout = field.layout();
  const int dimensions = layout.dimensions();
  if (direction < 0 || direction >= dimensions)
    throw std::invalid_argument("Latte: slice direction " + std::to_string(direction) + " outside a " +
                                std::to_string(dimensions) + "-dimensional lattice");
  const int extent = layout.global_dims()[direction];

  // The slice of (outer site, lane) by integer arithmetic: the lattice's
  // grid of outer sites and its grid of lanes, each lexicographic. A
  // checkerboard folds dimension 0, so there it is the full join.
  std::int64_t outer_stride = 1;
  int lane_stride = 1;
  for (int mu = 0; mu < direction; ++mu) {
    outer_stride *= layout.reduced_dims()[mu];
    lane_stride *= layout.simd_layout()[mu];
  }
  const int reduced = layout.reduced_dims()[direction];
  const int lanes = layout.simd_layout()[direction];
  const int origin = layout.origin()[direction];
  const bool folded = layout.checkerboarded() && direction == 0;
  const auto slice_of = [&](std::int64_t outer, int lane) {
    if (folded) return layout.join(outer, lane)[0];
    return static_cast<int>(outer / outer_stride % reduced) + reduced * (lane / lane_stride % lanes) + origin;
  };

  using Slices = std::vector<ReproducibleSum>;
  const auto view = field.host_view(Access::read);
  const int nsimd = layout.nsimd();
  Slices slices = parallel_accumulate(
      layout.outer_volume(), Slices(static_cast<std::size_t>(extent)),
      [&](Slices& mine, std::int64_t outer) {
        for (int lane = 0; lane < nsimd; ++lane)
          mine[slice_of(outer, lane)].add(static_cast<double>(view.load(LaneSite<R>{outer, lane})));
      },
      [](Slices& total, const Slices& part) {
        for (std::size_t t = 0; t < total.size(); ++t) total[t].merge(part[t]);
      });

  // Every rank's sums, merged in rank order (any order gives the same bits).
  const Communicator& communicator = layout.decomposition().communicator();
  if (communicator.size() > 1) {
    Slices gathered(slices.size() * static_cast<std::size_t>(communicator.size()));
    communicator.all_gather(slices.data(), sizeof(ReproducibleSum) * slices.size(), gathered.data());
    slices.assign(slices.size(), ReproducibleSum{});
    for (int rank = 0; rank < communicator.size(); ++rank)
      for (std::size_t t = 0; t < slices.size(); ++t) slices[t].merge(gathered[rank * slices.size() + t]);
  }
  std::vector<double> result(slices.size());
  for (std::size_t t = 0; t < slices.size(); ++t) result[t] = slices[t].value();
  return result;
}

}  // namespace latte
