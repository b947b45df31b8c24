#pragma once
// What the thermal lattice-Boltzmann examples (lbm_rayleigh_benard,
// lbm_heated_cavity) share: the lattice parameters chosen from the
// Rayleigh and Prandtl numbers, and a few helpers on gathered fields.
//
// All in lattice units (spacing and time step 1). The physics is set by
//   Ra = g beta dT H^3 / (nu alpha),  Pr = nu / alpha,
// H the number of fluid cells across the layer or cavity. The lattice's
// free choice is the free-fall (buoyancy) velocity U = sqrt(g beta dT H),
// the scale of the flow's Mach number: keep it near 0.05-0.1. Then
//   nu = U H sqrt(Pr / Ra),  alpha = U H / sqrt(Ra Pr),  g beta = U^2 / (dT H),
// and with beta = 1, dT = 1 and rho0 = 1 the gravity is g = U^2 / H.

#include <cmath>
#include <cstddef>
#include <vector>

#include "solvers/lbm/collision/velocity_sets.hpp"
#include "solvers/lbm/thermal/advection_diffusion.hpp"

namespace latte::examples {

struct ConvectionParameters {
  double rayleigh, prandtl, height, free_fall_velocity;
  double viscosity;    // nu
  double diffusivity;  // alpha
  double gravity;      // g, with beta = 1 and dT = 1
  double tau;          // the flow's relaxation time, nu = (tau - 1/2) / 3
  double tau_thermal;  // the temperature's, alpha = cs2 (tau_T - 1/2)
};

template <class ThermalSet>
ConvectionParameters convection_parameters(double rayleigh, double prandtl, double height,
                                           double free_fall_velocity) {
  ConvectionParameters p{rayleigh, prandtl, height, free_fall_velocity, 0, 0, 0, 0, 0};
  p.viscosity = free_fall_velocity * height * std::sqrt(prandtl / rayleigh);
  p.diffusivity = free_fall_velocity * height / std::sqrt(rayleigh * prandtl);
  p.gravity = free_fall_velocity * free_fall_velocity / height;
  p.tau = lbm::tau_from_viscosity(p.viscosity);
  p.tau_thermal = lbm::tau_from_diffusivity<ThermalSet>(p.diffusivity);
  return p;
}

// The smallest multiple of m not below v.
inline int round_up(int v, int m) { return (v + m - 1) / m * m; }

// A rectangle [x0, x0 + nx) x [y0, y0 + ny) of a plane cut out of a
// gathered field (lexicographic, x fastest, row length `row`), for the
// pictures: the fluid without the walls and the padding.
inline std::vector<double> cut(const std::vector<double>& field, int row, int x0, int y0, int nx, int ny) {
  std::vector<double> out(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x)
      out[static_cast<std::size_t>(y) * nx + x] = field[static_cast<std::size_t>(y0 + y) * row + (x0 + x)];
  return out;
}

// The derivative at a half-way wall from the wall value and the first two
// fluid cells, at distances 1/2 and 3/2 from it (the quadratic through the
// three): dT/dn = (-8 T_wall + 9 T_1 - T_2) / 3, second order in the
// spacing, exact for a quadratic profile.
inline double wall_derivative(double wall, double first, double second) {
  return (-8.0 * wall + 9.0 * first - second) / 3.0;
}

}  // namespace latte::examples
