#pragma once
// Sums of a real field over the slices of one direction:
//
//   slice_sum(f, mu)[t] = sum over the sites x with x[mu] = t of f(x),   t = 0 .. L_mu - 1
//
// e.g. a correlator's timeslices, and the same for a field of K reals per
// site (RealVector<R, K>, or any site type of float or double leaves: a
// batch of complex correlator densities, a propagator), all K sums in one
// pass:
//
//   slice_sums(f, mu)[k][t] = sum over the sites x with x[mu] = t of real k of f(x)
//
// (k runs over the reals of a site in memory order: a complex number is
// (re, im)). Each slice and component is summed into its own
// ReproducibleSum (platform/reproducible_sum.hpp), as the whole-lattice
// reductions are, so every entry is the same bits for any number of ranks,
// process grid, SIMD width, thread count and backend for the same stored
// values, and equal to the masked reduction sum(where(coordinate == t,
// f_k, 0)) of the same field; slice_sum(f) of a real field and component k
// of slice_sums of a field holding it are the same bits.
//
// Cost: one pass over the field on the host (on a device backend the field
// is first copied there: K V reals), each thread adding into K L_mu binned
// sums of its own (64 bytes each), then one all_gather of K L_mu sums per
// rank. One masked reduction per slice would read the field L_mu times.

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "lattice/fields/lattice_type.hpp"
#include "platform/parallel.hpp"
#include "platform/reproducible_sum.hpp"

namespace latte {

template <class T, class W>
std::vector<std::vector<double>> slice_sums(const Lattice<T, W>& field, int direction) {
  using R = real_of_t<T>;
  static_assert(std::is_floating_point_v<R> && sizeof(T) == sizeof(R) * words_v<T>,
                "Latte: slice sums need a field of float or double leaves");
  constexpr int components = words_v<T>;
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

  // sums[t * components + k]: a slice's components side by side.
  using Sums = std::vector<ReproducibleSum>;
  const auto view = field.host_view(Access::read);
  const int nsimd = layout.nsimd();
  const std::size_t count = static_cast<std::size_t>(extent) * components;
  Sums sums = parallel_accumulate(
      layout.outer_volume(), Sums(count),
      [&](Sums& mine, std::int64_t outer) {
        for (int lane = 0; lane < nsimd; ++lane) {
          const T value = view.load(LaneSite<R>{outer, lane});
          R leaves[components];  // the site's reals in memory order
          std::memcpy(leaves, &value, sizeof leaves);
          ReproducibleSum* slice = mine.data() + static_cast<std::size_t>(slice_of(outer, lane)) * components;
          for (int k = 0; k < components; ++k) slice[k].add(static_cast<double>(leaves[k]));
        }
      },
      [](Sums& total, const Sums& part) {
        for (std::size_t i = 0; i < total.size(); ++i) total[i].merge(part[i]);
      });

  // Every rank's sums, merged in rank order (any order gives the same bits).
  const Communicator& communicator = layout.decomposition().communicator();
  if (communicator.size() > 1) {
    Sums gathered(count * static_cast<std::size_t>(communicator.size()));
    communicator.all_gather(sums.data(), sizeof(ReproducibleSum) * count, gathered.data());
    sums.assign(count, ReproducibleSum{});
    for (int rank = 0; rank < communicator.size(); ++rank)
      for (std::size_t i = 0; i < count; ++i) sums[i].merge(gathered[rank * count + i]);
  }
  std::vector<std::vector<double>> result(components, std::vector<double>(static_cast<std::size_t>(extent)));
  for (int t = 0; t < extent; ++t)
    for (int k = 0; k < components; ++k) result[k][t] = sums[static_cast<std::size_t>(t) * components + k].value();
  return result;
}

// The sums of a real field: slice_sums with its one component.
template <class R, class W>
std::vector<double> slice_sum(const Lattice<R, W>& field, int direction) {
  static_assert(std::is_floating_point_v<R>, "Latte: slice_sum needs a real field (sum localNorm2(f) or real(f) into one)");
  return std::move(slice_sums(field, direction)[0]);
}

}  // namespace latte
