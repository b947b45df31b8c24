#pragma once
// Building the boundary field the bounce-back step reads (solvers/lbm/streaming/stream_collide.hpp):
// per site {solid, u_w...}. Geometry comes from a predicate on coordinates
// (walls, a cylinder, a sphere) or from a mask file, so users can drop in
// obstacles without touching the solver.

#include <fstream>
#include <array>
#include <vector>
#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "lattice/layout/site_walk.hpp"

namespace latte::lbm {

template <class R, int D, class W = DefaultWidth>
using BoundaryField = Lattice<RealVector<R, D + 1>, W>;

// Marks solid every site where solid(x) holds, with wall velocity
// wall_velocity(x) (zero for resting walls); other sites are left as they are.
template <class R, int N, class W, class Solid, class WallVelocity>
void mark_solid(Lattice<Vec<R, N, GenericIndex>, W>& b, Solid solid, WallVelocity wall_velocity) {
  constexpr int D = N - 1;
  const auto view = b.host_view(Access::read_write);
  for_each_site(b.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    if (!solid(x)) return;
    RealVector<R, N> value;
    value.v[0] = R(1);
    const auto u = wall_velocity(x);
    for (int d = 0; d < D; ++d) value.v[1 + d] = static_cast<R>(u[d]);
    view.store(LaneSite<R>{o, l}, value);
  });
}

template <class R, int N, class W, class Solid>
void mark_solid(Lattice<Vec<R, N, GenericIndex>, W>& b, Solid solid) {
  mark_solid(b, solid, [](const Coordinate&) { return std::array<double, N - 1>{}; });
}

// Number of solid sites (a check that a geometry was marked as intended).
template <class R, int N, class W>
double solid_sites(const Lattice<Vec<R, N, GenericIndex>, W>& b) {
  return sum(element<0>(b));
}

// A mask file: the lattice extents on the first line, then one 0/1 per site
// in lexicographic order (x fastest), whitespace separated. 1 marks solid.
template <class R, int N, class W>
void load_mask(Lattice<Vec<R, N, GenericIndex>, W>& b, const std::string& path) {
  constexpr int D = N - 1;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("lbm: cannot open mask file " + path);
  const Coordinate& dims = b.geometry().dims();
  for (int d = 0; d < D; ++d) {
    int extent = -1;
    if (!(in >> extent) || extent != dims[d])
      throw std::runtime_error("lbm: mask file " + path + " has extents that differ from the lattice " +
                               to_string(dims));
  }
  std::vector<char> solid(static_cast<std::size_t>(b.geometry().volume()));
  for (auto& s : solid) {
    int v = -1;
    if (!(in >> v) || (v != 0 && v != 1))
      throw std::runtime_error("lbm: mask file " + path + " is truncated or holds a value other than 0 or 1");
    s = static_cast<char>(v);
  }
  mark_solid(b, [&](const Coordinate& x) { return solid[b.geometry().global_index(x)] != 0; });
}

}  // namespace latte::lbm
