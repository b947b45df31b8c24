#pragma once
// Analytic solutions the lattice-Boltzmann examples and tests compare with.
// All in lattice units, density 1, body force density F along the flow, and
// kinematic viscosity nu (solvers/lbm/collision/velocity_sets.hpp).

#include <cmath>
#include <numbers>

namespace latte::lbm::analytic {

// Plane Poiseuille flow between walls at y = 0 and y = a:
//   nu u'' = -F,  u(0) = u(a) = 0   =>   u = F / (2 nu) y (a - y).
inline double plane_poiseuille(double y, double a, double force, double nu) {
  return force / (2.0 * nu) * y * (a - y);
}

// Poiseuille flow in the rectangular duct 0 < y < a, 0 < z < b:
//   nu (u_yy + u_zz) = -F,  u = 0 on the walls.
// Expanding in sin(n pi y / a) (n odd) gives the standard series
//   u = 4 F a^2 / (nu pi^3) sum_n 1/n^3 [1 - cosh(n pi (z - b/2)/a) / cosh(n pi b/(2a))] sin(n pi y / a).
// The "1" part sums to the plane profile in y, so we evaluate
//   u = plane_poiseuille(y) - 4 F a^2 / (nu pi^3) sum_n (1/n^3) sin(n pi y/a) ratio_n(z),
// whose terms fall off exponentially inside the duct (ratio_n ~ exp(-n pi d/a) at a
// distance d from the walls z = 0, b), so the sum converges quickly and the
// cosh ratio is written with exponentials that cannot overflow.
inline double duct_poiseuille(double y, double z, double a, double b, double force, double nu,
                              double relative_tolerance = 1e-15) {
  using std::numbers::pi;
  const double prefactor = 4.0 * force * a * a / (nu * pi * pi * pi);
  const double plane = plane_poiseuille(y, a, force, nu);
  const double s = std::abs(z - 0.5 * b) / a, half = 0.5 * b / a;  // |z - b/2| and b/2 in units of a
  double correction = 0;
  for (int n = 1; n < 1000000; n += 2) {
    const double k = n * pi;
    // cosh(k s) / cosh(k half) with s <= half.
    const double ratio = (std::exp(k * (s - half)) + std::exp(-k * (s + half))) / (1.0 + std::exp(-2.0 * k * half));
    const double term = std::sin(k * y / a) * ratio / (static_cast<double>(n) * n * n);
    correction += term;
    // Later terms shrink by at least exp(-2 pi (half - s)) each: stop when this one is negligible.
    const double bound = ratio / (static_cast<double>(n) * n * n);
    if (bound * prefactor <= relative_tolerance * (std::abs(plane) + std::abs(prefactor * correction)) ||
        bound == 0.0)
      break;
  }
  return plane - prefactor * correction;
}

// Decay of the 2-D Taylor-Green vortex with wave number k along both axes:
// u(t) = u(0) exp(-2 nu k^2 t).
inline double taylor_green_rate(double k, double nu) { return 2.0 * nu * k * k; }

}  // namespace latte::lbm::analytic
