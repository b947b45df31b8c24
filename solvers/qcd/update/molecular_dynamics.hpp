#pragma once
// The molecular dynamics of hybrid Monte Carlo on a gauge field: momenta,
// their refresh and kinetic energy, and the two elementary moves.
//
// Conventions (lattice/tensors/su3_algebra.hpp): a momentum P_mu(x) is an su(3)
// element i p^a T^a; H = sum_{x,mu} 1/2 p^a p^a + S(U)
//   = -sum_{x,mu} tr(P_mu(x)^2) + S(U);
// the equations of motion dU/dt = P U, dP/dt = -F(U) (F the gradient of S,
// solvers/qcd/gauge/gauge_action.hpp) conserve H and the measure.

#include <cstdint>

#include "dsl/expr/su3_functions.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

// Four su(3)-valued fields, one per direction: the momenta conjugate to the
// links (or a force). The same container as the links.
template <class R, class W = DefaultWidth> using AlgebraField = GaugeField<R, W>;

// A 64-bit key from several numbers (SplitMix64 finaliser on each): the
// seed of the random numbers that one purpose of one trajectory uses, so a
// trajectory's random numbers are a function of (seed, trajectory) alone
// and a chain restarts from a checkpoint without random-number state.
inline std::uint64_t mixed_key(std::uint64_t seed, std::uint64_t trajectory, std::uint64_t purpose) {
  auto mix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  return mix(mix(mix(seed) ^ trajectory) ^ purpose);
}

// P_mu(x) gaussian with density exp(tr P^2) = exp(-1/2 sum p_a^2), from
// counter-based random numbers of (key, global site, direction): the same
// momenta on every rank count, layout and backend.
template <class R, class W> void refresh_momenta(AlgebraField<R, W>& P, std::uint64_t key) {
  ParallelRng rng(key);
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    rng.fill(P[mu], [](SiteRandomStream& random) {
      return transform_leaves<ColourMatrix<R>>([](double x) { return static_cast<R>(x); },
                                               su3::gaussian_algebra_element(random));
    });
}

// -sum_{x,mu} tr P^2 = 1/2 sum p^2, in one reproducible reduction.
template <class R, class W> double kinetic_energy(const AlgebraField<R, W>& P) {
  return -sum(real(trace(P[0] * P[0])) + real(trace(P[1] * P[1])) + real(trace(P[2] * P[2])) +
              real(trace(P[3] * P[3])));
}

// U <- exp(eps P) U: the links' exact motion at constant P.
template <class R, class W> void move_links(GaugeField<R, W>& U, const AlgebraField<R, W>& P, double eps) {
  for (int mu = 0; mu < spacetime_dimensions; ++mu) U[mu] = su3_exp(eps * P[mu]) * U[mu];
}

}  // namespace latte
