// Meson and baryon contractions (solvers/qcd/measure/meson_contractions.hpp,
// baryon_contractions.hpp) and momentum projection (momentum_projection.hpp)
// against independent references (tests/hadron_references.hpp): the free
// Wilson quark in momentum space, the six Wick terms summed index by index
// with explicit epsilon tensors; and gauge invariance, direct sums of
// phases, equivalent momenta, rotation across the time boundary.

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "hadron_references.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/measure/baryon_contractions.hpp"
#include "solvers/qcd/measure/hadron_correlators.hpp"
#include "solvers/qcd/measure/meson_contractions.hpp"
#include "solvers/qcd/measure/propagator.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace hadrons;

Lattice<PropagatorSite<double>> random_propagator(const Geometry& geometry, std::uint64_t seed) {
  Lattice<PropagatorSite<double>> S(geometry);
  ParallelRng(seed).gaussian(S);
  return S;
}

// ---- mesons ----

TEST(HadronContractions, FreeFieldMesonsEqualTheMomentumSum) {
  // Non-degenerate quarks (the quark and antiquark roles matter), antiperiodic
  // in time, the source away from the origin (phases relative to it, the
  // correlator rotated to it), diagonal and off-diagonal channels; (a0, rho_x)
  // is odd under p -> -p, so it catches a phase of the wrong sign.
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<double> U(geometry);
  U.set_unit();
  const FermionBoundary boundary = FermionBoundary::antiperiodic_in_time();
  const double m1 = 0.2, m2 = 0.5;  // the tests' quarks: light enough to propagate across 4^3 x 8
  const Coordinate source{1, 2, 3, 5};
  const SolverControl control{1e-13, 10000};
  const auto S1 = point_propagator(WilsonDirac<double>(U, m1, boundary), source, control);
  const auto S2 = point_propagator(WilsonDirac<double>(U, m2, boundary), source, control);
  std::vector<MesonChannel> channels = diagonal_meson_channels();
  channels.push_back({gamma_index::a0, gamma_index::rho_x});
  channels.push_back({gamma_index::pion, gamma_index::pion_2});
  channels.push_back({gamma_index::rho_2_y, gamma_index::rho_y});
  const std::vector<Momentum> momenta = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 1}, {1, 2, 3}};
  const MesonCorrelators C = rotated_to_source(meson_correlators(S1.field, S2.field, source, momenta, channels));
  ASSERT_EQ(C.values.size(), momenta.size());
  ASSERT_EQ(C.values[0].size(), channels.size());  // two passes: 16 + 3 channels

  const FreeQuark quark(geometry.dims(), m1, 1.0), antiquark(geometry.dims(), m2, 1.0);
  for (std::size_t m = 0; m < momenta.size(); ++m) {
    // Some channels vanish by symmetry (a0-rho_x at p = 0): errors relative to the pion's size.
    const double scale = largest_abs(free_meson(quark, antiquark, {gamma_index::pion, gamma_index::pion}, momenta[m]));
    for (std::size_t n = 0; n < channels.size(); ++n) {
      const Correlator expected = free_meson(quark, antiquark, channels[n], momenta[m]);
      double worst = 0;
      for (int t = 0; t < 8; ++t) worst = std::max(worst, std::abs(C(m, n)[t] - expected[t]));
      EXPECT_LT(worst, 1e-10 * scale) << channel_name(channels[n]) << " at p = " << to_string(momenta[m]);
    }
  }
  // The a0-rho_x mixing is odd in p_x; diagonal channels are positive at
  // t >= 1 (the transfer matrix) and real.
  EXPECT_GT(std::abs(C(1, 16)[2]), 1e-5);  // 1.5e-4: far above the 1e-10 tolerance
  EXPECT_NEAR(std::abs(C(1, 16)[2] + C(2, 16)[2]), 0.0, 1e-10);
  for (int n = 0; n < dirac_matrix_count; ++n)
    for (int t = 1; t < 8; ++t) {
      EXPECT_GT(C(0, n)[t].real(), 0.0) << meson_table[n].name << " t = " << t;
      EXPECT_LT(std::abs(C(0, n)[t].imag()), 1e-12 * C(0, n)[t].real());
    }
}

