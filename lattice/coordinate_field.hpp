#pragma once
// Fields holding each site's coordinate or checkerboard parity, for masks
// and position-dependent expressions: where(x0 < 4, a, b), plane waves.

#include "lattice/lattice_type.hpp"
#include "lattice/site_walk.hpp"

namespace latte {

// field(x) = x[mu]
template <class R, class W>
void fill_coordinate(Lattice<R, W>& field, int mu) {
  if (mu < 0 || mu >= field.geometry().dimensions())
    throw std::invalid_argument("Latte: coordinate direction " + std::to_string(mu) + " outside a " +
                                std::to_string(field.geometry().dimensions()) + "-dimensional lattice");
  const auto view = field.host_view(Access::write);
  for_each_site(field.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    view.store(LaneSite<R>{o, l}, static_cast<R>(x[mu]));
  });
}

// field(x) = (sum_mu x[mu]) mod 2: 0 on even sites, 1 on odd sites.
template <class R, class W>
void fill_parity(Lattice<R, W>& field) {
  const auto view = field.host_view(Access::write);
  for_each_site(field.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    view.store(LaneSite<R>{o, l}, static_cast<R>(Geometry::parity(x)));
  });
}

}  // namespace latte
