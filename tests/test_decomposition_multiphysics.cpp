// The coupled lattice-Boltzmann models on a lattice spread over ranks give
// the very bits of one rank: Rayleigh-Benard convection (a D2Q9 flow with
// a D2Q5 temperature, the Boussinesq force, walls with fixed temperatures;
// and D3Q19 with D3Q7, both in place), a hot cylinder with curved walls
// for both distributions, and the Shan-Chen liquid-vapour
// model (a D2Q9 drop with the original pseudopotential, two lattices and in
// place, with Maxwell's mixing and on a wetting wall; a D3Q19 slab with the
// Carnahan-Starling one) and the two-component mixture between walls. Each step's
// statements read neighbours across the ranks' faces (the temperature's
// streaming, the force's shifted psi values), and the reductions (mass,
// total temperature, the Nusselt number) are the reproducible sums. Run
// under mpirun with 2, 4 and 16 ranks, and at one rank (forced
// communication) in the ordinary suite.

#include <cmath>

#include "decomposition_support.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/multiphase/mixture_simulation.hpp"
#include "solvers/lbm/multiphase/shan_chen.hpp"
#include "solvers/lbm/multiphase/shan_chen_wetting.hpp"
#include "solvers/lbm/thermal/boussinesq.hpp"
#include "solvers/lbm/thermal/nusselt.hpp"
#include "solvers/lbm/thermal/thermal.hpp"

namespace latte::testing {
namespace {

// Convection between a hot bottom plate and a cold top plate (the last
// axis vertical), started from a perturbed conduction profile, after
// `steps` coupled steps.
template <class FlowVS, class HeatVS>
struct Convection {
  using Flow = lbm::Simulation<FlowVS, double, lbm::Bgk>;
  using Heat = lbm::ThermalSimulation<HeatVS, double>;
  static constexpr int D = FlowVS::d;
  Flow flow;
  Heat heat;
  typename Flow::Boundary walls;
  typename Heat::Boundary plates;
  lbm::Boussinesq buoyancy;

  template <class... Scheme>
  Convection(const Geometry& g, long steps, Scheme... scheme)
      : flow(g, lbm::Parameters{0.6}, scheme...), heat(g, 0.62, scheme...), walls(g), plates(g) {
    const int top = g.dims()[D - 1] - 1;
    const auto on_plate = [top](const Coordinate& x) { return x[D - 1] == 0 || x[D - 1] == top; };
    walls = zero;
    lbm::mark_solid(walls, on_plate);
    flow.set_boundary(walls);
    plates = zero;
    lbm::mark_fixed_temperature(plates, [](const Coordinate& x) { return x[D - 1] == 0; }, 1.0);
    lbm::mark_fixed_temperature(plates, [top](const Coordinate& x) { return x[D - 1] == top; }, 0.0);
    heat.set_boundary(plates);
    typename Flow::ScalarField t(g);
    fill(t, [top](const Coordinate& x) {
      return 1.0 - (x[D - 1] - 0.5) / (top - 1) + 0.01 * std::sin(0.7 * x[0] + 0.3 * x[D - 1]);
    });
    heat.initialise(t, RealVector<double, D>{});
    flow.initialise(1.0);
    buoyancy.expansion = 0.1;
    buoyancy.reference_temperature = 0.5;
    buoyancy.gravity[D - 1] = 1e-3;
    lbm::set_buoyancy(flow, heat, buoyancy);
    for (long s = 0; s < steps; ++s) lbm::coupled_step(flow, heat, buoyancy);
  }

  double nusselt() const {
    return lbm::nusselt_number<D - 1>(heat.temperature(), flow.velocity(), plates,
                                      lbm::NusseltSetup{heat.diffusivity(), 1.0, double(plates.geometry().dims()[D - 1] - 2)});
  }
};

template <class FlowVS, class HeatVS, class... Scheme>
void expect_convection_matches(const Coordinate& dims, long steps, Scheme... scheme) {
  const Convection<FlowVS, HeatVS> one(replicated(dims), steps, scheme...);
  EXPECT_GT(std::abs(one.nusselt() - 1.0), 1e-8);  // the plume moved heat: the comparison is not of a fluid at rest
  for_each_decomposition(dims, [&](const Geometry& g) {
    const Convection<FlowVS, HeatVS> many(g, steps, scheme...);
    EXPECT_TRUE(same_as_one_rank(many.flow.populations(), one.flow.populations())) << "flow";
    EXPECT_TRUE(same_as_one_rank(many.heat.populations(), one.heat.populations())) << "temperature";
    EXPECT_TRUE(same_result(many.heat.total(), one.heat.total())) << "total temperature";
    EXPECT_TRUE(same_result(many.nusselt(), one.nusselt())) << "Nusselt number";
  });
}

// 16 x 16: on 16 ranks each block (4 x 4) still fills the 8 lanes of an
// AVX-512 double vector.
TEST(DecompositionMultiphysics, RayleighBenardD2Q9WithD2Q5) { expect_convection_matches<lbm::D2Q9, lbm::D2Q5>({16, 16}, 60); }

TEST(DecompositionMultiphysics, RayleighBenardD3Q19WithD3Q7InPlace) {
  expect_convection_matches<lbm::D3Q19, lbm::D3Q7>({8, 8, 8}, 30, lbm::in_place_streaming);
}

// A hot cylinder in a cold box: curved walls for the flow (interpolated
// bounce-back) and for the temperature (interpolated anti-bounce-back),
// half-way walls on the box, the Boussinesq force, after `steps` steps.
struct HeatedCylinder {
  using Flow = lbm::Simulation<lbm::D2Q9, double, lbm::Bgk>;
  using Heat = lbm::ThermalSimulation<lbm::D2Q5, double>;
  Flow flow;
  Heat heat;
  lbm::Boussinesq buoyancy;

