#pragma once
// The Boussinesq coupling of a temperature (thermal.hpp) to a flow
// (solvers/lbm/flow/simulation.hpp). The density varies with temperature only where it
// meets gravity, rho = rho0 (1 - beta (T - T_ref)); the weight rho0 g of
// the reference density is balanced by the pressure and dropped, which
// leaves the buoyancy force density
//
//   F(x) = -rho0 beta (T(x) - T_ref) g
//
// with g the gravitational acceleration (a vector pointing down: (0, -g0)
// for gravity along -y, so that fluid warmer than T_ref rises). All in
// lattice units; the dimensionless numbers that set the physics are
// Ra = g0 beta dT H^3 / (nu alpha) and Pr = nu / alpha
// (docs/guide/lattice_boltzmann.md says how to choose them).
//
// The force reaches the flow through its per-site force field
// (Simulation::set_force, Guo forcing), recomputed from T by one statement
// each step. One coupled step, in this order:
//   1. the flow steps with F(T^t);
//   2. the temperature steps with u^t = flow.velocity(), which reads the
//      flow's post-collision populations and the same F(T^t): u^t is the
//      velocity the flow's collision at t used;
//   3. F(T^{t+1}) is written into the force field for the next step.

#include <array>
#include <stdexcept>

#include "dsl/latte.hpp"

namespace latte::lbm {

struct Boussinesq {
  double reference_density = 1.0;        // rho0
  double expansion = 0.0;                // beta, the thermal expansion coefficient
  double reference_temperature = 0.0;    // T_ref
  std::array<double, 3> gravity{0, 0, 0};  // g (first d entries used), pointing down
};

namespace functors {

template <int D> struct BuoyancyForce {
  static constexpr const char* name = "buoyancy";
  Boussinesq parameters;
  template <class V> LATTE_INLINE RealVector<V, D> operator()(const V& temperature) const {
    const V excess = temperature - V(parameters.reference_temperature);
    RealVector<V, D> force;
    for (int d = 0; d < D; ++d)
      force.v[d] = V(-parameters.reference_density * parameters.expansion * parameters.gravity[d]) * excess;
    return force;
  }
};

}  // namespace functors

// F(x) from a temperature expression or field, as an expression.
template <int D, class Temperature>
auto buoyancy_force(const Temperature& temperature, const Boussinesq& parameters) {
  return map(functors::BuoyancyForce<D>{parameters}, temperature);
}

// Sets the flow's force field to F(T) of the temperature's current state:
// call once before the first coupled_step (it compiles the flow's
// field-forced steps, Simulation::set_force).
template <class Flow, class Thermal>
void set_buoyancy(Flow& flow, const Thermal& thermal, const Boussinesq& parameters) {
  static_assert(Flow::D == Thermal::D, "lbm: the flow and the temperature must have the same dimension");
  typename Flow::VectorField force(flow.geometry());
  force = buoyancy_force<Flow::D>(thermal.temperature(), parameters);
  flow.set_force(force);
}

// One coupled step (the order at the top of this file).
template <class Flow, class Thermal>
void coupled_step(Flow& flow, Thermal& thermal, const Boussinesq& parameters) {
  if (!flow.has_force_field())
    throw std::logic_error("lbm: coupled_step: call set_buoyancy(flow, thermal, parameters) first");
  flow.step();
  thermal.step(flow.velocity());
  flow.force_field() = buoyancy_force<Flow::D>(thermal.temperature(), parameters);
}

}  // namespace latte::lbm
