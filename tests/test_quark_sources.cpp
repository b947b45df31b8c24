// Wall and gaussian sources, propagators from any source for Wilson and
// clover (solvers/qcd/measure/quark_sources.hpp), and wall sinks
// (wall_sink.hpp): the sources' shapes, the residuals of the solves, and on
// the free field the wall-source correlators against the zero-momentum
// quark written in momentum space (tests/test_hadron_contractions.cpp's
// references).

#include "hadron_references.hpp"
#include "solvers/qcd/measure/quark_sources.hpp"
#include "solvers/qcd/measure/wall_sink.hpp"

namespace latte::testing {
namespace {

using namespace hadrons;

TEST(QuarkSources, WallSourceFillsItsTimesliceInEveryColumn) {
  const Geometry geometry({4, 4, 4, 8});
  Lattice<PropagatorSite<double>> sources(geometry);
  wall_source(sources, 5);
  EXPECT_EQ(norm2(sources), 12.0 * 64);
  const PropagatorSite<double> on = peek(sources, {1, 3, 2, 5}), off = peek(sources, {1, 3, 2, 4});
  for (int k = 0; k < 12; ++k)
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(on(k)(s)(c).re, k == 3 * s + c ? 1.0 : 0.0);
        EXPECT_EQ(off(k)(s)(c).re, 0.0);
      }
  const std::string outside = error_of<std::invalid_argument>([&] { wall_source(sources, 8); });
  EXPECT_NE(outside.find("wall source on timeslice 8 outside the time extent 8"), std::string::npos) << outside;
}

TEST(QuarkSources, GaussianSourceIsNormalisedWithNearestImageDistances) {
  const Geometry geometry({6, 6, 4, 4});
  Lattice<PropagatorSite<double>> sources(geometry);
  const Coordinate centre{5, 0, 1, 2};
  const double r0 = 1.5;
  gaussian_source(sources, centre, r0);
  const auto weight = [&](const Coordinate& x) { return peek(sources, x)(4)(1)(1).re; };  // column 4: spin 1, colour 1
  double total = 0, elsewhere = 0;
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    if (x[3] == centre[3]) total += weight(x);
    else elsewhere += std::abs(weight(x));
  });
  EXPECT_NEAR(total, 1.0, 1e-14);
  EXPECT_EQ(elsewhere, 0.0);
  // (0, 0, 1) is one step from x = 5 across the boundary: r^2 = 1; (2, 3, 3) has r^2 = 9 + 9 + 4.
  EXPECT_NEAR(weight({0, 0, 1, 2}) / weight(centre), std::exp(-1 / (r0 * r0)), 1e-14);
  EXPECT_NEAR(weight({2, 3, 3, 2}) / weight(centre), std::exp(-22 / (r0 * r0)), 1e-14);
  EXPECT_EQ(peek(sources, centre)(4)(2)(1).re, 0.0);  // diagonal in spin and colour
  const std::string radius = error_of<std::invalid_argument>([&] { gaussian_source(sources, centre, 0.0); });
  EXPECT_NE(radius.find("radius r0 > 0"), std::string::npos) << radius;
}

TEST(QuarkSources, PropagatorsOfAnySourceWilsonAndClover) {
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<double> U(geometry);
  ParallelRng rng(9);
  U.set_random(rng);
  Lattice<PropagatorSite<double>> sources(geometry);
  gaussian_source(sources, {1, 1, 2, 3}, 1.0);
  const SolverControl control{1e-11, 10000};
  const WilsonDirac<double> M(U, 0.3);
  const auto wilson = solve_propagator(M, sources, control);
  EXPECT_LE(wilson.report.true_residual, 1e-11);
  Lattice<PropagatorSite<double>> residual(geometry);
  residual = sources - M.M(wilson.field);
  EXPECT_LE(norm2(residual), 1e-22 * 12 * norm2(sources));
  // Clover at c_sw = 0 is Wilson; at c_sw = 1 its own residual.
  const auto clover_zero = solve_propagator(CloverDirac<double>(U, 0.3, 0.0), sources, control);
  EXPECT_LE(norm2(clover_zero.field - wilson.field), 1e-18 * norm2(wilson.field));
  const CloverDirac<double> clover_M(U, 0.3, 1.0);
  const auto clover = solve_propagator(clover_M, sources, control);
  residual = sources - clover_M.M(clover.field);
  EXPECT_LE(norm2(residual), 1e-22 * 12 * norm2(sources));
  EXPECT_GT(norm2(clover.field - wilson.field), 1e-6 * norm2(wilson.field));
}