  HeatedCylinder(const Geometry& g, long steps) : flow(g, lbm::Parameters{0.6}), heat(g, 0.62) {
    const int n = g.dims()[0];
    const auto frame = [n](const Coordinate& x) { return x[0] == 0 || x[1] == 0 || x[0] == n - 1 || x[1] == n - 1; };
    const auto cylinder = [](const std::array<double, 2>& p) { return std::hypot(p[0] - 7.3, p[1] - 8.4) - 3.1; };
    Flow::Boundary walls(g);
    lbm::WallLinkField<lbm::D2Q9, double> flow_links(g);
    walls = zero;
    flow_links = zero;
    lbm::mark_solid(walls, frame);
    lbm::mark_curved_obstacle<lbm::D2Q9>(walls, flow_links, cylinder);
    flow.set_boundary(walls);
    flow.set_curved_walls(flow_links);
    Heat::Boundary thermal(g);
    Heat::WallLinkField heat_links(g);
    thermal = zero;
    heat_links = zero;
    lbm::mark_fixed_temperature(thermal, frame, 0.0);
    lbm::mark_curved_fixed_temperature<lbm::D2Q5>(thermal, heat_links, cylinder, 1.0);
    heat.set_boundary(thermal);
    heat.set_curved_walls(heat_links);
    heat.initialise(0.0);
    flow.initialise(1.0);
    buoyancy.expansion = 0.1;
    buoyancy.reference_temperature = 0.0;
    buoyancy.gravity[1] = 1e-3;
    lbm::set_buoyancy(flow, heat, buoyancy);
    for (long s = 0; s < steps; ++s) lbm::coupled_step(flow, heat, buoyancy);
  }
};

TEST(DecompositionMultiphysics, HeatedCylinderWithCurvedWallsD2Q9WithD2Q5) {
  const Coordinate dims{16, 16};
  const HeatedCylinder one(replicated(dims), 60);
  EXPECT_GT(norm2(one.flow.velocity()), 1e-10);  // the plume rose: the comparison is not of a fluid at rest
  for_each_decomposition(dims, [&](const Geometry& g) {
    const HeatedCylinder many(g, 60);
    EXPECT_TRUE(same_as_one_rank(many.flow.populations(), one.flow.populations())) << "flow";
    EXPECT_TRUE(same_as_one_rank(many.heat.populations(), one.heat.populations())) << "temperature";
    EXPECT_TRUE(same_result(many.heat.total(), one.heat.total())) << "total temperature";
  });
}

// A liquid region in its vapour, after `steps` Shan-Chen steps.
template <class VS, class Pseudopotential>
struct PhaseSeparation {
  using Flow = lbm::Simulation<VS, double, lbm::Bgk>;
  Flow flow;
  lbm::ShanChenCoupling<Flow, Pseudopotential> coupling;

  template <class Liquid, class... Scheme>
  PhaseSeparation(const Geometry& g, const lbm::ShanChen<Pseudopotential>& model, double liquid, double vapour,
                  Liquid&& inside, long steps, Scheme... scheme)
      : flow(g, lbm::Parameters{1.0}, scheme...), coupling(initialised(flow, liquid, vapour, inside), model) {
    coupling.run(steps);
  }
  // On walls at y = 0 and y = top wetted as by a fluid of density wall_density.
  template <class Liquid>
  PhaseSeparation(const Geometry& g, const lbm::ShanChen<Pseudopotential>& model, double liquid, double vapour,
                  Liquid&& inside, long steps, double wall_density)
      : flow(g, lbm::Parameters{1.0}),
        coupling(initialised(with_walls(flow), liquid, vapour, inside), model, lbm::Wetting{wall_density}) {
    coupling.run(steps);
  }

  static Flow& with_walls(Flow& flow) {
    typename Flow::Boundary walls(flow.geometry());
    const int top = flow.geometry().dims()[1] - 1;
    walls = zero;
    lbm::mark_solid(walls, [top](const Coordinate& x) { return x[1] == 0 || x[1] == top; });
    flow.set_boundary(walls);
    return flow;
  }