TEST(HadronContractions, PionChannelIsPionCorrelatorAndZeroMomentumIsThePlainSliceSum) {
  const Geometry geometry({4, 4, 4, 8});
  const auto S = random_propagator(geometry, 21);
  const Coordinate source{0, 1, 2, 3};
  const MesonCorrelators C = meson_correlators(S, source, {{0, 0, 0}, {0, 0, 1}});
  // sum |S|^2 by another route (localNorm2): equal to rounding, not bit for bit.
  const std::vector<double> pion = pion_correlator(S);
  for (int t = 0; t < 8; ++t) {
    EXPECT_NEAR(C(0, gamma_index::pion)[t].real(), pion[t], 1e-14 * pion[t]) << "t = " << t;
    EXPECT_LE(std::abs(C(0, gamma_index::pion)[t].imag()), 1e-14 * pion[t]);
  }
  // p = 0: the timeslice sums of the site densities themselves, bit for bit.
  Lattice<RealVector<double, 32>> density(geometry);
  density = map(functors::MesonContraction(), S, S);
  const std::vector<std::vector<double>> sums = slice_sums(density, 3);
  for (int n = 0; n < dirac_matrix_count; ++n)
    for (int t = 0; t < 8; ++t) {
      EXPECT_EQ(C(0, n)[t].real(), sums[2 * n][t]);
      EXPECT_EQ(C(0, n)[t].imag(), sums[2 * n + 1][t]);
    }
  // Absolute time: the source timeslice is C's entry 3; rotated, it is entry 0.
  const MesonCorrelators rotated = rotated_to_source(C);
  EXPECT_EQ(rotated(1, 4)[0], C(1, 4)[3]);
  EXPECT_EQ(rotated(1, 4)[6], C(1, 4)[1]);  // no sign for mesons across the boundary
}

TEST(HadronContractions, MomentumProjectionIsTheSumOfPhasesRelativeToTheSource) {
  // Two complex densities on a lattice with unequal spatial extents.
  const Geometry geometry({4, 6, 2, 8});
  Lattice<RealVector<double, 4>> density(geometry);
  ParallelRng(5).gaussian(density);
  const Coordinate source{3, 1, 1, 2};
  const std::vector<Momentum> momenta = {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}, {2, 5, 1}, {-1, 1, 1}};
  const auto projected = project_momenta(density, momenta, source);
  const Coordinate& dims = geometry.dims();
  for (std::size_t m = 0; m < momenta.size(); ++m) {
    std::vector<Correlator> expected(2, Correlator(8));
    for_each_coordinate(geometry, [&](const Coordinate& x) {
      double phase = 0;
      for (int i = 0; i < 3; ++i) phase -= 2 * std::numbers::pi * momenta[m][i] * (x[i] - source[i]) / dims[i];
      const RealVector<double, 4> v = peek(density, x);
      for (int k = 0; k < 2; ++k) expected[k][x[3]] += std::polar(1.0, phase) * cd(v(2 * k), v(2 * k + 1));
    });
    for (int k = 0; k < 2; ++k)
      EXPECT_LT(relative_difference(projected[m][k], expected[k]), 1e-14) << "p = " << to_string(momenta[m]);
  }
}

TEST(HadronContractions, EquivalentMomentaAndTheirSum) {
  const Coordinate cubic{4, 4, 4, 8};
  EXPECT_EQ(equivalent_momenta({1, 0, 0}, cubic).size(), 6u);
  EXPECT_EQ(equivalent_momenta({1, 1, 0}, cubic).size(), 12u);
  EXPECT_EQ(equivalent_momenta({1, 1, 1}, cubic).size(), 8u);
  EXPECT_EQ(equivalent_momenta({1, 2, 0}, cubic).size(), 24u);
  EXPECT_EQ(equivalent_momenta({0, 0, 0}, cubic).size(), 1u);
  // (2, 2, 1) and (3, 0, 0) share |n|^2 = 9 but no symmetry.
  const auto nine = equivalent_momenta({2, 2, 1}, cubic);
  EXPECT_EQ(std::count(nine.begin(), nine.end(), Momentum{3, 0, 0}), 0);
  // Unequal extents: x and y may be exchanged, z not.
  const Coordinate box{4, 4, 6, 8};
  const auto along_x = equivalent_momenta({1, 0, 0}, box);
  EXPECT_EQ(along_x.size(), 4u);
  EXPECT_EQ(std::count(along_x.begin(), along_x.end(), Momentum{0, 0, 1}), 0);
  const auto classes = equivalent_momentum_classes({{1, 0, 0}, {0, 0, 1}, {0, -1, 0}, {0, 0, 0}}, box);
  ASSERT_EQ(classes.size(), 3u);
  EXPECT_EQ(classes[0], (std::vector<std::size_t>{0, 2}));

  // The sum over the six images of (1, 0, 0) weighs c(x) with
  // 2 (cos k d_x + cos k d_y + cos k d_z), d = x - y, k = 2 pi / 4.
  const Geometry geometry(cubic);
  const auto S = random_propagator(geometry, 8);
  const Coordinate source{1, 0, 3, 2};
  const std::vector<Momentum> six = equivalent_momenta({1, 0, 0}, cubic);
  const MesonCorrelators C = meson_correlators(S, source, six, {{gamma_index::rho_x, gamma_index::rho_x}});
  Lattice<RealVector<double, 32>> density(geometry);
  density = map(functors::MesonContraction(), S, S);
  Correlator expected(8);
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    double weight = 0;
    for (int i = 0; i < 3; ++i) weight += 2 * std::cos(std::numbers::pi / 2 * (x[i] - source[i]));
    const RealVector<double, 32> v = peek(density, x);
    expected[x[3]] += weight * cd(v(2 * gamma_index::rho_x), v(2 * gamma_index::rho_x + 1));
  });
  Correlator total(8);
  for (std::size_t m = 0; m < six.size(); ++m)
    for (int t = 0; t < 8; ++t) total[t] += C(m, 0)[t];
  EXPECT_LT(relative_difference(total, expected), 1e-13);
  const MesonCorrelators averaged = average_equivalent_momenta(C);
  ASSERT_EQ(averaged.momenta.size(), 1u);
  for (int t = 0; t < 8; ++t) EXPECT_NEAR(std::abs(averaged(0, 0)[t] - total[t] / 6.0), 0.0, 1e-14 * largest_abs(total));
}

