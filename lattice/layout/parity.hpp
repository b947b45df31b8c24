#pragma once
// Checkerboards (even-odd, red-black). The parity of a site x is
// (sum_mu x_mu) mod 2: 0 even, 1 odd. A checkerboarded field holds the sites
// of one parity only; a nearest-neighbour hop always changes the parity, so
// the Wilson hopping term maps odd fields to even ones and back, which is
// what even-odd preconditioning (solvers/qcd/fermions/wilson_even_odd.hpp) uses.

#include <string>

#include "platform/coordinate.hpp"

namespace latte {

enum class Parity { all = -1, even = 0, odd = 1 };

inline Parity opposite(Parity p) {
  return p == Parity::even ? Parity::odd : p == Parity::odd ? Parity::even : Parity::all;
}

inline int coordinate_parity(const Coordinate& x) {
  int sum = 0;
  for (int v : x) sum += v;
  return sum & 1;
}

inline bool has_parity(const Coordinate& x, Parity p) {
  return p == Parity::all || coordinate_parity(x) == static_cast<int>(p);
}

inline std::string to_string(Parity p) {
  return p == Parity::even ? "even" : p == Parity::odd ? "odd" : "all";
}

}  // namespace latte
