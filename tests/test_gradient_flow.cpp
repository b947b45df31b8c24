// The gradient flow and its observables (solvers/qcd/flow/gradient_flow.hpp,
// clover_field.hpp, flow_observables.hpp, flow_scales.hpp): the clover
// field, E and q against loops multiplied out site by site in long double;
// E and Q of a constant abelian flux known in closed form; gauge invariance;
// unitarity along the flow; the integrator's third order; the plaquette
// rising; Q odd under reflections; the per-lane path; t0 and w0 of a series
// known in closed form.

#include <algorithm>
#include <cmath>
#include <numbers>

#include "host_gauge_links.hpp"
#include "solvers/qcd/flow/flow_observables.hpp"
#include "solvers/qcd/flow/flow_scales.hpp"
#include "solvers/qcd/flow/gradient_flow.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "su3_reference.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// Links exp(s X) with gaussian X: rough, not random, all of one size.
template <class R, class W> void rough_field(GaugeField<R, W>& U, double s, std::uint64_t seed) {
  ParallelRng rng(seed);
  Lattice<ColourMatrix<R>, W> x(U.geometry());
  for (int mu = 0; mu < 4; ++mu) {
    rng.fill(x, [](SiteRandomStream& random) { return su3::gaussian_algebra_element(random); });
    U[mu] = su3_exp(s * x);
  }
}

// The largest |V - V'| of any link entry of two gauge fields.
template <class R, class W> double link_distance(const GaugeField<R, W>& a, const GaugeField<R, W>& b) {
  double worst = 0;
  for_each_coordinate(a.geometry(), [&](const Coordinate& x) {
    for (int mu = 0; mu < 4; ++mu) worst = std::max(worst, max_abs_difference(peek(a[mu], x), peek(b[mu], x)));
  });
  return worst;
}

class GradientFlowTest : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
  CloverField<double> F{geometry};
  void SetUp() override { rough_field(U, 0.5, 2026); }
};

TEST_F(GradientFlowTest, CloverEnergyAndChargeAreTheLeavesMultipliedOutSiteBySite) {
  const HostGaugeLinks host(U);
  // q(x) = 1/(32 pi^2) eps_{mu nu rho sigma} tr(F^h F^h), all 24 terms,
  // F^h = -i F and F_{nu mu} = -F_{mu nu}, eps from the parity of the permutation.
  long double e_plaq = 0, e_clover = 0, charge = 0;
  for (std::int64_t i = 0; i < host.volume(); ++i) {
    const Coordinate x = coordinate_from_index(i, host.dims);
    MatrixL f[4][4], h[4][4];
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = 0; nu < 4; ++nu) {
        f[mu][nu] = mu == nu ? MatrixL{} : host.clover(x, mu, nu);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) h[mu][nu][a][b] = ComplexL(0, -1) * f[mu][nu][a][b];
        if (mu < nu) {
          e_plaq += 2 * (3 - re_trace(host.path(x, {mu + 1, nu + 1, -(mu + 1), -(nu + 1)})));
          e_clover -= re_trace(times(f[mu][nu], f[mu][nu]));
        }
      }
    int perm[4] = {0, 1, 2, 3};
    do {
      int inversions = 0;
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) inversions += perm[a] > perm[b];
      const long double sign = inversions % 2 ? -1 : 1;
      charge += sign * re_trace(times(h[perm[0]][perm[1]], h[perm[2]][perm[3]])) /
                (32 * std::numbers::pi_v<long double> * std::numbers::pi_v<long double>);
    } while (std::next_permutation(perm, perm + 4));
  }
  const double volume = static_cast<double>(host.volume());
  F.compute(U);
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu)
      EXPECT_TRUE(field_matches(F(mu, nu), [&](const Coordinate& x) {
        const MatrixL f = host.clover(x, mu, nu);
        ColourMatrix<double> m;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) m(a, b) = ComplexD(static_cast<double>(f[a][b].real()), static_cast<double>(f[a][b].imag()));
        return m;
      }, 1e-14)) << "plane " << mu << nu;
  const FlowMeasurement m = measure_flow_observables(U, F);
  EXPECT_NEAR(m.e_plaq, static_cast<double>(e_plaq / volume), 1e-13);
  EXPECT_NEAR(m.e_clover, static_cast<double>(e_clover / volume), 1e-13);
  EXPECT_NEAR(m.charge, static_cast<double>(charge), 1e-13);
  EXPECT_GT(std::abs(m.charge), 1e-3);  // a rough field's charge is not zero by accident
  // The per-lane path (simt and cuda's code) gives the same numbers.
  CloverField<double> on_lanes(geometry);
  const FlowMeasurement lanes = measure_flow_observables<backend::Simt>(U, on_lanes);
  EXPECT_NEAR(lanes.e_plaq, m.e_plaq, 1e-13);
  EXPECT_NEAR(lanes.e_clover, m.e_clover, 1e-13);
  EXPECT_NEAR(lanes.charge, m.charge, 1e-13);
}