// ---- baryons ----

TEST(HadronContractions, BaryonsEqualTheWickTermsSummedIndexByIndex) {
  // Any propagator field will do: the contractions are algebra at each site.
  const Geometry geometry({4, 4, 4, 8});
  const auto S = random_propagator(geometry, 13);
  const Coordinate source{2, 3, 0, 6};
  const std::vector<Momentum> momenta = {{0, 0, 0}, {1, 0, 2}};
  const BaryonCorrelators positive = baryon_correlators(S, source, momenta);
  const BaryonCorrelators negative = baryon_correlators(S, source, {{0, 0, 0}}, -1);

  std::vector<Correlator> expected(momenta.size() * 4, Correlator(8)), expected_negative(4, Correlator(8));
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    const Matrix12 s = to_matrix(peek(S, x));
    for (int g = 0; g < 4; ++g) {
      const cd value = baryon_reference(s, diquark_dense(g), g > 0, 1);
      for (std::size_t m = 0; m < momenta.size(); ++m) {
        double phase = 0;
        for (int i = 0; i < 3; ++i) phase -= 2 * std::numbers::pi * momenta[m][i] * (x[i] - source[i]) / 4.0;
        expected[m * 4 + g][x[3]] += std::polar(1.0, phase) * value;
      }
      expected_negative[g][x[3]] += baryon_reference(s, diquark_dense(g), g > 0, -1);
    }
  });
  for (std::size_t m = 0; m < momenta.size(); ++m) {
    EXPECT_LT(relative_difference(positive.proton[m], expected[m * 4]), 1e-13) << "proton, p = " << to_string(momenta[m]);
    for (int k = 0; k < 3; ++k)
      EXPECT_LT(relative_difference(positive.delta[m][k], expected[m * 4 + 1 + k]), 1e-13)
          << "Delta " << k << ", p = " << to_string(momenta[m]);
  }
  EXPECT_LT(relative_difference(negative.proton[0], expected_negative[0]), 1e-13);
  for (int k = 0; k < 3; ++k) EXPECT_LT(relative_difference(negative.delta[0][k], expected_negative[1 + k]), 1e-13);
  const Correlator mean = positive.delta_average(1);
  for (int t = 0; t < 8; ++t)
    EXPECT_NEAR(std::abs(mean[t] - (expected[5][t] + expected[6][t] + expected[7][t]) / 3.0), 0.0,
                1e-13 * largest_abs(expected[5]));
}

TEST(HadronContractions, BaryonsRotatedAcrossTheAntiperiodicBoundaryChangeSign) {
  // Free quarks, antiperiodic in time: the proton from a source at t0 = 5,
  // rotated, is the proton from the origin; entries reached across the
  // boundary need the sign -1 (three quark lines), and are positive.
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<double> U(geometry);
  U.set_unit();
  const FermionBoundary boundary = FermionBoundary::antiperiodic_in_time();
  const WilsonDirac<double> M(U, 0.3, boundary);
  const SolverControl control{1e-12, 10000};
  const Coordinate origin{0, 0, 0, 0}, later{1, 2, 3, 5};
  const BaryonCorrelators from_origin =
      rotated_to_source(baryon_correlators(point_propagator(M, origin, control).field, origin), boundary);
  const BaryonCorrelators absolute = baryon_correlators(point_propagator(M, later, control).field, later);
  const BaryonCorrelators rotated = rotated_to_source(absolute, boundary);
  EXPECT_LT(relative_difference(rotated.proton[0], from_origin.proton[0]), 1e-9);
  EXPECT_LT(relative_difference(rotated.delta[0][2], from_origin.delta[0][2]), 1e-9);
  for (int t = 0; t < 8; ++t) {
    EXPECT_GT(rotated.proton[0][t].real(), 0.0) << "t = " << t;
    EXPECT_GT(rotated.delta_average(0)[t].real(), 0.0) << "t = " << t;
  }
  // Without the sign the wrapped entries (t = 3 .. 7 from t0 = 5) are wrong.
  const Correlator unsigned_rotation = rotate_to_source(absolute.proton[0], 5, 1.0);
  EXPECT_LT(unsigned_rotation[4].real(), 0.0);
  EXPECT_EQ(baryon_wrap_sign(boundary), -1.0);
  EXPECT_EQ(baryon_wrap_sign(FermionBoundary::periodic()), 1.0);
}

