#pragma once
// Reading and writing single sites by global coordinate (host side). On a
// lattice spread over ranks the rank holding the site does the reading or
// writing; peek then gives the value to every rank (a collective call: all
// ranks peek the same site together), poke changes the one copy there is.

#include "lattice/fields/lattice_type.hpp"
#include "platform/errors.hpp"

namespace latte {

// The same check on every rank: the site must be one of the field's.
template <class T, class W>
void check_site(const Lattice<T, W>& field, const Coordinate& x, const char* what) {
  const Geometry& geometry = field.geometry();
  if (!geometry.contains(x))
    throw CoordinateOutOfRange(std::string("Latte: ") + what + " at site " + to_string(x) +
                               (geometry.whole().contains(x)
                                    ? " of the other parity than the field's (" + field.layout().describe() + ")"
                                    : " outside the lattice extents " + to_string(geometry.dims())));
}

template <class T, class W>
LaneSite<real_of_t<T>> site_of(const Lattice<T, W>& field, const Coordinate& x, const char* what) {
  check_site(field, x, what);
  const auto [outer, lane] = field.layout().split(x);
  return {outer, lane};
}

template <class T, class W>
T peek(const Lattice<T, W>& field, const Coordinate& x) {
  check_site(field, x, "peek");
  const Decomposition& decomposition = field.layout().decomposition();
  T value{};
  if (field.layout().contains(x)) value = field.host_view(Access::read).load(site_of(field, x, "peek"));
  if (decomposition.decomposed())
    decomposition.communicator().broadcast(&value, sizeof(T), decomposition.owner(x));
  return value;
}

template <class T, class W>
void poke(Lattice<T, W>& field, const Coordinate& x, const T& value) {
  check_site(field, x, "poke");
  if (field.layout().contains(x)) field.host_view(Access::read_write).store(site_of(field, x, "poke"), value);
}

}  // namespace latte
