#pragma once
// A temperature field as a second lattice-Boltzmann distribution: the
// advection-diffusion scheme of advection_diffusion.hpp (D2Q5 or D3Q7,
// BGK with tau_T, alpha = cs2 (tau_T - 1/2)), two population fields
// swapped every step (the pull scheme) or, constructed with
// in_place_streaming, one field updated in place (the AA pattern of
// solvers/lbm/streaming/in_place_streaming.hpp, as the flow's Simulation), optional fixed-
// temperature, heat-flux and adiabatic walls (thermal_walls.hpp), half-way
// or, with two lattices, curved (thermal_curved_walls.hpp). Each step is one
// fused statement, the update of solvers/lbm/update/lattice_update.hpp
// with the ScalarTransport site rule (solvers/lbm/update/site_rules.hpp),
// that reads the fluid velocity at every site from whatever the caller
// passes: a constant, a field, or the flow's velocity() expression (which
// then fuses into the statement: the flow's populations are read at x, no
// velocity field is stored; boussinesq.hpp couples the two ways). The
// populations and their streaming state are a PopulationStore
// (solvers/lbm/update/population_store.hpp), as the flow's.
//
//   lbm::ThermalSimulation<lbm::D2Q5> heat(geometry, lbm::tau_from_diffusivity<lbm::D2Q5>(alpha));
//   heat.initialise(temperature_field, velocity_field);
//   heat.step(flow.velocity());
//   double total = heat.total();    // sum of T over the lattice, walls included
//   lbm::ThermalSimulation<lbm::D2Q5> one_field(geometry, tau, lbm::in_place_streaming);
//
// With walls, the solid cells' records stay as they were initialised (the
// walls' temperatures are in the boundary field, not in them): leave them
// out of averages (nusselt.hpp does). In place a solid cell's record holds
// the populations that bounce back from it, not its own, and in natural
// order it reads as w_i, T = 1 at rest (solvers/lbm/streaming/in_place_streaming.hpp).
//
// Either way populations() and temperature() show the post-collision
// populations in natural order: in place, the field is brought to that
// order when asked for (a pointwise statement after an even number of
// in-place steps, a shifted copy through fresh storage after an odd one)
// and back when the next step runs. Both schemes do the same arithmetic on
// the same values, so they give the same bits on the fluid cells
// (tests/test_lbm_thermal_in_place.cpp).