// ---- both, under a gauge transformation ----

TEST(HadronContractions, PointCorrelatorsAreGaugeInvariant) {
  // S(x) -> g(x) S(x) g^+(y): every colour-singlet contraction is unchanged.
  // The two solves (tolerance 1e-14) see unitarily equivalent systems and
  // take different CG steps; they agree to round-off.
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<double> U(geometry), transformed(geometry);
  ParallelRng rng(17);
  U.set_random(rng);
  Lattice<ColourMatrix<double>> g(geometry);
  set_random_gauge_transformation(g, rng);
  for (int mu = 0; mu < 4; ++mu) transformed[mu] = g * U[mu] * adj(shift(g, mu, +1));
  const FermionBoundary boundary = FermionBoundary::antiperiodic_in_time();
  const SolverControl control{1e-14, 10000};
  const Coordinate source{2, 1, 0, 3};
  const auto S = point_propagator(WilsonDirac<double>(U, 0.2, boundary), source, control);
  const auto S_transformed = point_propagator(WilsonDirac<double>(transformed, 0.2, boundary), source, control);
  ASSERT_GT(norm2(S.field - S_transformed.field), 1e-2 * norm2(S.field));  // the propagators did change

  std::vector<MesonChannel> channels = diagonal_meson_channels();
  channels.push_back({gamma_index::pion, gamma_index::pion_2});
  const std::vector<Momentum> momenta = {{0, 0, 0}, {1, 0, 0}};
  const MesonCorrelators before = meson_correlators(S.field, source, momenta, channels);
  const MesonCorrelators after = meson_correlators(S_transformed.field, source, momenta, channels);
  for (std::size_t m = 0; m < momenta.size(); ++m)
    for (std::size_t n = 0; n < channels.size(); ++n)
      EXPECT_LT(relative_difference(after(m, n), before(m, n)), 1e-12)
          << channel_name(channels[n]) << " at p = " << to_string(momenta[m]);
  const BaryonCorrelators baryons_before = baryon_correlators(S.field, source, momenta);
  const BaryonCorrelators baryons_after = baryon_correlators(S_transformed.field, source, momenta);
  for (std::size_t m = 0; m < momenta.size(); ++m) {
    EXPECT_LT(relative_difference(baryons_after.proton[m], baryons_before.proton[m]), 1e-12);
    for (int k = 0; k < 3; ++k)
      EXPECT_LT(relative_difference(baryons_after.delta[m][k], baryons_before.delta[m][k]), 1e-12) << "k = " << k;
  }
}

// ---- errors ----

TEST(HadronContractions, BadInputIsNamed) {
  const Geometry geometry({4, 4, 4, 8});
  const Lattice<PropagatorSite<double>> S(geometry);
  const Coordinate origin{0, 0, 0, 0}, later{0, 0, 0, 1};
  const std::string channel =
      error_of<std::invalid_argument>([&] { meson_correlators(S, origin, {{0, 0, 0}}, {{3, 16}}); });
  EXPECT_NE(channel.find("meson channel (source 3, sink 16) names no Dirac matrix"), std::string::npos) << channel;
  const std::string parity = error_of<std::invalid_argument>([&] { baryon_correlators(S, origin, {{0, 0, 0}}, 2); });
  EXPECT_NE(parity.find("parity is +1 or -1, not 2"), std::string::npos) << parity;
  const std::string twist =
      error_of<std::invalid_argument>([&] { baryon_wrap_sign(FermionBoundary::twisted(0, 0, 0, 0.5)); });
  EXPECT_NE(twist.find("twisted time boundary"), std::string::npos) << twist;
  const MesonCorrelators C = rotated_to_source(meson_correlators(S, later));
  const std::string twice = error_of<std::invalid_argument>([&] { rotated_to_source(C); });
  EXPECT_NE(twice.find("rotated to their source twice"), std::string::npos) << twice;
  const std::string outside = error_of<std::invalid_argument>([&] { rotate_to_source(Correlator(8), 8); });
  EXPECT_NE(outside.find("source timeslice 8 outside a correlator of 8 timeslices"), std::string::npos) << outside;
}

}  // namespace
}  // namespace latte::testing
