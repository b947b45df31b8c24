#pragma once
// Helpers shared by the lattice-Boltzmann flow tests: channels bounded by
// solid rows, running to a steady state, and velocity profiles.

#include <cmath>
#include <vector>

#include "solvers/lbm/flow/simulation.hpp"
#include "test_support.hpp"

namespace latte::testing {

// Runs until the velocity field changes by less than `tolerance` (relative,
// L2) over `chunk` steps; returns false if max_steps pass first.
template <class Sim>
bool run_to_steady_state(Sim& sim, double tolerance, long max_steps, long chunk = 200) {
  typename Sim::VectorField previous(sim.geometry()), current(sim.geometry());
  previous = sim.velocity();
  for (long done = 0; done < max_steps; done += chunk) {
    sim.run(chunk);
    current = sim.velocity();
    const double change = norm2(current - previous), size = norm2(current);
    if (change <= tolerance * tolerance * size && size > 0) return true;
    previous = current;
  }
  return false;
}

// Component `component` of the velocity along dimension `across`, at the
// sites x with x[across] = 0..n-1 and every other coordinate 0.
template <class Sim>
std::vector<double> velocity_profile(const Sim& sim, int across, int component, int n) {
  typename Sim::VectorField u(sim.geometry());
  u = sim.velocity();
  std::vector<double> profile(n);
  for (int k = 0; k < n; ++k) {
    Coordinate x(Sim::D, 0);
    x[across] = k;
    profile[k] = peek(u, x).v[component];
  }
  return profile;
}

// Relative L2 distance between a profile and reference(k).
template <class Reference>
double relative_l2_error(const std::vector<double>& profile, Reference reference) {
  double error = 0, norm = 0;
  for (std::size_t k = 0; k < profile.size(); ++k) {
    const double exact = reference(static_cast<int>(k));
    error += (profile[k] - exact) * (profile[k] - exact);
    norm += exact * exact;
  }
  return std::sqrt(error / norm);
}

}  // namespace latte::testing
