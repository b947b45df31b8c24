#pragma once
// Reading and writing single sites by global coordinate (host side).

#include "lattice/errors.hpp"
#include "lattice/lattice.hpp"

namespace latte {

template <class T, class W>
LaneSite<real_of_t<T>> site_of(const Lattice<T, W>& field, const Coordinate& x, const char* what) {
  if (!field.layout().contains(x))
    throw CoordinateOutOfRange(std::string("Latte: ") + what + " at site " + to_string(x) +
                               (field.geometry().whole().contains(x)
                                    ? " of the other parity than the field's (" + field.layout().describe() + ")"
                                    : " outside the lattice extents " + to_string(field.geometry().dims())));
  const auto [outer, lane] = field.layout().split(x);
  return {outer, lane};
}

template <class T, class W>
T peek(const Lattice<T, W>& field, const Coordinate& x) {
  return field.host_view(Access::read).load(site_of(field, x, "peek"));
}

template <class T, class W>
void poke(Lattice<T, W>& field, const Coordinate& x, const T& value) {
  field.host_view(Access::read_write).store(site_of(field, x, "poke"), value);
}

}  // namespace latte