  template <class Liquid>
  static Flow& initialised(Flow& flow, double liquid, double vapour, Liquid&& inside) {
    typename Flow::ScalarField rho(flow.geometry());
    fill(rho, [&](const Coordinate& x) { return inside(x) ? liquid : vapour; });
    flow.initialise(rho, RealVector<double, VS::d>{});
    return flow;
  }
};

template <class VS, class Pseudopotential, class Liquid, class... Scheme>
void expect_phase_separation_matches(const Coordinate& dims, const lbm::ShanChen<Pseudopotential>& model,
                                     double liquid, double vapour, Liquid inside, long steps, Scheme... scheme) {
  const PhaseSeparation<VS, Pseudopotential> one(replicated(dims), model, liquid, vapour, inside, steps, scheme...);
  for_each_decomposition(dims, [&](const Geometry& g) {
    const PhaseSeparation<VS, Pseudopotential> many(g, model, liquid, vapour, inside, steps, scheme...);
    EXPECT_TRUE(same_as_one_rank(many.flow.populations(), one.flow.populations())) << "populations";
    EXPECT_TRUE(same_as_one_rank(many.flow.force_field(), one.flow.force_field())) << "interaction force";
    EXPECT_TRUE(same_result(many.flow.mass(), one.flow.mass())) << "mass";
  });
}

const auto drop_16 = [](const Coordinate& x) { return std::hypot(x[0] - 7.5, x[1] - 8.5) < 5; };

TEST(DecompositionMultiphysics, ShanChenDropD2Q9) {
  expect_phase_separation_matches<lbm::D2Q9>({16, 16}, lbm::shan_chen_exponential(-5.0), 1.9, 0.16, drop_16, 60);
}

TEST(DecompositionMultiphysics, ShanChenDropD2Q9InPlace) {
  expect_phase_separation_matches<lbm::D2Q9>({16, 16}, lbm::shan_chen_exponential(-5.0), 1.9, 0.16, drop_16, 60,
                                             lbm::in_place_streaming);
}

TEST(DecompositionMultiphysics, ShanChenDropD2Q9MaxwellMixing) {
  expect_phase_separation_matches<lbm::D2Q9>({16, 16}, lbm::shan_chen_exponential_maxwell(-5.0), 1.9, 0.16, drop_16,
                                             60);
}

TEST(DecompositionMultiphysics, ShanChenDropOnAWettingWallD2Q9) {
  const auto on_wall = [](const Coordinate& x) { return std::hypot(x[0] - 7.5, x[1] - 1.0) < 6; };
  expect_phase_separation_matches<lbm::D2Q9>({16, 16}, lbm::shan_chen_exponential(-5.0), 1.9, 0.16, on_wall, 60,
                                             0.8);
}

TEST(DecompositionMultiphysics, ShanChenCarnahanStarlingSlabD3Q19) {
  lbm::CarnahanStarling eos;
  eos.temperature = 0.85 * eos.critical_temperature();
  expect_phase_separation_matches<lbm::D3Q19>({8, 8, 8}, lbm::shan_chen_carnahan_starling(eos), 0.28, 0.03,
                                              [](const Coordinate& x) { return x[0] >= 2 && x[0] < 6; }, 30);
}

// Two immiscible components between walls, a blob of fluid 1 in fluid 2
// under gravity, after 60 steps.
struct Mixture {
  using Mix = lbm::MixtureSimulation<lbm::D2Q9, double>;
  Mix mix;
  explicit Mixture(const Geometry& g) : mix(g, parameters()) {
    Mix::Boundary walls(g);
    const int top = g.dims()[1] - 1;
    walls = zero;
    lbm::mark_solid(walls, [top](const Coordinate& x) { return x[1] == 0 || x[1] == top; });
    mix.set_boundary(walls);
    Mix::ScalarField rho1(g), rho2(g);
    const auto blob = [](const Coordinate& x) { return std::hypot(x[0] - 6.5, x[1] - 9.0) < 4.5; };
    fill(rho1, [&](const Coordinate& x) { return blob(x) ? 1.0 : 0.05; });
    fill(rho2, [&](const Coordinate& x) { return blob(x) ? 0.05 : 1.0; });
    mix.initialise(rho1, rho2);
    mix.run(60);
  }
  static lbm::MixtureParameters parameters() {
    lbm::MixtureParameters p;
    p.tau[0] = 0.8;
    p.tau[1] = 1.1;
    p.coupling = 2.5;
    p.gravity[0][1] = -1e-4;
    return p;
  }
};

TEST(DecompositionMultiphysics, TwoComponentsBetweenWallsD2Q9) {
  const Coordinate dims{16, 16};
  const Mixture one(replicated(dims));
  for_each_decomposition(dims, [&](const Geometry& g) {
    const Mixture many(g);
    EXPECT_TRUE(same_as_one_rank(many.mix.populations(0), one.mix.populations(0))) << "component 1";
    EXPECT_TRUE(same_as_one_rank(many.mix.populations(1), one.mix.populations(1))) << "component 2";
    EXPECT_TRUE(same_as_one_rank(many.mix.cross_force(), one.mix.cross_force())) << "cross forces";
    EXPECT_TRUE(same_result(many.mix.mass<0>(), one.mix.mass<0>())) << "mass of component 1";
    EXPECT_TRUE(same_result(many.mix.mass<1>(), one.mix.mass<1>())) << "mass of component 2";
  });
}

}  // namespace
}  // namespace latte::testing
