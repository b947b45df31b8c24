#pragma once
// Complex two-point functions C(t), t = 0 .. L_t - 1, and what is done to
// them before analysis: rotating the source timeslice to t = 0, and
// averaging correlators (of several source times, of equivalent momenta).
//
// Rotation. A contraction's C(t) is in absolute time: with the source on
// timeslice t0 it starts at t = t0. rotate_to_source returns
//   C'(tau) = s(tau) C((tau + t0) mod L_t),   s = 1, or wrap_sign where tau + t0 >= L_t,
// so that C'(0) is the source timeslice. A sink at t < t0 is reached by
// quarks that cross the lattice's time boundary once: with the quark field
// antiperiodic in time, psi(t + L_t) = -psi(t), each quark propagator
// there is minus the one from a source at 0 to tau = t - t0 + L_t (by
// translation), so a meson (a quark and an antiquark) is unchanged and a
// baryon (three quarks) changes sign: wrap_sign = -1 for baryons with
// antiperiodic quarks, 1 for periodic ones and for mesons
// (baryon_wrap_sign). Other twists in time give a baryon the phase
// e^{3 i pi theta_t}, which is refused here.

#include <complex>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/qcd/fermions/fermion_boundary.hpp"

namespace latte {

using Correlator = std::vector<std::complex<double>>;

// C'(tau) above.
inline Correlator rotate_to_source(const Correlator& absolute, int source_time, double wrap_sign = 1.0) {
  const int T = static_cast<int>(absolute.size());
  if (source_time < 0 || source_time >= T)
    throw std::invalid_argument("Latte: source timeslice " + std::to_string(source_time) +
                                " outside a correlator of " + std::to_string(T) + " timeslices");
  Correlator rotated(absolute.size());
  for (int tau = 0; tau < T; ++tau) {
    const int t = tau + source_time;
    rotated[tau] = t < T ? absolute[t] : wrap_sign * absolute[t - T];
  }
  return rotated;
}

// -1 for quarks antiperiodic in time, +1 for periodic ones (time direction 3).
inline double baryon_wrap_sign(const FermionBoundary& boundary, int time_direction = 3) {
  const double theta = boundary.reduced(time_direction);
  if (theta == 0.0) return 1.0;
  if (theta == 1.0) return -1.0;
  throw std::invalid_argument("Latte: baryons with a twisted time boundary (theta_t = " +
                              std::to_string(boundary.theta[time_direction]) +
                              " pi) pick up a complex phase across it; only periodic and antiperiodic are handled");
}

// The mean of correlators of one length, entry by entry (added in the order given).
inline Correlator average_correlators(const std::vector<Correlator>& correlators) {
  if (correlators.empty()) throw std::invalid_argument("Latte: an average of no correlators");
  Correlator mean(correlators.front().size());
  for (const Correlator& c : correlators) {
    if (c.size() != mean.size())
      throw std::invalid_argument("Latte: averaging correlators of " + std::to_string(mean.size()) + " and " +
                                  std::to_string(c.size()) + " timeslices");
    for (std::size_t t = 0; t < mean.size(); ++t) mean[t] += c[t];
  }
  for (std::complex<double>& m : mean) m /= static_cast<double>(correlators.size());
  return mean;
}

// Real parts, for effective masses (solvers/qcd/measure/effective_mass.hpp).
inline std::vector<double> real_part(const Correlator& c) {
  std::vector<double> re(c.size());
  for (std::size_t t = 0; t < c.size(); ++t) re[t] = c[t].real();
  return re;
}

}  // namespace latte
