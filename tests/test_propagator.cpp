// Point-source quark propagators (solvers/qcd/measure/propagator.hpp), the pion
// correlator (solvers/qcd/measure/hadron_correlators.hpp) and effective masses
// (solvers/qcd/measure/effective_mass.hpp) against physics: the free field's
// momentum sum, gauge invariance, translation invariance, and the residual
// of every column.

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include "eigen_conversions.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/measure/effective_mass.hpp"
#include "solvers/qcd/measure/hadron_correlators.hpp"
#include "solvers/qcd/measure/propagator.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

constexpr double quark_mass = 0.2;

Eigen::Matrix4cd gamma_of(int mu) {
  return to_eigen(mu == 0 ? gamma_matrix<0>() : mu == 1 ? gamma_matrix<1>() : mu == 2 ? gamma_matrix<2>()
                                                                                      : gamma_matrix<3>());
}

// The free pion correlator from the momentum-space propagator, independent
// of the solver. On a periodic lattice of V = L^3 T sites the free Wilson
// operator is diagonal in momentum, M e^{ipx} u = e^{ipx} M(p) u with
//   M(p) = m + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu,
// p_mu = 2 pi n_mu / L_mu, so the propagator from the origin is
//   S(x) = (1/V) sum_p e^{ipx} M(p)^{-1}   (times the colour identity).
// Writing G(p_s, t) = sum_{p_t} e^{i p_t t} M(p_s, p_t)^{-1},
//   S(x_s, t) = (1/V) sum_{p_s} e^{i p_s x_s} G(p_s, t),
// and summing over x_s (sum_{x_s} e^{i (p_s - q_s) x_s} = L^3 delta_{p_s q_s}):
//   sum_{x_s} tr[S S^+] = (L^3 / V^2) sum_{p_s} tr[G G^+] = 1/(V T) sum_{p_s} tr[G G^+].
// The colour trace gives a factor 3.
std::vector<double> free_pion_correlator(const Coordinate& dims, double mass) {
  const int T = dims[3];
  const double volume = static_cast<double>(dims[0]) * dims[1] * dims[2] * T;
  std::vector<double> C(T, 0.0);
  const auto momentum = [&](int n, int mu) { return 2 * std::numbers::pi * n / dims[mu]; };
  for (int n0 = 0; n0 < dims[0]; ++n0)
    for (int n1 = 0; n1 < dims[1]; ++n1)
      for (int n2 = 0; n2 < dims[2]; ++n2) {
        std::vector<Eigen::Matrix4cd> G(T, Eigen::Matrix4cd::Zero());
        for (int n3 = 0; n3 < T; ++n3) {
          const double p[4] = {momentum(n0, 0), momentum(n1, 1), momentum(n2, 2), momentum(n3, 3)};
          Eigen::Matrix4cd Mp = Eigen::Matrix4cd::Identity() * mass;
          for (int mu = 0; mu < 4; ++mu) {
            Mp += Eigen::Matrix4cd::Identity() * (1 - std::cos(p[mu]));
            Mp += std::complex<double>(0, std::sin(p[mu])) * gamma_of(mu);
          }
          const Eigen::Matrix4cd inverse = Mp.inverse();
          for (int t = 0; t < T; ++t) G[t] += std::polar(1.0, p[3] * t) * inverse;
        }
        for (int t = 0; t < T; ++t) C[t] += (G[t] * G[t].adjoint()).trace().real();
      }
  for (double& c : C) c *= 3.0 / (volume * T);
  return C;
}

// Largest |a(t) - b(t)| / |b(t)|.
double largest_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (std::size_t t = 0; t < a.size() && t < b.size(); ++t) worst = std::max(worst, std::abs(a[t] - b[t]) / std::abs(b[t]));
  return worst;
}

// C(t - shift), periodic: the correlator of a source `shift` timeslices later.
std::vector<double> shifted_in_time(const std::vector<double>& C, int shift) {
  const int T = static_cast<int>(C.size());
  std::vector<double> out(C.size());
  for (int t = 0; t < T; ++t) out[t] = C[((t - shift) % T + T) % T];
  return out;
}

class Propagator : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  void SetUp() override { U.set_unit(); }
};

