#pragma once
// The Nusselt number of convection between two walls normal to an axis,
// the hot one (T_hot) at the low end, the cold one (T_cold) at the high
// end, H fluid cells apart (half-way walls: H is the number of fluid layers
// between them). The heat flux along the axis, u_a T - alpha dT/dx_a,
// averaged over the fluid, divided by the flux of pure conduction,
// alpha dT / H with dT = T_hot - T_cold:
//
//   Nu = <u_a T - alpha dT/dx_a> / (alpha dT / H) = 1 + <u_a T> / (alpha dT / H)
//
// because the fluid average of -alpha dT/dx_a is alpha (T_hot - T_cold) / H
// whatever the flow (the walls fix T at both ends). Nu = 1 is conduction;
// the convective part is one reduction over the sites, the solid cells of
// the thermal boundary field left out.

#include "dsl/latte.hpp"

namespace latte::lbm {

struct NusseltSetup {
  double diffusivity;         // alpha
  double temperature_difference;  // T_hot - T_cold
  double height;              // H, fluid cells between the walls
};

// Axis a: the direction from the hot wall to the cold one. temperature and
// velocity are expressions or fields (ThermalSimulation::temperature(),
// Simulation::velocity()); boundary is a field whose element 0 is 1 on
// solid cells (ThermalBoundaryField).
template <int Axis, class Temperature, class Velocity, class Boundary>
double nusselt_number(const Temperature& temperature, const Velocity& velocity, const Boundary& boundary,
                      const NusseltSetup& setup) {
  const auto solid = element<0>(boundary);
  const double fluid_sites = static_cast<double>(boundary.geometry().volume()) - sum(solid);
  const double convective = sum(where(solid, 0.0, element<Axis>(velocity) * temperature)) / fluid_sites;
  return 1.0 + convective / (setup.diffusivity * setup.temperature_difference / setup.height);
}

}  // namespace latte::lbm
