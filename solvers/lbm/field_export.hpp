#pragma once
// Copying fields out of the virtual-node layout into plain arrays in global
// lexicographic order (x fastest), for writers (VTK, PNG, CSV, checkpoints).

#include <cstdint>
#include <vector>

#include "dsl/latte.hpp"
#include "lattice/site_walk.hpp"

namespace latte::lbm {

// Component `component` of every site's value (for a real field, 0).
template <class T, class W>
std::vector<double> gather_component(const Lattice<T, W>& field, int component = 0) {
  using R = real_of_t<T>;
  require_whole_lattice_on_this_rank(field.geometry(), "gathering a field for output");
  std::vector<double> out(static_cast<std::size_t>(field.volume()));
  const auto view = field.host_view(Access::read);
  const Geometry& g = field.geometry();
  for_each_site(field.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    const T value = view.load(LaneSite<R>{o, l});
    int k = 0;
    double picked = 0;
    for_each_leaf([&](const R& leaf) { if (k++ == component) picked = static_cast<double>(leaf); }, value);
    out[static_cast<std::size_t>(g.global_index(x))] = picked;
  });
  return out;
}

}  // namespace latte::lbm
