// A wall source means something only in a fixed gauge: the correlators of
// a wall source on a field fixed to Coulomb gauge do not change when the
// field is first gauge-transformed at random and then fixed again (Coulomb
// gauge leaves one constant transformation per timeslice, under which the
// wall-source mesons and baryons are invariant), while on the unfixed
// transformed field they do change. Included by suite_spectroscopy.cpp after
// test_gauge_fixing.cpp, whose smooth_field and random_transformation it
// uses.

#include "solvers/qcd/gauge_fixing/gauge_fixing.hpp"
#include "solvers/qcd/measure/baryon_contractions.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"
#include "solvers/qcd/measure/quark_sources.hpp"
#include "solvers/qcd/measure/wall_sink.hpp"

namespace latte::testing {
namespace {

struct WallCorrelators {
  MesonCorrelators mesons;
  BaryonCorrelators baryons;
  MesonCorrelators wall_wall;
};

// Wall source on timeslice 2, point and wall sinks, on the links given.
WallCorrelators wall_correlators(const GaugeField<double>& U) {
  const Geometry& geometry = U.geometry();
  const WilsonDirac<double> M(U, 0.3, FermionBoundary::antiperiodic_in_time());
  Lattice<PropagatorSite<double>> sources(geometry);
  wall_source(sources, 2);
  const auto propagator = solve_propagator(M, sources, SolverControl{1e-13, 2000, false});
  const Coordinate site{0, 0, 0, 2};
  const std::vector<Momentum> momenta{{0, 0, 0}, {1, 0, 0}};
  const std::vector<PropagatorSite<double>> summed = wall_sink(propagator.field);
  return {meson_correlators(propagator.field, site, momenta),
          baryon_correlators(propagator.field, site, momenta),
          wall_sink_meson_correlators(summed, summed, site, geometry.dims())};
}

double largest_relative_difference(const Correlator& a, const Correlator& b) {
  double scale = 0, worst = 0;
  for (std::size_t t = 0; t < a.size(); ++t) {
    scale = std::max(scale, std::abs(b[t]));
    worst = std::max(worst, std::abs(a[t] - b[t]));
  }
  return worst / scale;
}

TEST(WallSourceGauge, CorrelatorsOfAFixedFieldDoNotDependOnTheGaugeItCameIn) {
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<double> fixed(geometry), transformed(geometry);
  smooth_field(fixed, 31, 0.25);
  for (int mu = 0; mu < 4; ++mu) transformed[mu] = fixed[mu];
  gauge_transform(transformed, random_transformation<double, DefaultWidth>(geometry, 32));
  const WallCorrelators unfixed = wall_correlators(transformed);

  // theta is a squared gradient: 1e-24 puts the links some 1e-12 from the
  // exact maximum (at 1e-14, 1e-7, and the correlators differed by 1e-9).
  const GaugeFixingControl control{1e-24, 20000, 10};
  fix_gauge(fixed, GaugeCondition::coulomb, control);
  fix_gauge(transformed, GaugeCondition::coulomb, control);
  const WallCorrelators a = wall_correlators(fixed), b = wall_correlators(transformed);

  double worst = 0, unfixed_change = 0;
  for (std::size_t m = 0; m < 2; ++m) {
    for (std::size_t k = 0; k < a.mesons.channels.size(); ++k) {
      worst = std::max(worst, largest_relative_difference(b.mesons(m, k), a.mesons(m, k)));
      unfixed_change = std::max(unfixed_change, largest_relative_difference(unfixed.mesons(m, k), a.mesons(m, k)));
    }
    worst = std::max(worst, largest_relative_difference(b.baryons.proton[m], a.baryons.proton[m]));
    for (int k = 0; k < 3; ++k)
      worst = std::max(worst, largest_relative_difference(b.baryons.delta[m][k], a.baryons.delta[m][k]));
  }
  for (std::size_t k = 0; k < a.wall_wall.channels.size(); ++k)
    worst = std::max(worst, largest_relative_difference(b.wall_wall(0, k), a.wall_wall(0, k)));
  // The two fixed fields agree to the gauge fixing's accuracy and the
  // solves' tolerance; the unfixed transformed field gives other numbers.
  EXPECT_LT(worst, 1e-10);
  EXPECT_GT(unfixed_change, 1e-2);
}

}  // namespace
}  // namespace latte::testing
