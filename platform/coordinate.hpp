#pragma once
// Coordinates and extents on the host side of the API. Kernels never see a
// Coordinate: everything they need is precomputed into flat tables.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace latte {

using Coordinate = std::vector<int>;

inline std::string to_string(const Coordinate& x) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < x.size(); ++i) out << (i ? " " : "") << x[i];
  out << ']';
  return out.str();
}

inline std::int64_t product(const Coordinate& x) {
  std::int64_t p = 1;
  for (int v : x) p *= v;
  return p;
}

// Lexicographic index with dimension 0 fastest; the inverse is
// coordinate_from_index. Used for outer sites, lanes and global sites alike.
inline std::int64_t index_from_coordinate(const Coordinate& x, const Coordinate& extents) {
  std::int64_t index = 0;
  for (int mu = static_cast<int>(extents.size()) - 1; mu >= 0; --mu) index = index * extents[mu] + x[mu];
  return index;
}

inline Coordinate coordinate_from_index(std::int64_t index, const Coordinate& extents) {
  Coordinate x(extents.size());
  for (std::size_t mu = 0; mu < extents.size(); ++mu) {
    x[mu] = static_cast<int>(index % extents[mu]);
    index /= extents[mu];
  }
  return x;
}

// The unit vector in direction mu scaled by step (shift(f, mu, +-1)).
inline Coordinate unit_displacement(int dimensions, int mu, int step) {
  Coordinate d(dimensions, 0);
  d[mu] = step;
  return d;
}

}  // namespace latte