TEST_F(Propagator, PointSourceColumnsAreUnitVectors) {
  Lattice<PropagatorSite<double>> sources(geometry);
  const Coordinate site{1, 2, 3, 5};
  point_source(sources, site);
  EXPECT_EQ(norm2(sources), 12.0);  // one unit entry per column, nothing elsewhere
  const PropagatorSite<double> at_source = peek(sources, site);
  for (int k = 0; k < propagator_columns; ++k)
    for (int s = 0; s < spins; ++s)
      for (int c = 0; c < colours; ++c) {
        const ComplexD entry = at_source(k)(s)(c);
        EXPECT_EQ(entry.re, k == colours * s + c ? 1.0 : 0.0) << "column " << k << ", spin " << s << ", colour " << c;
        EXPECT_EQ(entry.im, 0.0);
      }
}

TEST_F(Propagator, EveryColumnSolvesItsSource) {
  ParallelRng rng(5);
  U.set_random(rng);
  const WilsonDirac<double> M(U, quark_mass);
  const Coordinate source{1, 2, 3, 5};
  const double tolerance = 1e-10;
  const auto [S, report] = point_propagator(M, source, SolverControl{tolerance, 10000});
  EXPECT_LE(report.true_residual, tolerance);
  EXPECT_GT(report.iterations, 0);

  Lattice<PropagatorSite<double>> sources(geometry);
  point_source(sources, source);
  Lattice<Spinor<double>> x(geometry), b(geometry);
  const auto check_column = [&]<int K>(std::integral_constant<int, K>) {
    x = element<K>(S);
    b = element<K>(sources);
    EXPECT_LE(relative_residual(M, x, b), tolerance) << "column " << K;
  };
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (check_column(std::integral_constant<int, K>{}), ...);
  }(std::make_integer_sequence<int, propagator_columns>{});
}

TEST_F(Propagator, SourceSiteOutsideTheLatticeIsNamed) {
  Lattice<PropagatorSite<double>> sources(geometry);
  const std::string outside = error_of<CoordinateOutOfRange>([&] { point_source(sources, {0, 0, 0, 8}); });
  EXPECT_NE(outside.find("point source at site [0 0 0 8] outside the lattice extents [4 4 4 8]"), std::string::npos)
      << outside;
  const std::string negative = error_of<CoordinateOutOfRange>([&] { point_source(sources, {-1, 0, 0, 0}); });
  EXPECT_NE(negative.find("[-1 0 0 0]"), std::string::npos) << negative;
  const std::string short_site = error_of<CoordinateOutOfRange>([&] { point_source(sources, {0, 0, 0}); });
  EXPECT_NE(short_site.find("point source at site [0 0 0] has 3 coordinates, but the lattice of extents [4 4 4 8] has 4"),
            std::string::npos)
      << short_site;
  // point_propagator checks before it solves.
  const WilsonDirac<double> M(U, quark_mass);
  const std::string from_solve =
      error_of<CoordinateOutOfRange>([&] { point_propagator(M, {4, 0, 0, 0}, SolverControl{1e-10, 10000}); });
  EXPECT_NE(from_solve.find("[4 0 0 0]"), std::string::npos) << from_solve;
}

TEST_F(Propagator, PionCorrelatorOfTheFreeFieldEqualsTheMomentumSum) {
  const WilsonDirac<double> M(U, quark_mass);
  const auto [S, report] = point_propagator(M, {0, 0, 0, 0}, SolverControl{1e-13, 10000});
  const std::vector<double> C = pion_correlator(S);
  const std::vector<double> expected = free_pion_correlator(geometry.dims(), quark_mass);
  EXPECT_LT(largest_relative_difference(C, expected), 1e-10);
  // Periodic in time and symmetric about the source: C(t) = C(T - t).
  for (int t = 1; t < 8; ++t) EXPECT_NEAR(C[t], C[8 - t], 1e-10 * C[t]) << "t = " << t;
}

TEST_F(Propagator, PionCorrelatorMovesWithTheSource) {
  // Translation invariance of the free field: a source at (1, 2, 3, 5)
  // gives the origin's correlator five timeslices later.
  const WilsonDirac<double> M(U, quark_mass);
  const SolverControl control{1e-13, 10000};
  const std::vector<double> at_origin = pion_correlator(point_propagator(M, {0, 0, 0, 0}, control).field);
  const std::vector<double> moved = pion_correlator(point_propagator(M, {1, 2, 3, 5}, control).field);
  EXPECT_LT(largest_relative_difference(moved, shifted_in_time(at_origin, 5)), 1e-10);
  // and along another time direction: x plays time, extent 4
  const std::vector<double> along_x = pion_correlator(point_propagator(M, {1, 2, 3, 5}, control).field, 0);
  EXPECT_EQ(along_x.size(), 4u);
  EXPECT_EQ(std::max_element(along_x.begin(), along_x.end()) - along_x.begin(), 1);
}

