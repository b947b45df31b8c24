#pragma once
// A two-component Shan–Chen mixture (shan_chen_mixture.hpp for the model
// and its conventions): two population fields, each with its second lattice
// (the pull scheme), optional half-way bounce-back walls. One step is three
// statements:
//   1. the densities (rho_1, rho_2) the next collision sees, one field of
//      pairs (beside walls with the bounced-back populations; on solid
//      cells the wall's own record, see below);
//   2. the cross forces of both components from that field shifted along
//      every velocity (one fused statement);
//   3. both components streamed, bounced back at walls and collided toward
//      their common velocity: one statement with two destinations
//      (assign_all), then the swap.
//
//   lbm::MixtureSimulation<lbm::D2Q9> mix(geometry, parameters);
//   mix.initialise(rho1, rho2);            // fields or expressions, at rest
//   mix.run(1000);
//   double m1 = mix.mass<0>();
//   Lattice<double> phi(geometry); phi = mix.composition();
//
// Walls: the boundary field of solvers/lbm/walls/boundaries.hpp, {solid, u_w...} per site,
// at rest: the wall rule's moving-wall term (solvers/lbm/walls/wall_rules.hpp, rho_w = 1)
// would be added to each component, counting the wall's momentum once per
// component, so wall velocities must be zero (not checked). Solid cells
// keep the populations they were initialised with,
// and their densities are what the cross force sees there: initialising the
// solid cells with the densities of a pure fluid makes the wall wetted by
// that fluid (a fixed pseudopotential on the wall).

#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/macroscopic.hpp"
#include "solvers/lbm/multiphase/shan_chen.hpp"
#include "solvers/lbm/multiphase/shan_chen_mixture.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/walls/boundaries.hpp"
#include "solvers/lbm/walls/wall_rules.hpp"

namespace latte::lbm {

template <class VS, class Real = double, class Width = DefaultWidth>
class MixtureSimulation {
 public:
  static constexpr int D = VS::d;
  static constexpr int Q = VS::q;
  using velocity_set = VS;
  using real_type = Real;
  using PopulationField = Lattice<Populations<Real, Q>, Width>;
  using ScalarField = Lattice<Real, Width>;
  using VectorField = Lattice<RealVector<Real, D>, Width>;
  using DensityPairField = Lattice<RealVector<Real, 2>, Width>;
  using ForcePairField = Lattice<RealVector<Real, 2 * D>, Width>;
  using Boundary = Lattice<RealVector<Real, D + 1>, Width>;

  MixtureSimulation(const Geometry& geometry, const MixtureParameters& p)
      : f_{PopulationField(geometry), PopulationField(geometry)},
        next_{PopulationField(geometry), PopulationField(geometry)},
        densities_(geometry),
        cross_force_(geometry) {
    if (geometry.dimensions() != D)
      throw std::invalid_argument(std::string("lbm: a ") + VS::name + " mixture needs a " + std::to_string(D) +
                                  "-dimensional lattice");
    for (int c = 0; c < 2; ++c)
      if (!(p.tau[c] > 0.5))
        throw std::invalid_argument("lbm: mixture: tau of component " + std::to_string(c + 1) +
                                    " must exceed 1/2, got " + std::to_string(p.tau[c]));
    parameters_ = p;
    cross_force_ = zero;
  }

  // Walls (solvers/lbm/walls/boundaries.hpp); copied. Set before initialise, which gives the
  // solid cells their densities.
  void set_boundary(const Boundary& b) {
    if (!b.layout().same_as(f_[0].layout()))
      throw GeometryMismatch("lbm: mixture set_boundary: the boundary field lies on " + b.layout().describe() +
                             ", the populations on " + f_[0].layout().describe());
    boundary_.emplace(b);
  }
  const Boundary* boundary() const { return boundary_ ? &*boundary_ : nullptr; }

  // f_sigma = f^eq(rho_sigma, 0): both components at rest, from density
  // fields or expressions (on solid cells: the wall's densities).
  template <class Rho1, class Rho2>
  void initialise(const Rho1& rho1, const Rho2& rho2) {
    VectorField u(f_[0].geometry());
    u = zero;
    f_[0] = equilibrium_of<VS>(rho1, u);
    f_[1] = equilibrium_of<VS>(rho2, u);
    update_force();
    time_ = 0;
  }

  // The densities the next collision sees and the cross forces from them
  // (statements 1 and 2 at the top of this file).
  void update_force() {
    if (boundary_) {
      densities_ = map(functors::MixtureDensitiesWithWalls<VS, HalfWayWalls<Boundary>>{},
                       streamed_populations<VS>(f_[0]), streamed_populations<VS>(f_[1]), f_[0], f_[1],
                       values_along_velocities<VS, -1>(*boundary_));
    } else {
      densities_ = pack<RealVector<Real, 2>>(density_after_streaming<VS>(f_[0]), density_after_streaming<VS>(f_[1]));
    }
    cross_force_ = mixture_cross_force<VS>(parameters_.coupling, densities_);
  }

