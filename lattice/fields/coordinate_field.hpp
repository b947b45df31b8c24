#pragma once
// Fields holding each site's coordinate or checkerboard parity, for masks
// and position-dependent expressions: where(x0 < 4, a, b), plane waves.

#include <concepts>
#include <type_traits>

#include "lattice/fields/lattice_type.hpp"
#include "lattice/layout/site_walk.hpp"

namespace latte {

// field(x) = f(x) at every site, x the site's global coordinate: initial
// conditions that depend on position, f(x) of any value convertible to the
// field's site type. Each site is computed from its own coordinate alone by
// the rank that owns it, so the field is the same for every layout, SIMD
// width and rank count. A loop over the sites on the host, not a statement:
// for initial conditions, not for every step.
template <class T, class W, class F>
  requires std::convertible_to<std::invoke_result_t<F&, const Coordinate&>, T>
void fill(Lattice<T, W>& field, F&& f) {
  const auto view = field.host_view(Access::write);
  for_each_site(field.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    view.store(LaneSite<real_of_t<T>>{o, l}, static_cast<T>(f(x)));
  });
}

// field(x) = x[mu]
template <class R, class W>
void fill_coordinate(Lattice<R, W>& field, int mu) {
  if (mu < 0 || mu >= field.geometry().dimensions())
    throw std::invalid_argument("Latte: coordinate direction " + std::to_string(mu) + " outside a " +
                                std::to_string(field.geometry().dimensions()) + "-dimensional lattice");
  fill(field, [mu](const Coordinate& x) { return static_cast<R>(x[mu]); });
}

// field(x) = (sum_mu x[mu]) mod 2: 0 on even sites, 1 on odd sites.
template <class R, class W>
void fill_parity(Lattice<R, W>& field) {
  fill(field, [](const Coordinate& x) { return static_cast<R>(Geometry::parity(x)); });
}

}  // namespace latte
