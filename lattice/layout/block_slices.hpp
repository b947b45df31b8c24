#pragma once
// This rank's block of a lattice, walked the way a file in global
// lexicographic order holds it (SharedFile, platform/comms/shared_file.hpp):
// one slice of the slowest dimension at a time, and within a slice the
// sites in local lexicographic order, dimension 0 fastest. Writers fill a
// slice's records in this order, readers take them in it, so a rank never
// holds more than one slice of its block besides the field.

#include <cstdint>
#include <utility>

#include "lattice/layout/simd_layout.hpp"
#include "platform/coordinate.hpp"

namespace latte {

class BlockSlices {
 public:
  explicit BlockSlices(const SiteLayout& layout) : layout_(layout), local_(layout.decomposition().local_dims()) {}

  int slices() const { return local_.back(); }
  const Coordinate& global_dims() const { return layout_.decomposition().global_dims(); }
  std::int64_t sites_per_slice() const { return product(local_) / local_.back(); }
  // (outer site, lane) of site s of slice t.
  std::pair<std::int64_t, int> place(int t, std::int64_t s) const {
    return layout_.split_local(coordinate_from_index(t * sites_per_slice() + s, local_));
  }

  // The global lexicographic index of site s of slice t (the site's record
  // number in the file).
  std::int64_t global_index(int t, std::int64_t s) const {
    const Decomposition& d = layout_.decomposition();
    Coordinate x = coordinate_from_index(t * sites_per_slice() + s, local_);
    for (std::size_t mu = 0; mu < x.size(); ++mu) x[mu] += d.origin()[mu];
    return index_from_coordinate(x, d.global_dims());
  }

  // The arguments of SharedFile::view_block for records of `record_bytes`
  // starting at byte `offset`.
  template <class File>
  void view(File& file, std::int64_t offset, std::int64_t record_bytes) const {
    const Decomposition& d = layout_.decomposition();
    file.view_block(offset, record_bytes, d.global_dims(), d.local_dims(), d.origin());
  }

 private:
  const SiteLayout& layout_;
  Coordinate local_;
};

}  // namespace latte
