// Link smearing (solvers/qcd/flow/smearing.hpp): stout against Morningstar and
// Peardon's exp(iQ) U multiplied out site by site in long double; APE as
// the maximiser of Re tr(V M^+) for the weighted staple sum built the same
// way; smeared links in SU(3), gauge covariant, with a higher plaquette;
// spatial smearing blind to the time links and leaving them alone; stout
// with small rho as the Wilson flow to second order in rho; the per-lane path.

#include <algorithm>
#include <cmath>

#include "host_gauge_links.hpp"
#include "solvers/qcd/flow/gradient_flow.hpp"
#include "solvers/qcd/flow/smearing.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "su3_reference.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

class Smearing : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
  void SetUp() override {
    // Links exp(0.7 X) with gaussian X: rough, far from the unit field.
    ParallelRng rng(314);
    Lattice<ColourMatrix<double>> x(geometry);
    for (int mu = 0; mu < 4; ++mu) {
      rng.fill(x, [](SiteRandomStream& random) { return su3::gaussian_algebra_element(random); });
      U[mu] = su3_exp(0.7 * x);
    }
  }
  GaugeField<double> copy(const GaugeField<double>& from) const {
    GaugeField<double> to(geometry);
    for (int mu = 0; mu < 4; ++mu) to[mu] = from[mu];
    return to;
  }
  static MatrixL staple_sum(const HostGaugeLinks& host, const Coordinate& x, int mu, SmearingDirections directions) {
    return directions == SmearingDirections::spatial
               ? host.staples(x, mu, {(mu + 1) % 3, (mu + 2) % 3})
               : host.staples(x, mu, {(mu + 1) % 4, (mu + 2) % 4, (mu + 3) % 4});
  }
};

// Every link of V in SU(3) to 1e-14.
void expect_su3(const GaugeField<double>& V, const char* what) {
  const HostGaugeLinks host(V);
  long double worst_unitarity = 0, worst_det = 0;
  for (const MatrixL& u : host.links) {
    worst_unitarity = std::max(worst_unitarity, distance(times(u, dagger(u)), unit()));
    worst_det = std::max(worst_det, std::abs(det(u) - 1.0L));
  }
  EXPECT_LT(worst_unitarity, 1e-14L) << what;
  EXPECT_LT(worst_det, 1e-14L) << what;
}

TEST_F(Smearing, StoutIsMorningstarPeardonExpOfIQTimesTheLink) {
  const double rho = 0.13;
  for (const SmearingDirections directions : {SmearingDirections::all, SmearingDirections::spatial}) {
    const HostGaugeLinks host(U);
    GaugeField<double> V = copy(U);
    stout_smear(V, StoutParameters{rho, 1, directions});
    const HostGaugeLinks smeared(V);
    long double worst = 0;
    const int links = directions == SmearingDirections::spatial ? 3 : 4;
    for (std::int64_t i = 0; i < host.volume(); ++i) {
      const Coordinate x = coordinate_from_index(i, host.dims);
      for (int mu = 0; mu < links; ++mu) {
        // C = rho Sigma, Omega = C U^+, Q = i/2 (Omega^+ - Omega) - i/6 tr(Omega^+ - Omega).
        const MatrixL sigma = staple_sum(host, x, mu, directions);
        MatrixL c;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) c[a][b] = static_cast<long double>(rho) * sigma[a][b];
        const MatrixL omega = times(c, dagger(host.link(x, mu)));
        const MatrixL omega_dagger = dagger(omega);
        ComplexL trace_difference = 0;
        for (int a = 0; a < 3; ++a) trace_difference += omega_dagger[a][a] - omega[a][a];
        const ComplexL i(0, 1);
        MatrixL iq;  // i Q
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            iq[a][b] = i * (i / 2.0L * (omega_dagger[a][b] - omega[a][b]) - (a == b ? i / 6.0L * trace_difference : 0.0L));
        worst = std::max(worst, distance(smeared.link(x, mu), times(exp_by_series(iq), host.link(x, mu))));
      }
    }
    EXPECT_LT(worst, 1e-14L) << (directions == SmearingDirections::spatial ? "spatial" : "isotropic");
  }
}