// A constant abelian field in the subgroup exp(i a H), H = diag(1, -1, 0),
// with n01 flux quanta through the (0,1) planes and n23 through the (2,3)
// planes (periodic up to the jump at the last site, 't Hooft's
// construction): every (0,1) plaquette is exp(i phi01 H), phi01 = 2 pi n01 / (L0 L1),
// likewise (2,3), the others are 1. Then E_plaq = 4 (1 - cos phi01) + 4 (1 - cos phi23),
// F_01 = i sin(phi01) H, E_clover = 2 sin^2 phi01 + 2 sin^2 phi23 and
// Q = V 2 sin(phi01) sin(phi23) / (4 pi^2) -> 2 n01 n23 in the continuum.
void constant_abelian_flux(GaugeField<double>& U, int n01, int n23) {
  const Coordinate L = U.geometry().dims();
  const double two_pi = 2 * std::numbers::pi;
  for (int mu = 0; mu < 4; ++mu)
    fill(U[mu], [&](const Coordinate& x) {
      double a = 0;
      if (mu == 0 && x[0] == L[0] - 1) a = -two_pi * n01 * x[1] / L[1];
      if (mu == 1) a = two_pi * n01 * x[0] / (L[0] * L[1]);
      if (mu == 2 && x[2] == L[2] - 1) a = -two_pi * n23 * x[3] / L[3];
      if (mu == 3) a = two_pi * n23 * x[2] / (L[2] * L[3]);
      ColourMatrix<double> u;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) u(i, j) = ComplexD(0, 0);
      u(0, 0) = ComplexD(std::cos(a), std::sin(a));
      u(1, 1) = ComplexD(std::cos(a), -std::sin(a));
      u(2, 2) = ComplexD(1, 0);
      return u;
    });
}

TEST_F(GradientFlowTest, ConstantAbelianFluxHasItsEnergyAndChargeInClosedForm) {
  for (const auto& [n01, n23] : {std::pair{1, 1}, std::pair{1, -1}, std::pair{2, 1}, std::pair{0, 1}}) {
    constant_abelian_flux(U, n01, n23);
    const double phi01 = 2 * std::numbers::pi * n01 / 16, phi23 = 2 * std::numbers::pi * n23 / 16;
    const FlowMeasurement m = measure_flow_observables(U, F);
    EXPECT_NEAR(m.e_plaq, 4 * (1 - std::cos(phi01)) + 4 * (1 - std::cos(phi23)), 1e-13);
    EXPECT_NEAR(m.e_clover, 2 * std::sin(phi01) * std::sin(phi01) + 2 * std::sin(phi23) * std::sin(phi23), 1e-13);
    const double charge = 256 * 2 * std::sin(phi01) * std::sin(phi23) / (4 * std::numbers::pi * std::numbers::pi);
    EXPECT_NEAR(m.charge, charge, 1e-12) << n01 << " " << n23;
    // On 4^4 the one-quantum charge is 1.899, its continuum value 2 n01 n23
    // up to the lattice's sin(phi) / phi.
    if (std::abs(n01 * n23) == 1) {
      EXPECT_NEAR(m.charge, 2 * n01 * n23, 0.11);
    }
  }
}

TEST_F(GradientFlowTest, UnitFieldHasNoEnergyNoChargeAndDoesNotFlow) {
  U.set_unit();
  const FlowMeasurement m = measure_flow_observables(U, F);
  EXPECT_EQ(m.e_plaq, 0.0);
  EXPECT_EQ(m.e_clover, 0.0);
  EXPECT_EQ(m.charge, 0.0);
  GradientFlow<double> flow(geometry);
  flow.step(U, 0.1);
  GaugeField<double> unit(geometry);
  unit.set_unit();
  EXPECT_EQ(link_distance(U, unit), 0.0);
}

TEST_F(GradientFlowTest, EnergyAndChargeAreGaugeInvariantAlongTheFlow) {
  GaugeField<double> V(geometry);
  for (int mu = 0; mu < 4; ++mu) V[mu] = U[mu];
  Lattice<ColourMatrix<double>> g(geometry);
  ParallelRng rng(5);
  set_random_gauge_transformation(g, rng);
  gauge_transform(V, g);
  GradientFlow<double> flow(geometry);
  CloverField<double> G(geometry);
  for (int step = 0; step <= 6; ++step) {
    if (step > 0) {
      flow.step(U, 0.05);
      flow.step(V, 0.05);
    }
    const FlowMeasurement a = measure_flow_observables(U, F), b = measure_flow_observables(V, G);
    EXPECT_NEAR(b.e_plaq, a.e_plaq, 1e-13 * a.e_plaq) << "step " << step;
    EXPECT_NEAR(b.e_clover, a.e_clover, 1e-13 * a.e_clover) << "step " << step;
    EXPECT_NEAR(b.charge, a.charge, 1e-13) << "step " << step;
  }
}