TEST(QuarkSources, WallSinkIsTheTimesliceSumOfThePropagator) {
  const Geometry geometry({4, 4, 4, 8});
  Lattice<PropagatorSite<double>> S(geometry);
  ParallelRng(12).gaussian(S);
  const std::vector<PropagatorSite<double>> summed = wall_sink(S);
  ASSERT_EQ(summed.size(), 8u);
  std::vector<PropagatorSite<double>> expected(8, zero_value<PropagatorSite<double>>());
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    const PropagatorSite<double> s = peek(S, x);
    for (int k = 0; k < 12; ++k)
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) expected[x[3]](k)(a)(c) += s(k)(a)(c);
  });
  for (int t = 0; t < 8; ++t) EXPECT_LT(max_abs_difference(summed[t], expected[t]), 1e-13) << "t = " << t;
  // The pion of the summed propagator is sum |S_wall|^2.
  const MesonCorrelators pion =
      wall_sink_meson_correlators(summed, summed, Coordinate{0, 0, 0, 0}, geometry.dims(), {{15, 15}});
  for (int t = 0; t < 8; ++t) {
    double norm = 0;
    for_each_leaf([&](double x) { norm += x * x; }, summed[t]);
    EXPECT_NEAR(pion(0, 0)[t].real(), norm, 1e-13 * norm);
  }
}

TEST(QuarkSources, FreeFieldWallSourceCorrelatorsAreTheZeroMomentumQuark) {
  // A wall source on timeslice 0 of the free field keeps only the quark's
  // zero spatial momentum: S(x) = sum_y S(x, y) = (L^3 / V) G(0, t), and the
  // wall sink sums it again: S_wall(t) = (L^6 / V) G(0, t), G as in FreeQuark.
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<double> U(geometry);
  U.set_unit();
  const FermionBoundary boundary = FermionBoundary::antiperiodic_in_time();
  const double mass = 0.25;
  Lattice<PropagatorSite<double>> sources(geometry);
  wall_source(sources, 0);
  const auto S = solve_propagator(WilsonDirac<double>(U, mass, boundary), sources, SolverControl{1e-13, 10000});
  const Coordinate source{0, 0, 0, 0};
  const std::vector<MesonChannel> channels = {{15, 15}, {8, 8}, {1, 1}, {0, 0}, {15, 7}};
  const MesonCorrelators point_sink = meson_correlators(S.field, source, {{0, 0, 0}}, channels);
  const std::vector<PropagatorSite<double>> wall = wall_sink(S.field);
  const MesonCorrelators wall_wall = wall_sink_meson_correlators(wall, wall, source, geometry.dims(), channels);
  const BaryonCorrelators baryon_wall_wall = wall_sink_baryon_correlators(wall, source, geometry.dims());

  const FreeQuark quark(geometry.dims(), mass, 1.0);
  const double L3 = 64, V = 512;
  const Eigen::Matrix4cd g5 = gamma_dense(4);
  for (std::size_t n = 0; n < channels.size(); ++n) {
    Correlator expected_point(8), expected_wall(8);
    for (int t = 0; t < 8; ++t) {
      const Eigen::Matrix4cd& G = quark.G[0][t];
      const cd trace = -3.0 * (Gamma_dense(channels[n].sink) * G * bar_dense(Gamma_dense(channels[n].source)) * g5 *
                               G.adjoint() * g5)
                                  .trace();
      expected_point[t] = L3 * (L3 / V) * (L3 / V) * trace;
      expected_wall[t] = (L3 * L3 / V) * (L3 * L3 / V) * trace;
    }
    EXPECT_LT(relative_difference(point_sink(0, n), expected_point), 1e-10) << channel_name(channels[n]);
    EXPECT_LT(relative_difference(wall_wall(0, n), expected_wall), 1e-10) << channel_name(channels[n]);
  }
  Correlator proton(8), delta_z(8);
  for (int t = 0; t < 8; ++t) {
    const Eigen::Matrix4cd G = (L3 * L3 / V) * quark.G[0][t];
    Matrix12 s = Matrix12::Zero();
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 3; ++c) s(3 * a + c, 3 * b + c) = G(a, b);
    proton[t] = baryon_reference(s, diquark_dense(0), false, 1);
    delta_z[t] = baryon_reference(s, diquark_dense(3), true, 1);
  }
  EXPECT_LT(relative_difference(baryon_wall_wall.proton[0], proton), 1e-10);
  EXPECT_LT(relative_difference(baryon_wall_wall.delta[0][2], delta_z), 1e-10);
}

}  // namespace
}  // namespace latte::testing