TEST_F(Smearing, ApeProjectsTheWeightedStapleSumOntoSu3) {
  // V maximises f(V) = Re tr(V M^+) over SU(3), M = (1 - alpha) U + alpha/n Sigma:
  // stationary (the su(3) gradient Ta(V M^+) vanishes) and a maximum (any
  // finite move exp(X) V lowers f).
  const double alpha = 0.6;
  ParallelRng rng(8);
  Lattice<ColourMatrix<double>> moves(geometry);
  rng.fill(moves, [](SiteRandomStream& random) { return su3::gaussian_algebra_element(random); });
  for (const SmearingDirections directions : {SmearingDirections::all, SmearingDirections::spatial}) {
    const HostGaugeLinks host(U);
    GaugeField<double> V = copy(U);
    ape_smear(V, ApeParameters{alpha, 1, directions});
    expect_su3(V, "APE");
    const HostGaugeLinks smeared(V);
    const long double n = directions == SmearingDirections::spatial ? 4 : 6;
    long double worst_gradient = 0, worst_rise = -1;
    const int links = directions == SmearingDirections::spatial ? 3 : 4;
    for (std::int64_t i = 0; i < host.volume(); ++i) {
      const Coordinate x = coordinate_from_index(i, host.dims);
      const MatrixL move = to_long(peek(moves, x));
      for (int mu = 0; mu < links; ++mu) {
        const MatrixL sigma = staple_sum(host, x, mu, directions);
        MatrixL m;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            m[a][b] = (1 - static_cast<long double>(alpha)) * host.link(x, mu)[a][b] +
                      static_cast<long double>(alpha) / n * sigma[a][b];
        const MatrixL vm = times(smeared.link(x, mu), dagger(m));
        worst_gradient = std::max(worst_gradient, distance(traceless_antihermitian_part(vm), MatrixL{}));
        MatrixL small_move;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) small_move[a][b] = 0.1L * move[a][b];
        const long double rise = re_trace(times(exp_by_series(small_move), vm)) - re_trace(vm);
        worst_rise = std::max(worst_rise, rise);
      }
    }
    EXPECT_LT(worst_gradient, 1e-13L);
    EXPECT_LT(worst_rise, 0.0L);
  }
}

TEST_F(Smearing, SmearedLinksAreSu3AndRaiseThePlaquette) {
  const double before = average_plaquette(U);
  GaugeField<double> stout = copy(U), ape = copy(U);
  double stout_previous = before, ape_previous = before;
  for (int step = 0; step < 3; ++step) {
    stout_smear(stout, StoutParameters{0.1, 1});
    ape_smear(ape, ApeParameters{0.5, 1});
    EXPECT_GT(average_plaquette(stout), stout_previous) << "stout step " << step;
    EXPECT_GT(average_plaquette(ape), ape_previous) << "APE step " << step;
    stout_previous = average_plaquette(stout);
    ape_previous = average_plaquette(ape);
  }
  expect_su3(stout, "stout");
  expect_su3(ape, "APE");
  // Three steps at once are three steps one by one.
  GaugeField<double> at_once = copy(U);
  stout_smear(at_once, StoutParameters{0.1, 3});
  for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(fields_near(at_once[mu], stout[mu], 0.0)) << "mu = " << mu;
}

TEST_F(Smearing, SmearingIsGaugeCovariant) {
  Lattice<ColourMatrix<double>> g(geometry);
  ParallelRng rng(21);
  set_random_gauge_transformation(g, rng);
  for (const SmearingDirections directions : {SmearingDirections::all, SmearingDirections::spatial}) {
    GaugeField<double> stout = copy(U), ape = copy(U), stout_transformed = copy(U), ape_transformed = copy(U);
    stout_smear(stout, StoutParameters{0.15, 2, directions});
    ape_smear(ape, ApeParameters{0.5, 2, directions});
    gauge_transform(stout, g);
    gauge_transform(ape, g);
    gauge_transform(stout_transformed, g);
    gauge_transform(ape_transformed, g);
    stout_smear(stout_transformed, StoutParameters{0.15, 2, directions});
    ape_smear(ape_transformed, ApeParameters{0.5, 2, directions});
    for (int mu = 0; mu < 4; ++mu) {
      EXPECT_TRUE(fields_near(stout_transformed[mu], stout[mu], 1e-13)) << "stout, mu = " << mu;
      EXPECT_TRUE(fields_near(ape_transformed[mu], ape[mu], 1e-12)) << "APE, mu = " << mu;
    }
  }
}

