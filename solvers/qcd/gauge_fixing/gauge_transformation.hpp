#pragma once
// A gauge transformation: an SU(3) matrix g(x) at every site, and how it
// acts. The convention, used by every function of this folder:
//
//   links         U_mu(x) -> g(x) U_mu(x) g(x + mu)^+
//   quark fields  psi(x)  -> g(x) psi(x)          (a colour vector, a spinor,
//                                                 each spinor of a batch)
//   propagators   S(x)    -> g(x) S(x) g(y)^+     (a point source at y: the
//                                                 sink's colour from the left,
//                                                 the source's from the right)
//
// Composition: applying b, then a, is applying compose(a, b), the product
// a(x) b(x) at each site; inverse(g) is g(x)^+.
//
// A wall source (the unit colour source on every site of a timeslice t0)
// gives S_wall(x) = sum_{y_t = t0} S(x, y), which transforms as above only
// under transformations constant on the source timeslice (then
// S_wall -> g(x) S_wall(x) g0^+): under a general g it is not covariant, so
// a wall source is used on a gauge-fixed field (Coulomb gauge, whose only
// freedom left is a constant per timeslice), and the propagator is solved
// on the fixed links. Transforming the links with the transformation that
// fixed them (U_fixed = G applied to U) and a point propagator with the
// same G and the source site gives the propagator on the fixed links.

#include <array>
#include <string>
#include <type_traits>

#include "dsl/latte.hpp"
#include "lattice/fields/peek_poke.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

template <class R, class W = DefaultWidth>
class GaugeTransformation {
 public:
  using Matrices = Lattice<ColourMatrix<R>, W>;

  // The identity, g(x) = 1.
  explicit GaugeTransformation(const Geometry& geometry) : g_(geometry) { set_identity(); }

  Matrices& matrices() { return g_; }
  const Matrices& matrices() const { return g_; }
  const Geometry& geometry() const { return g_.geometry(); }

  void set_identity() { g_ = convert(identity_colour_matrix()); }
  // Independent Haar-random matrices, a pure function of (the generator's
  // seed and stream, global site): the same on every layout and rank count.
  void set_random(ParallelRng& rng) {
    rng.fill(g_, [](SiteRandomStream& random) { return convert(random_su3(random)); });
  }

 private:
  static ColourMatrix<R> convert(const ColourMatrix<double>& u) {
    return transform_leaves<ColourMatrix<R>>([](double x) { return static_cast<R>(x); }, u);
  }
  Matrices g_;
};

// U_mu(x) -> g(x) U_mu(x) g(x + mu)^+, each direction one statement.
template <class R, class W>
void gauge_transform(GaugeField<R, W>& U, const GaugeTransformation<R, W>& g) {
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    U[mu] = g.matrices() * U[mu] * adj(shift(g.matrices(), mu, +1));
}

namespace gauge_transformation_detail {
template <class T> inline constexpr bool quark_site = false;
template <class R> inline constexpr bool quark_site<ColourVector<R>> = true;
template <class R> inline constexpr bool quark_site<Spinor<R>> = true;
template <class R, int N> inline constexpr bool quark_site<MultiSpinor<R, N>> = true;
}  // namespace gauge_transformation_detail

// psi(x) -> g(x) psi(x): a colour vector or spinor field, or every spinor
// of a batch (a propagator's sink side only; with its source, below).
template <class T, class R, class W>
  requires gauge_transformation_detail::quark_site<T>
void gauge_transform(Lattice<T, W>& psi, const GaugeTransformation<R, W>& g) {
  psi = g.matrices() * psi;
}

namespace functors {
// S -> S h for a constant colour matrix h acting on the source colour of
// each column: column (s, c) becomes sum_c' column (s, c') h(c', c).
struct SourceColourRotation {
  static constexpr const char* name = "source_colour_rotation";
  std::array<double, colours * colours> re{}, im{};  // h(c', c) at 3 c' + c
  template <class R> LATTE_INLINE PropagatorSite<R> operator()(const PropagatorSite<R>& s) const {
    PropagatorSite<R> out;
    for (int spin = 0; spin < spins; ++spin)
      for (int c = 0; c < colours; ++c) {
        Spinor<R> column = s.v[colours * spin] * Complex<R>(R(re[c]), R(im[c]));
        for (int cp = 1; cp < colours; ++cp)
          column = column + s.v[colours * spin + cp] * Complex<R>(R(re[colours * cp + c]), R(im[colours * cp + c]));
        out.v[colours * spin + c] = column;
      }
    return out;
  }
};
}  // namespace functors

// It mixes the columns of the batch, so a statement on a propagator is not
// lowered to one column at a time (dsl/expr/batch_lowering.hpp).
template <> inline constexpr bool maps_over_batches<functors::SourceColourRotation> = false;

// A point propagator from `source`: S(x) -> g(x) S(x) g(source)^+
// (collective: g(source) is read by every rank).
template <class R, class W>
void gauge_transform(Lattice<PropagatorSite<R>, W>& S, const GaugeTransformation<R, W>& g, const Coordinate& source) {
  const ColourMatrix<R> at_source = peek(g.matrices(), source);
  functors::SourceColourRotation rotation;
  for (int cp = 0; cp < colours; ++cp)
    for (int c = 0; c < colours; ++c) {  // h = g(y)^+: h(c', c) = conj(g(c, c'))
      rotation.re[colours * cp + c] = static_cast<double>(at_source(c, cp).re);
      rotation.im[colours * cp + c] = -static_cast<double>(at_source(c, cp).im);
    }
  S = map(rotation, g.matrices() * S);
}

// Applying b, then a: (a b)(x) = a(x) b(x).
template <class R, class W>
GaugeTransformation<R, W> compose(const GaugeTransformation<R, W>& a, const GaugeTransformation<R, W>& b) {
  GaugeTransformation<R, W> c(a.geometry());
  c.matrices() = a.matrices() * b.matrices();
  return c;
}

// g(x)^+: undoes g.
template <class R, class W>
GaugeTransformation<R, W> inverse(const GaugeTransformation<R, W>& g) {
  GaugeTransformation<R, W> h(g.geometry());
  h.matrices() = adj(g.matrices());
  return h;
}

}  // namespace latte
