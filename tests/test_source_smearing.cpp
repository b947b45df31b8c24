// Wuppertal smearing of sources (solvers/qcd/measure/source_smearing.hpp): on the
// free field a point source spreads as the lattice gaussian worked out
// here (first step exactly, the sum over the timeslice 1, the mean square
// radius n 6 kappa / (1 + 6 kappa)) and never leaves its timeslice; on a
// random field it is gauge covariant.

#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/measure/source_smearing.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

TEST(WuppertalSmearing, FreeFieldPointSourceBecomesTheLatticeGaussian) {
  const Geometry geometry({8, 8, 8, 4});
  GaugeField<double> U(geometry);
  U.set_unit();
  Lattice<ColourVector<double>> psi(geometry);
  psi = zero;
  ColourVector<double> unit_colour{};
  for (int c = 0; c < 3; ++c) unit_colour(c) = ComplexD(c == 1 ? 1.0 : 0.0, 0.0);
  const Coordinate source{3, 4, 5, 2};
  poke(psi, source, unit_colour);
  const double kappa = 0.3;
  wuppertal_smear(psi, U, {kappa, 1});
  // One step: 1/(1+6k) at the source, k/(1+6k) at its six spatial neighbours.
  const double norm = 1.0 / (1.0 + 6.0 * kappa);
  EXPECT_NEAR(peek(psi, source)(1).re, norm, 1e-15);
  for (int i = 0; i < 3; ++i)
    for (int step : {-1, 1}) {
      Coordinate y = source;
      y[i] += step;
      EXPECT_NEAR(peek(psi, y)(1).re, kappa * norm, 1e-15) << "neighbour " << i << step;
    }
  wuppertal_smear(psi, U, {kappa, 2});  // three steps in all
  double total = 0, radius2 = 0, other_timeslices = 0, other_colours = 0;
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    const ColourVector<double> v = peek(psi, x);
    other_colours += std::abs(v(0).re) + std::abs(v(2).re) + std::abs(v(1).im);
    if (x[3] != source[3]) {
      other_timeslices += std::abs(v(1).re);
      return;
    }
    total += v(1).re;
    double r2 = 0;
    for (int i = 0; i < 3; ++i) {
      const int d = ((x[i] - source[i]) % 8 + 8 + 4) % 8 - 4;  // the nearest image: 3 steps stay below 8/2
      r2 += d * d;
    }
    radius2 += r2 * v(1).re;
  });
  EXPECT_NEAR(total, 1.0, 1e-14);
  EXPECT_NEAR(radius2, 3 * 6 * kappa * norm, 1e-13);
  EXPECT_EQ(other_timeslices, 0.0);
  EXPECT_EQ(other_colours, 0.0);
}

TEST(WuppertalSmearing, IsGaugeCovariant) {
  const Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry);
  ParallelRng rng(3);
  U.set_random(rng);
  Lattice<Spinor<double>> psi(geometry), transformed(geometry);
  rng.gaussian(psi);
  Lattice<ColourMatrix<double>> g(geometry);
  set_random_gauge_transformation(g, rng);
  transformed = g * psi;
  const WuppertalSmearing smearing{0.25, 4};
  wuppertal_smear(psi, U, smearing);
  gauge_transform(U, g);
  wuppertal_smear(transformed, U, smearing);
  psi = g * psi;
  EXPECT_TRUE(fields_near(transformed, psi, 1e-13));
}

}  // namespace
}  // namespace latte::testing