TEST_F(Smearing, SpatialSmearingLeavesTimeLinksAndIgnoresThem) {
  GaugeField<double> stout = copy(U), ape = copy(U);
  stout_smear(stout, StoutParameters{0.2, 2, SmearingDirections::spatial});
  ape_smear(ape, ApeParameters{0.5, 2, SmearingDirections::spatial});
  EXPECT_TRUE(fields_near(stout[3], U[3], 0.0));
  EXPECT_TRUE(fields_near(ape[3], U[3], 0.0));
  for (int mu = 0; mu < 3; ++mu) EXPECT_FALSE(fields_near(stout[mu], U[mu], 1e-3)) << "mu = " << mu;
  // Other time links give the same smeared spatial links, bit for bit.
  GaugeField<double> other = copy(U);
  ParallelRng rng(99);
  other.set_random(rng);
  for (int mu = 0; mu < 3; ++mu) other[mu] = U[mu];
  GaugeField<double> stout_other = copy(other), ape_other = copy(other);
  stout_smear(stout_other, StoutParameters{0.2, 2, SmearingDirections::spatial});
  ape_smear(ape_other, ApeParameters{0.5, 2, SmearingDirections::spatial});
  for (int mu = 0; mu < 3; ++mu) {
    EXPECT_TRUE(fields_near(stout_other[mu], stout[mu], 0.0)) << "mu = " << mu;
    EXPECT_TRUE(fields_near(ape_other[mu], ape[mu], 0.0)) << "mu = " << mu;
  }
}

TEST_F(Smearing, StoutWithSmallRhoIsTheWilsonFlowToSecondOrder) {
  // One stout step is exp(rho Z) U with Z = -F (Wilson, beta = 6), the
  // Euler step of the flow, which departs from the flow to time rho by O(rho^2).
  GaugeField<double> force(geometry);
  gauge_force(GaugeAction::wilson(6.0), U, force);
  GradientFlow<double> flow(geometry);
  double previous = 0;
  for (const double rho : {0.04, 0.02, 0.01}) {
    GaugeField<double> stout = copy(U), euler = copy(U), flowed = copy(U);
    stout_smear(stout, StoutParameters{rho, 1});
    for (int mu = 0; mu < 4; ++mu) euler[mu] = su3_exp(-rho * force[mu]) * U[mu];
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(fields_near(stout[mu], euler[mu], 1e-14)) << "rho = " << rho;
    flow.flow(flowed, rho, rho / 8);
    double difference = 0;
    for_each_coordinate(geometry, [&](const Coordinate& x) {
      for (int mu = 0; mu < 4; ++mu)
        difference = std::max(difference, max_abs_difference(peek(stout[mu], x), peek(flowed[mu], x)));
    });
    if (previous > 0) {
      EXPECT_NEAR(previous / difference, 4.0, 0.4) << "rho = " << rho;
    }
    previous = difference;
  }
}

TEST_F(Smearing, PerLanePathSmearsAsTheVectorPath) {
  GaugeField<double> stout = copy(U), stout_lanes = copy(U), ape = copy(U), ape_lanes = copy(U);
  stout_smear(stout, StoutParameters{0.1, 2});
  stout_smear<backend::Simt>(stout_lanes, StoutParameters{0.1, 2});
  ape_smear(ape, ApeParameters{0.5, 1, SmearingDirections::spatial});
  ape_smear<backend::Simt>(ape_lanes, ApeParameters{0.5, 1, SmearingDirections::spatial});
  for (int mu = 0; mu < 4; ++mu) {
    EXPECT_TRUE(fields_near(stout_lanes[mu], stout[mu], 1e-14)) << "stout, mu = " << mu;
    EXPECT_TRUE(fields_near(ape_lanes[mu], ape[mu], 1e-13)) << "APE, mu = " << mu;
  }
}

}  // namespace
}  // namespace latte::testing
