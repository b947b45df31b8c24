// Gauge actions (solvers/qcd/gauge/gauge_action.hpp): the plaquette and rectangle
// sums against loops multiplied out site by site in long double, the action
// density summing to the action, gauge invariance, and the force against
// the numerical derivative of the action, converging linearly in the step.

#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "su3_reference.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// Every link of a gauge field as long-double matrices, by global site and direction.
struct HostLinks {
  Coordinate dims;
  std::vector<MatrixL> links;
  template <class R, class W> explicit HostLinks(const GaugeField<R, W>& U) : dims(U.geometry().dims()) {
    links.resize(static_cast<std::size_t>(product(dims)) * 4);
    for_each_coordinate(U.geometry(), [&](const Coordinate& x) {
      for (int mu = 0; mu < 4; ++mu) links[index(x) * 4 + mu] = to_long(peek(U[mu], x));
    });
  }
  std::size_t index(const Coordinate& x) const {
    std::size_t i = 0;
    for (int d = 3; d >= 0; --d) i = i * dims[d] + x[d];
    return i;
  }
  Coordinate step(Coordinate x, int mu, int n) const {
    x[mu] = ((x[mu] + n) % dims[mu] + dims[mu]) % dims[mu];
    return x;
  }
  // The product of links along a path of steps +-(mu + 1) from x.
  MatrixL path(Coordinate x, std::initializer_list<int> steps) const {
    MatrixL p = unit();
    for (int s : steps) {
      const int mu = std::abs(s) - 1;
      if (s > 0) {
        p = times(p, links[index(x) * 4 + mu]);
        x = step(x, mu, +1);
      } else {
        x = step(x, mu, -1);
        p = times(p, dagger(links[index(x) * 4 + mu]));
      }
    }
    return p;
  }
  long double plaquettes() const {
    long double total = 0;
    for (std::int64_t i = 0; i < product(dims); ++i) {
      const Coordinate x = coordinate_from_index(i, dims);
      for (int mu = 0; mu < 4; ++mu)
        for (int nu = mu + 1; nu < 4; ++nu)
          total += re_trace(path(x, {mu + 1, nu + 1, -(mu + 1), -(nu + 1)}));
    }
    return total;
  }
  long double rectangles() const {
    long double total = 0;
    for (std::int64_t i = 0; i < product(dims); ++i) {
      const Coordinate x = coordinate_from_index(i, dims);
      for (int mu = 0; mu < 4; ++mu)
        for (int nu = 0; nu < 4; ++nu)
          if (nu != mu)
            total += re_trace(path(x, {mu + 1, mu + 1, nu + 1, -(mu + 1), -(mu + 1), -(nu + 1)}));
    }
    return total;
  }
};

class GaugeActions : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
  void SetUp() override {
    // A rough but not random field: links exp(0.6 X) with gaussian X,
    // where the action's terms are all of one size.
    ParallelRng rng(2024);
    GaugeField<double> x(geometry);
    for (int mu = 0; mu < 4; ++mu) {
      rng.fill(x[mu], [](SiteRandomStream& random) { return su3::gaussian_algebra_element(random); });
      U[mu] = su3_exp(0.6 * x[mu]);
    }
  }
};

TEST_F(GaugeActions, ActionsAreSumsOfPlaquettesAndRectanglesMultipliedOutSiteBySite) {
  const HostLinks host(U);
  const long double plaquettes = host.plaquettes(), rectangles = host.rectangles();
  const double volume = 256.0;
  EXPECT_NEAR(plaquette_trace_sum(U), static_cast<double>(plaquettes), 1e-11 * volume);
  EXPECT_NEAR(rectangle_trace_sum(U), static_cast<double>(rectangles), 1e-11 * volume);
  EXPECT_NEAR(average_plaquette(U), static_cast<double>(plaquettes / (18.0L * volume)), 1e-14);
  for (const GaugeAction action : {GaugeAction::wilson(5.7), GaugeAction::symanzik(4.2), GaugeAction::iwasaki(2.6),
                                   GaugeAction::dbw2(1.0)}) {
    const long double expected = action.beta * ((1.0L - 8.0L * action.c1) * (6.0L * volume - plaquettes / 3.0L) +
                                                 action.c1 * (12.0L * volume - rectangles / 3.0L));
    EXPECT_NEAR(gauge_action_value(action, U), static_cast<double>(expected), 1e-11 * volume) << "c1 = " << action.c1;
    Lattice<double> density(geometry);
    gauge_action_density(action, U, density);
    EXPECT_NEAR(sum(density), static_cast<double>(expected), 1e-11 * volume) << "c1 = " << action.c1;
  }
  // The free field has no action.
  GaugeField<double> unit_field(geometry);
  unit_field.set_unit();
  EXPECT_EQ(gauge_action_value(GaugeAction::iwasaki(2.6), unit_field), 0.0);
}

TEST_F(GaugeActions, ActionAndForceAreGaugeCovariant) {
  const GaugeAction action = GaugeAction::symanzik(4.0);
  GaugeField<double> force(geometry), force_after(geometry);
  gauge_force(action, U, force);
  const double before = gauge_action_value(action, U);
  Lattice<ColourMatrix<double>> g(geometry);
  ParallelRng rng(9);
  set_random_gauge_transformation(g, rng);
  gauge_transform(U, g);
  EXPECT_NEAR(gauge_action_value(action, U), before, 1e-12 * std::abs(before));
  // F_mu(x) -> g(x) F_mu(x) g^+(x): the force is an adjoint field at x.
  gauge_force(action, U, force_after);
  for (int mu = 0; mu < 4; ++mu) force[mu] = g * force[mu] * adj(g);
  for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(fields_near(force[mu], force_after[mu], 1e-12)) << "mu = " << mu;
}

TEST_F(GaugeActions, ForceIsTheDerivativeOfTheActionConvergingLinearly) {
  GaugeField<double> x(geometry), force(geometry), moved(geometry);
  ParallelRng rng(77);
  for (int mu = 0; mu < 4; ++mu)
    rng.fill(x[mu], [](SiteRandomStream& random) { return su3::gaussian_algebra_element(random); });
  for (const GaugeAction action : {GaugeAction::wilson(6.0), GaugeAction::iwasaki(2.5)}) {
    gauge_force(action, U, force);
    // <X, F> = -2 sum tr(X F): the derivative along X the force predicts.
    double predicted = 0;
    for (int mu = 0; mu < 4; ++mu) predicted += -2.0 * sum(real(trace(x[mu] * force[mu])));
    const double s0 = gauge_action_value(action, U);
    double previous_error = 0;
    for (const double eps : {0.02, 0.01, 0.005, 0.0025}) {
      for (int mu = 0; mu < 4; ++mu) moved[mu] = su3_exp(eps * x[mu]) * U[mu];
      const double forward = gauge_action_value(action, moved);
      const double error = std::abs((forward - s0) / eps - predicted);
      if (previous_error > 0) {
        // Halving the step halves the error: the derivative is right and
        // the remainder is the second-order term.
        EXPECT_NEAR(previous_error / error, 2.0, 0.15) << "c1 = " << action.c1 << ", eps = " << eps;
      }
      previous_error = error;
      if (eps == 0.0025) {
        // The central difference leaves only the third-order term.
        for (int mu = 0; mu < 4; ++mu) moved[mu] = su3_exp(-eps * x[mu]) * U[mu];
        const double central = (forward - gauge_action_value(action, moved)) / (2 * eps);
        EXPECT_NEAR(central, predicted, 1e-4 * std::abs(predicted)) << "c1 = " << action.c1;
      }
    }
  }
}

}  // namespace
}  // namespace latte::testing