TEST_F(GradientFlowTest, LinksStayInSu3AlongTheFlow) {
  GradientFlow<double> flow(geometry);
  flow.flow(U, 1.0, 0.05);
  long double worst_unitarity = 0, worst_det = 0;
  const HostGaugeLinks host(U);
  for (const MatrixL& u : host.links) {
    worst_unitarity = std::max(worst_unitarity, distance(times(u, dagger(u)), unit()));
    worst_det = std::max(worst_det, std::abs(det(u) - 1.0L));
  }
  // Rounding accumulates over the 20 steps (1e-14 seen): well above it, a
  // long way below the 1e-4 of a truncated exponential.
  EXPECT_LT(worst_unitarity, 1e-13L);
  EXPECT_LT(worst_det, 1e-13L);
}

TEST_F(GradientFlowTest, IntegratorErrorFallsAsTheCubeOfTheStep) {
  // Luescher's scheme is of third order: over a fixed flow time the error
  // of the links falls by 8 for each halving of eps (measured: 8.6, 8.3,
  // approaching 8 from above). The reference is the flow with a step 8
  // times smaller than the finest tested (its error 512 times smaller).
  const double time = 0.2;
  GradientFlow<double> flow(geometry);
  GaugeField<double> reference(geometry), V(geometry);
  for (int mu = 0; mu < 4; ++mu) reference[mu] = U[mu];
  EXPECT_EQ(flow.flow(reference, time, 0.005 / 8), 320);
  double previous = 0;
  for (const double eps : {0.02, 0.01, 0.005}) {
    for (int mu = 0; mu < 4; ++mu) V[mu] = U[mu];
    flow.flow(V, time, eps);
    const double error = link_distance(V, reference);
    if (previous > 0) {
      EXPECT_NEAR(previous / error, 8.0, 1.0) << "eps = " << eps;
    }
    previous = error;
  }
}

TEST_F(GradientFlowTest, FlowRunsDownTheActionStepByStep) {
  // The Wilson flow lowers the Wilson action (raises the plaquette) and
  // the Symanzik flow the Symanzik action, at every step.
  for (const GaugeAction action : {GaugeAction::wilson(6.0), GaugeAction::symanzik(6.0)}) {
    GaugeField<double> V(geometry);
    for (int mu = 0; mu < 4; ++mu) V[mu] = U[mu];
    GradientFlow<double> flow(geometry, action);
    double previous_action = gauge_action_value(action, V), previous_plaquette = average_plaquette(V);
    for (int step = 0; step < 8; ++step) {
      flow.step(V, 0.05);
      const double s = gauge_action_value(action, V), plaquette = average_plaquette(V);
      EXPECT_LT(s, previous_action) << "c1 = " << action.c1 << ", step " << step;
      EXPECT_GT(plaquette, previous_plaquette) << "c1 = " << action.c1 << ", step " << step;
      previous_action = s;
      previous_plaquette = plaquette;
    }
  }
}

TEST_F(GradientFlowTest, PerLanePathFlowsAsTheVectorPath) {
  GaugeField<double> V(geometry);
  for (int mu = 0; mu < 4; ++mu) V[mu] = U[mu];
  GradientFlow<double> flow(geometry);
  for (int step = 0; step < 3; ++step) {
    flow.step(U, 0.05);
    flow.step<backend::Simt>(V, 0.05);
  }
  EXPECT_LT(link_distance(U, V), 1e-14);
}

// A smooth field: a non-abelian plane wave of the lowest momentum p = 2 pi / L
// in the (0, 1) plane of an L x L x 4 x 4 lattice, its potential a A_mu of
// size p (fixed in physical units as a = 1/L falls); the relative
// difference of the clover and plaquette energies.
double clover_plaquette_energy_difference(int L) {
  Geometry geometry({L, L, 4, 4});
  GaugeField<double> U(geometry);
  U.set_unit();
  const double p = 2 * std::numbers::pi / L, s = p;
  const auto algebra = [](double c1, double c2, double c3) {  // i (c1 T1 + c2 T2 + c3 T3)
    ColourMatrix<double> x;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) x(i, j) = ComplexD(0, 0);
    x(0, 0) = ComplexD(0, 0.5 * c3);
    x(1, 1) = ComplexD(0, -0.5 * c3);
    x(0, 1) = ComplexD(0.5 * c2, 0.5 * c1);
    x(1, 0) = ComplexD(-0.5 * c2, 0.5 * c1);
    return x;
  };
  Lattice<ColourMatrix<double>> x(geometry);
  fill(x, [&](const Coordinate& c) { return algebra(s * std::cos(p * c[1] + 0.3), 0, s * std::sin(p * c[1])); });
  U[0] = su3_exp(x);
  fill(x, [&](const Coordinate& c) { return algebra(0, s * std::sin(p * c[0]), 0); });
  U[1] = su3_exp(x);
  CloverField<double> F(geometry);
  const FlowMeasurement m = measure_flow_observables(U, F);
  EXPECT_GT(m.e_plaq, 0.0);
  return std::abs(m.e_clover - m.e_plaq) / m.e_plaq;
}

