#pragma once
// A lattice gauge field: one SU(3) link U_mu(x) per site and direction of a
// four-dimensional lattice, U_mu(x) sitting on the link from x to x + mu^.
// Kept as four colour-matrix fields so that U[mu] reads like the paper.

#include <array>
#include <string>

#include "dsl/statements/assign.hpp"
#include "lattice/fields/lattice_type.hpp"
#include "lattice/fields/random.hpp"
#include "lattice/tensors/su3.hpp"
#include "platform/errors.hpp"

namespace latte {

inline constexpr int spacetime_dimensions = 4;

template <class R, class W = DefaultWidth>
class GaugeField {
 public:
  using Link = Lattice<ColourMatrix<R>, W>;

  explicit GaugeField(const Geometry& geometry)
      : links_{Link(checked(geometry)), Link(geometry), Link(geometry), Link(geometry)} {}

  Link& operator[](int mu) { return links_[mu]; }
  const Link& operator[](int mu) const { return links_[mu]; }
  const Geometry& geometry() const { return links_[0].geometry(); }

  // U_mu(x) = 1: the free field.
  void set_unit() {
    for (auto& link : links_) link = convert(identity_colour_matrix());
  }
  // Independent Haar-random SU(3) links: a "hot" start.
  void set_random(ParallelRng& rng) {
    for (auto& link : links_) rng.fill(link, [](SiteRandomStream& random) { return convert(random_su3(random)); });
  }

 private:
  static ColourMatrix<R> convert(const ColourMatrix<double>& u) {
    return transform_leaves<ColourMatrix<R>>([](double x) { return static_cast<R>(x); }, u);
  }
  static const Geometry& checked(const Geometry& geometry) {
    if (geometry.dimensions() != spacetime_dimensions)
      throw LayoutError("Latte: a gauge field needs a four-dimensional lattice, got extents " +
                        to_string(geometry.dims()));
    return geometry;
  }
  std::array<Link, 4> links_;
};

}  // namespace latte