#include <optional>
#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"
#include "solvers/lbm/streaming/in_place_streaming.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/thermal/advection_diffusion.hpp"
#include "solvers/lbm/thermal/thermal_curved_walls.hpp"
#include "solvers/lbm/thermal/thermal_walls.hpp"
#include "solvers/lbm/update/lattice_update.hpp"
#include "solvers/lbm/update/population_store.hpp"

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
  using WallLinkField = ThermalWallLinkField<VS, Real, Width>;

  // tau_T > 1/2; T = 0 everywhere until initialise.
  ThermalSimulation(const Geometry& geometry, double tau)
      : model_(AdvectionDiffusionBgk::from_tau(tau)), g_(geometry) {
    check_dimensions(geometry);
  }
  // One population field, streamed in place. Its steps are compiled where
  // step() is, whichever constructor ran: the fluid velocity's type is
  // known only there.
  ThermalSimulation(const Geometry& geometry, double tau, InPlaceStreaming)
      : model_(AdvectionDiffusionBgk::from_tau(tau)), g_(geometry, in_place_streaming) {
    check_dimensions(geometry);
  }

  // g = g^eq(T, u) from fields, expressions or constants.
  template <class Temperature, class Velocity>
  void initialise(const Temperature& temperature, const Velocity& u) {
    g_.set(scalar_equilibrium_of<VS>(temperature, u));
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

  // Curved walls (thermal_curved_walls.hpp): the walls of the boundary
  // field (set first) placed where the obstacle cuts each link, with the
  // link fractions and normals `links` holds; copied. Two lattices only.
  void set_curved_walls(const WallLinkField& links) {
    if (!boundary_)
      throw std::logic_error("lbm: thermal set_boundary before set_curved_walls (the obstacle's cells are solid there)");
    if (in_place())
      throw std::logic_error("lbm: curved thermal walls need the two-lattice scheme; in-place streaming does not offer "
                             "them");
    if (!links.layout().same_as(g_.layout()))
      throw GeometryMismatch("lbm: thermal set_curved_walls: the link field lies on " + links.layout().describe() +
                             ", the temperature's populations on " + g_.layout().describe());
    links_.emplace(links);
  }
  const WallLinkField* curved_walls() const { return links_ ? &*links_ : nullptr; }

  // One step, the fluid velocity read at each site from u (a
  // RealVector<double, d> constant, a field or an expression of
  // RealVector<Real, d>), with the build's default backend or another.
  template <class Backend = backend::Default, class Velocity>
  void step(const Velocity& u) {
    const profile::Region region("LB thermal stream-collide");
    const auto body = [&](auto pattern, PopulationField& g, PopulationField* next) {
      update<Backend, decltype(pattern)>(g, next, u);
    };
    if (in_place()) g_.template in_place_step<Backend>(body);
    else g_.two_lattice_step(body);
    ++time_;
  }
  template <class Backend = backend::Default, class Velocity>
  void run(const Velocity& u, long steps) {
    for (long s = 0; s < steps; ++s) step<Backend>(u);
  }

  // T = sum_i g_i at every site, as an expression.
  auto temperature() const { return transported_scalar<VS>(populations()); }
  // sum over all sites of T: what streaming and collision conserve on a
  // periodic lattice (walls exchange heat with the fluid).
  double total() const { return sum(temperature()); }

  // The post-collision populations in natural order (the top of this file).
  const PopulationField& populations() const { return g_.natural(boundary()); }
  PopulationField& populations() { return g_.natural(boundary()); }
  bool in_place() const { return g_.in_place(); }
  // Bytes of population storage per lattice cell: Q reals, once in place,
  // twice with two lattices.
  double population_bytes_per_cell() const { return static_cast<double>(sizeof(Real)) * Q * (in_place() ? 1 : 2); }
  const Geometry& geometry() const { return g_.geometry(); }
  const AdvectionDiffusionBgk& model() const { return model_; }
  double tau() const { return model_.tau(); }
  double diffusivity() const { return diffusivity_from_tau<VS>(model_.tau()); }
  long time() const { return time_; }
  // For restarts (solvers/lbm/io/thermal_checkpoint.hpp): the clock and the rate.
  void set_time(long t) { time_ = t; }
  void set_tau(double tau) { model_ = AdvectionDiffusionBgk::from_tau(tau); }

 private:
  void check_dimensions(const Geometry& geometry) const {
    if (geometry.dimensions() != D)
      throw std::invalid_argument(std::string("lbm: a ") + VS::name + " thermal lattice needs a " +
                                  std::to_string(D) + "-dimensional geometry");
  }

  // One update with the walls this simulation has: the one place where the
  // run-time choice of walls picks a compiled statement.
  template <class Backend, class Pattern, class Velocity>
  void update(PopulationField& g, PopulationField* next, const Velocity& u) {
    const ScalarTransport<AdvectionDiffusionBgk> rule{model_};
    if constexpr (!Pattern::in_place) {  // curved walls: two lattices only (set_curved_walls)
      if (links_) {
        lbm::update<VS, Pattern, Backend>(g, next, rule, u,
                                          ThermalCurvedWalls<Boundary, WallLinkField>{*boundary_, *links_});
        return;
      }
    }
    if (boundary_) lbm::update<VS, Pattern, Backend>(g, next, rule, u, ThermalWalls<Boundary>{*boundary_});
    else lbm::update<VS, Pattern, Backend>(g, next, rule, u, NoWalls{});
  }

  AdvectionDiffusionBgk model_;
  PopulationStore<VS, Real, Width> g_;
  std::optional<Boundary> boundary_;
  std::optional<WallLinkField> links_;
  long time_ = 0;
};

}  // namespace latte::lbm
