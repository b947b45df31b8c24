#pragma once
// A temperature field as a second lattice-Boltzmann distribution: the
// advection-diffusion scheme of advection_diffusion.hpp (D2Q5 or D3Q7,
// BGK with tau_T, alpha = cs2 (tau_T - 1/2)), two population fields
// swapped every step (the pull scheme), optional fixed-temperature and
// adiabatic walls (thermal_walls.hpp). Each step is one fused statement
// (thermal_update.hpp) that reads the fluid velocity at every site from
// whatever the caller passes: a constant, a field, or the flow's
// velocity() expression (boussinesq.hpp couples the two ways).
//
//   lbm::ThermalSimulation<lbm::D2Q5> heat(geometry, lbm::tau_from_diffusivity<lbm::D2Q5>(alpha));
//   heat.initialise(temperature_field, velocity_field);
//   heat.step(flow.velocity());
//   double total = heat.total();    // sum of T over the lattice, walls included
//
// With walls, the solid cells' records stay as they were initialised (the
// walls' temperatures are in the boundary field, not in them): leave them
// out of averages (nusselt.hpp does).

#include <optional>
#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "solvers/lbm/advection_diffusion.hpp"
#include "solvers/lbm/stream_collide.hpp"
#include "solvers/lbm/thermal_update.hpp"
#include "solvers/lbm/thermal_walls.hpp"

namespace latte::lbm {

template <class VS, class Real = double, class Width = DefaultWidth>
class ThermalSimulation {
 public:
  static constexpr int D = VS::d;
  static constexpr int Q = VS::q;
  using velocity_set = VS;
  using real_type = Real;
  using PopulationField = Lattice<Populations<Real, Q>, Width>;
  using ScalarField = Lattice<Real, Width>;
  using VectorField = Lattice<RealVector<Real, D>, Width>;
  using Boundary = ThermalBoundaryField<Real, Width>;

  // tau_T > 1/2; T = 0 everywhere until initialise.
  ThermalSimulation(const Geometry& geometry, double tau)
      : model_(AdvectionDiffusionBgk::from_tau(tau)), g_(geometry), next_(geometry) {
    if (geometry.dimensions() != D)
      throw std::invalid_argument(std::string("lbm: a ") + VS::name + " thermal lattice needs a " +
                                  std::to_string(D) + "-dimensional geometry");
  }

  // g = g^eq(T, u) from fields, expressions or constants.
  template <class Temperature, class Velocity>
  void initialise(const Temperature& temperature, const Velocity& u) {
    g_ = scalar_equilibrium_of<VS>(temperature, u);
  }
  // A uniform temperature at rest.
  void initialise(double temperature) {
    ScalarField t(g_.geometry());
    t = temperature;
    initialise(t, RealVector<double, D>{});
  }

  // Fixed-temperature and adiabatic walls (thermal_walls.hpp); copied.
  void set_boundary(const Boundary& b) {
    if (!b.layout().same_as(g_.layout()))
      throw GeometryMismatch("lbm: thermal set_boundary: the boundary field lies on " + b.layout().describe() +
                             ", the temperature's populations on " + g_.layout().describe());
    boundary_.emplace(b);
  }
  const Boundary* boundary() const { return boundary_ ? &*boundary_ : nullptr; }

  // One step, the fluid velocity read at each site from u (a
  // RealVector<double, d> constant, a field or an expression of
  // RealVector<Real, d>), with the build's default backend or another.
  template <class Backend = backend::Default, class Velocity>
  void step(const Velocity& u) {
    const profile::Region region("LB thermal stream-collide");
    if (boundary_) scalar_update<VS, PullStreaming, Backend>(g_, &next_, model_, u, ThermalWalls<Boundary>{*boundary_});
    else scalar_update<VS, PullStreaming, Backend>(g_, &next_, model_, u, NoWalls{});
    g_.swap(next_);
    ++time_;
  }
  template <class Backend = backend::Default, class Velocity>
  void run(const Velocity& u, long steps) {
    for (long s = 0; s < steps; ++s) step<Backend>(u);
  }

  // T = sum_i g_i at every site, as an expression.
  auto temperature() const { return transported_scalar<VS>(g_); }
  // sum over all sites of T: what streaming and collision conserve on a
  // periodic lattice (walls exchange heat with the fluid).
  double total() const { return sum(temperature()); }

  const PopulationField& populations() const { return g_; }
  PopulationField& populations() { return g_; }
  const Geometry& geometry() const { return g_.geometry(); }
  const AdvectionDiffusionBgk& model() const { return model_; }
  double tau() const { return model_.tau(); }
  double diffusivity() const { return diffusivity_from_tau<VS>(model_.tau()); }
  long time() const { return time_; }

 private:
  AdvectionDiffusionBgk model_;
  PopulationField g_;
  PopulationField next_;
  std::optional<Boundary> boundary_;
  long time_ = 0;
};

}  // namespace latte::lbm