TEST_F(Propagator, PionCorrelatorIsGaugeInvariant) {
  // S(x) -> g(x) S(x) g^+(y) under U_mu(x) -> g(x) U_mu(x) g^+(x + mu), so
  // tr[S S^+] does not change. The two solves see unitarily equivalent
  // systems with colour-rotated sources, so CG takes different steps: the
  // correlators differ by the solvers' errors, |delta S| <= |M^{-1}| |r|,
  // not by round-off alone. Measured on this lattice: 6e-14 relative at
  // tolerance 1e-13 (1.6e-10 at 1e-10, 2e-15 at 1e-14, where round-off is
  // reached); the bound 1e-11 leaves room for other SIMD widths and backends.
  ParallelRng rng(11);
  U.set_random(rng);
  GaugeField<double> transformed(geometry);
  for (int mu = 0; mu < 4; ++mu) transformed[mu] = U[mu];
  Lattice<ColourMatrix<double>> g(geometry);
  set_random_gauge_transformation(g, rng);
  gauge_transform(transformed, g);
  ASSERT_GT(norm2(transformed[3] - U[3]), 1.0);  // the links did change

  const SolverControl control{1e-13, 10000};
  const Coordinate source{2, 1, 0, 3};
  const std::vector<double> before = pion_correlator(point_propagator(WilsonDirac<double>(U, quark_mass), source, control).field);
  const std::vector<double> after =
      pion_correlator(point_propagator(WilsonDirac<double>(transformed, quark_mass), source, control).field);
  EXPECT_LT(largest_relative_difference(after, before), 1e-11);
}

TEST_F(Propagator, CorrelatorDirectionOutsideTheLatticeIsNamed) {
  const Lattice<PropagatorSite<double>> S(geometry);
  const std::string message = error_of<std::invalid_argument>([&] { pion_correlator(S, 4); });
  EXPECT_NE(message.find("slice direction 4 outside a 4-dimensional lattice"), std::string::npos) << message;
}

TEST(CorrelatorEffectiveMass, CoshMassOfASingleStateIsExactEverywhere) {
  // C(t) = cosh(m (T/2 - t)): the cosh mass is m at every t, both halves;
  // the log mass is below it and changes sign at T/2.
  for (const int T : {8, 16, 9}) {
    const double m = 0.37;
    std::vector<double> C(T);
    for (int t = 0; t < T; ++t) C[t] = 2.5 * std::cosh(m * (0.5 * T - t));
    const std::vector<double> cosh_mass = effective_mass(C);
    const std::vector<double> log_mass = log_effective_mass(C);
    ASSERT_EQ(cosh_mass.size(), static_cast<std::size_t>(T - 1));
    for (int t = 0; t < T - 1; ++t) {
      if (2 * t + 1 == T) {  // the middle of an odd period: C(t) = C(t + 1), no mass
        EXPECT_TRUE(std::isnan(cosh_mass[t]));
        continue;
      }
      EXPECT_NEAR(cosh_mass[t], m, 1e-12) << "T = " << T << ", t = " << t;
      if (2 * t + 1 < T) EXPECT_LE(log_mass[t], cosh_mass[t] + 1e-15);
      else EXPECT_LT(log_mass[t], 0);
    }
  }
}

TEST(CorrelatorEffectiveMass, LogMassOfAnExponentialAndNoMassWhereNoneFits) {
  std::vector<double> C(6);
  for (int t = 0; t < 6; ++t) C[t] = 3 * std::exp(-0.8 * t);
  for (const double m : log_effective_mass(C)) EXPECT_NEAR(m, 0.8, 1e-14);
  // A correlator that rises in the forward half, or is not positive, has no cosh mass.
  const std::vector<double> bad = effective_mass({1.0, 2.0, 0.0, -1.0});
  EXPECT_TRUE(std::isnan(bad[0]));
  EXPECT_TRUE(std::isnan(bad[1]));
  EXPECT_TRUE(std::isnan(bad[2]));
  EXPECT_TRUE(effective_mass({1.0}).empty());
}

}  // namespace
}  // namespace latte::testing