TEST(GradientFlowObservables, CloverAndPlaquetteEnergiesAgreeToLeadingOrderOnASmoothField) {
  // They differ at O(a^2): by a quarter from L = 16 to L = 32 (measured
  // 0.162 and 0.044, ratio 3.7 approaching 4; from 8 to 16 it is 3.0).
  const double coarse = clover_plaquette_energy_difference(16), fine = clover_plaquette_energy_difference(32);
  EXPECT_LT(fine, 0.05);
  EXPECT_NEAR(coarse / fine, 4.0, 0.6) << coarse << " " << fine;
}

// U reflected in direction d: x_d -> -x_d. Links along d reverse:
// U'_d(x) = U_d(Px - d)^+, the others move: U'_mu(x) = U_mu(Px).
void reflect(const GaugeField<double>& U, GaugeField<double>& reflected, int d) {
  const HostGaugeLinks host(U);
  const Coordinate L = U.geometry().dims();
  for (int mu = 0; mu < 4; ++mu)
    fill(reflected[mu], [&](const Coordinate& x) {
      Coordinate px = x;
      px[d] = (L[d] - x[d]) % L[d];
      const MatrixL u = mu == d ? dagger(host.link(host.step(px, d, -1), d)) : host.link(px, mu);
      ColourMatrix<double> m;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) m(a, b) = ComplexD(static_cast<double>(u[a][b].real()), static_cast<double>(u[a][b].imag()));
      return m;
    });
}

TEST_F(GradientFlowTest, ChargeIsOddAndEnergyEvenUnderReflections) {
  GradientFlow<double> flow(geometry);
  flow.flow(U, 0.2, 0.05);
  const FlowMeasurement m = measure_flow_observables(U, F);
  ASSERT_GT(std::abs(m.charge), 1e-3);
  GaugeField<double> reflected(geometry);
  for (int d : {0, 3}) {  // parity in x, time reversal
    reflect(U, reflected, d);
    const FlowMeasurement r = measure_flow_observables(reflected, F);
    EXPECT_NEAR(r.charge, -m.charge, 1e-13) << "direction " << d;
    EXPECT_NEAR(r.e_clover, m.e_clover, 1e-13) << "direction " << d;
    EXPECT_NEAR(r.e_plaq, m.e_plaq, 1e-13) << "direction " << d;
  }
}

TEST(GradientFlowScales, T0AndW0OfASeriesKnownInClosedForm) {
  // t^2 E(t) = c t^2 / (1 + t), W(t) = c t^2 (t + 2) / (1 + t)^2, both rising.
  const double c = 0.4;
  const auto t2e = [&](double t) { return c * t * t / (1 + t); };
  const auto w = [&](double t) { return c * t * t * (t + 2) / ((1 + t) * (1 + t)); };
  const auto solve = [](auto f) {  // f(t) = 0.3 by bisection on [0, 10]
    long double low = 0, high = 10;
    for (int i = 0; i < 200; ++i) ((f(0.5 * (low + high)) < 0.3) ? low : high) = 0.5 * (low + high);
    return static_cast<double>(low);
  };
  std::vector<double> t, e;
  for (int i = 0; i <= 60; ++i) {
    t.push_back(0.05 * i);
    e.push_back(i == 0 ? c : t2e(t.back()) / (t.back() * t.back()));
  }
  const std::vector<double> w_measured = flow_w(t, times_t_squared(t, e));
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_NEAR(w_measured[i], w(t[i]), 2e-3) << "t = " << t[i];
  const FlowScales scales = flow_scales(t, e);
  ASSERT_TRUE(scales.t0 && scales.w0);
  EXPECT_NEAR(*scales.t0, solve(t2e), 1e-5);
  EXPECT_NEAR(*scales.w0, std::sqrt(solve(w)), 1e-4);
  // A series that stops short of 0.3 has no scale.
  t.resize(10);
  e.resize(10);
  EXPECT_FALSE(flow_scales(t, e).t0.has_value());
  EXPECT_FALSE(flow_scales(t, e).w0.has_value());
}

}  // namespace
}  // namespace latte::testing
