#pragma once
// The clover-leaf field strength F_{mu nu}(x) of a gauge field, as an
// expression and as a stored field of its six planes: what the clover
// definitions of E(t) and of the topological charge read, and what a
// clover (Sheikholeslami-Wohlert) fermion term needs.
//
// Conventions (openQCD and Grid's, Luescher JHEP 08 (2010) 071, eq. (3.5)):
//   Q_{mu nu}(x) = the sum of the four plaquettes of the (mu, nu) plane that
//                  start and end at x, each run in the same sense (mu, then nu),
//   F_{mu nu}(x) = (Q_{mu nu}(x) - Q_{mu nu}^+(x)) / 8,
// anti-hermitian and with its trace kept (the trace is O(a^4) on a smooth
// field; projecting it out, as some codes do, changes E and q at that order
// only). On a smooth field F_{mu nu} = a^2 G_{mu nu} + O(a^4) with G the
// anti-hermitian continuum field strength; the hermitian one is -i F.
// F_{nu mu} = -F_{mu nu}, so the six planes mu < nu hold it all.

#include <array>
#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

// Q_{mu nu}(x): the four leaves of the clover around x in the (mu, nu) plane,
// each a closed path from x turning the same way:
//   x -> x+mu -> x+mu+nu -> x+nu -> x      U_mu(x) S+_{mu nu}(x)^+
//   x -> x+nu -> x+nu-mu -> x-mu -> x      U_nu(x) S-_{nu mu}(x)^+
//   x -> x-mu -> x-mu-nu -> x-nu -> x      [U_mu^+ S-_{mu nu}](x-mu)
//   x -> x-nu -> x-nu+mu -> x+mu -> x      S-_{mu nu}(x) U_mu^+(x)
// with S+-_{mu nu} the upper and lower staples of solvers/qcd/gauge/gauge_action.hpp
// (paths from y to y+mu).
template <class Links> auto clover_leaves(const Links& U, int mu, int nu) {
  return U[mu] * adj(upper_staple(U, mu, nu)) + U[nu] * adj(lower_staple(U, nu, mu)) +
         shift(adj(U[mu]) * lower_staple(U, mu, nu), mu, -1) + lower_staple(U, mu, nu) * adj(U[mu]);
}

// F_{mu nu}(x) = (Q - Q^+)/8 as one expression (Q evaluated once per site).
template <class Links> auto clover_field_strength(const Links& U, int mu, int nu) {
  return let(clover_leaves(U, mu, nu), [](const auto& q) { return 0.125 * (q - adj(q)); });
}

// The six planes F_{mu nu}, mu < nu, of a gauge field, stored.
template <class R, class W = DefaultWidth>
class CloverField {
 public:
  using Plane = Lattice<ColourMatrix<R>, W>;
  static constexpr int planes = 6;

  explicit CloverField(const Geometry& geometry)
      : planes_{Plane(geometry), Plane(geometry), Plane(geometry), Plane(geometry), Plane(geometry), Plane(geometry)} {}

  // The plane's index: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) -> 0 ... 5.
  static int plane(int mu, int nu) {
    if (!(0 <= mu && mu < nu && nu < spacetime_dimensions))
      throw std::invalid_argument("Latte: a clover plane is (mu, nu) with 0 <= mu < nu < 4, got (" +
                                  std::to_string(mu) + ", " + std::to_string(nu) + ")");
    return mu == 0 ? nu - 1 : mu + nu;
  }
  Plane& operator()(int mu, int nu) { return planes_[plane(mu, nu)]; }
  const Plane& operator()(int mu, int nu) const { return planes_[plane(mu, nu)]; }
  const Geometry& geometry() const { return planes_[0].geometry(); }

  // F_{mu nu} of U, one statement per plane.
  template <class Backend = backend::Default> void compute(const GaugeField<R, W>& U) {
    for (int mu = 0; mu < spacetime_dimensions; ++mu)
      for (int nu = mu + 1; nu < spacetime_dimensions; ++nu)
        assign<Backend>((*this)(mu, nu), clover_field_strength(U, mu, nu), AssignSet{});
  }

 private:
  std::array<Plane, planes> planes_;
};

}  // namespace latte