  // One step: the force of the densities the step collides, then both
  // components' update in one statement.
  template <class Backend = backend::Default>
  void step() {
    const profile::Region region("LB mixture step");
    update_force();
    const double nu[2] = {viscosity_from_tau(parameters_.tau[0]), viscosity_from_tau(parameters_.tau[1])};
    if (boundary_) {
      using Walls = HalfWayWalls<Boundary>;
      const auto upstream = values_along_velocities<VS, -1>(*boundary_);
      const auto rhs = [&](auto component) {
        functors::MixtureUpdate<VS, decltype(component)::value, Walls> update{};
        configure(update, nu);
        return map(update, streamed_populations<VS>(f_[0]), streamed_populations<VS>(f_[1]), cross_force_, f_[0],
                   f_[1], upstream);
      };
      assign_all<Backend>(std::tie(next_[0], next_[1]), rhs(std::integral_constant<int, 0>{}),
                          rhs(std::integral_constant<int, 1>{}));
    } else {
      const auto rhs = [&](auto component) {
        functors::MixtureUpdate<VS, decltype(component)::value, NoWalls> update{};
        configure(update, nu);
        return map(update, streamed_populations<VS>(f_[0]), streamed_populations<VS>(f_[1]), cross_force_);
      };
      assign_all<Backend>(std::tie(next_[0], next_[1]), rhs(std::integral_constant<int, 0>{}),
                          rhs(std::integral_constant<int, 1>{}));
    }
    f_[0].swap(next_[0]);
    f_[1].swap(next_[1]);
    ++time_;
  }
  template <class Backend = backend::Default>
  void run(long steps) {
    for (long s = 0; s < steps; ++s) step<Backend>();
  }

  // rho_sigma of the stored populations (C = 0 or 1), as an expression.
  template <int C>
  auto density() const {
    return lbm::density<VS>(f_[C]);
  }
  auto total_density() const { return lbm::density<VS>(f_[0]) + lbm::density<VS>(f_[1]); }
  // phi = rho_1 / (rho_1 + rho_2): 1 in pure fluid 1, 0 in pure fluid 2.
  auto composition() const { return lbm::density<VS>(f_[0]) / total_density(); }
  // The barycentric velocity of the last step (shan_chen_mixture.hpp).
  auto velocity() const {
    functors::MixtureVelocity<VS> v{};
    for (int c = 0; c < 2; ++c)
      for (int d = 0; d < 3; ++d) v.gravity[c][d] = parameters_.gravity[c][d];
    return map(v, f_[0], f_[1], cross_force_);
  }
  // The mass of component C over the fluid sites (solid cells keep their
  // records and are left out).
  template <int C>
  double mass() const {
    if (boundary_) return sum(where(element<0>(*boundary_), 0.0, density<C>()));
    return sum(density<C>());
  }
  // sum over fluid sites of j_1 + j_2 of the stored populations.
  std::array<double, D> total_momentum() const {
    const auto j = boundary_ ? sum(where(element<0>(*boundary_), RealVector<double, D>{},
                                         momentum<VS>(f_[0]) + momentum<VS>(f_[1])))
                             : sum(momentum<VS>(f_[0]) + momentum<VS>(f_[1]));
    std::array<double, D> out;
    for (int d = 0; d < D; ++d) out[d] = j.v[d];
    return out;
  }

  const PopulationField& populations(int component) const { return f_[component]; }
  // The cross forces (F_1, F_2) of the last step; the densities they came from.
  const ForcePairField& cross_force() const { return cross_force_; }
  const DensityPairField& densities_after_streaming() const { return densities_; }
  const Geometry& geometry() const { return f_[0].geometry(); }
  const MixtureParameters& parameters() const { return parameters_; }
  double viscosity(int component) const { return viscosity_from_tau(parameters_.tau[component]); }
  long time() const { return time_; }

 private:
  template <class Update>
  void configure(Update& update, const double (&nu)[2]) const {
    for (int c = 0; c < 2; ++c) {
      update.nu[c] = nu[c];
      for (int d = 0; d < 3; ++d) update.gravity[c][d] = parameters_.gravity[c][d];
    }
  }

  PopulationField f_[2];
  PopulationField next_[2];
  DensityPairField densities_;
  ForcePairField cross_force_;
  std::optional<Boundary> boundary_;
  MixtureParameters parameters_;
  long time_ = 0;
};

}  // namespace latte::lbm
