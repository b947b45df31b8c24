#pragma once
// Gauge-field observables and gauge transformations, in the DSL.

#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

// Average plaquette  1/(3 * 6 * V) sum_x sum_{mu < nu}
//   Re tr[ U_mu(x) U_nu(x + mu) U_mu^+(x + nu) U_nu^+(x) ]
// which is 1 on the free field and about 0 on a random ("hot") one.
template <class R, class W>
double average_plaquette(const GaugeField<R, W>& U) {
  double total = 0;
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    for (int nu = mu + 1; nu < spacetime_dimensions; ++nu)
      total += sum(real(trace(U[mu] * shift(U[nu], mu, +1) * adj(shift(U[mu], nu, +1)) * adj(U[nu]))));
  return total / (3.0 * 6.0 * static_cast<double>(U.geometry().volume()));
}

// U_mu(x) -> g(x) U_mu(x) g^+(x + mu): the links of the gauge-transformed field.
// A quark propagator from y transforms as S(x) -> g(x) S(x) g^+(y), so
// gauge-invariant correlators such as tr[S(x) S(x)^+] do not change.
template <class R, class W>
void gauge_transform(GaugeField<R, W>& U, const Lattice<ColourMatrix<R>, W>& g) {
  for (int mu = 0; mu < spacetime_dimensions; ++mu) U[mu] = g * U[mu] * adj(shift(g, mu, +1));
}

// g(x) independent Haar-random SU(3) matrices: a random gauge transformation
// (the same for every layout and rank count, like every ParallelRng field).
template <class R, class W>
void set_random_gauge_transformation(Lattice<ColourMatrix<R>, W>& g, ParallelRng& rng) {
  rng.fill(g, [](SiteRandomStream& random) {
    return transform_leaves<ColourMatrix<R>>([](double x) { return static_cast<R>(x); }, random_su3(random));
  });
}

}  // namespace latte
