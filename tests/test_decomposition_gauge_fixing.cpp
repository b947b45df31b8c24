// Gauge fixing on a lattice spread over ranks (solvers/qcd/gauge_fixing/):
// Landau sweeps and a Coulomb fixing whose timeslices stop at different
// sweeps give the very bits of one rank in every link and in the
// accumulated transformation, in double and single precision, and the
// same report (sweeps per timeslice, F and theta). The site step uses
// + - * / sqrt and explicit FMAs only and theta is a reproducible sum, so
// neither the process grid nor the lanes matter.

#include <algorithm>
#include <cstdint>

#include "solvers/qcd/gauge_fixing/gauge_fixing.hpp"

namespace latte::testing {
namespace {

// Links exp(0.3 X), X gaussian, made site by site on the host from the
// global site's random stream: the same bits on every decomposition.
template <class R>
void smooth_links(GaugeField<R>& U, std::uint64_t seed) {
  ParallelRng rng(seed);
  for (int mu = 0; mu < 4; ++mu)
    rng.fill(U[mu], [](SiteRandomStream& random) {
      const ColourMatrix<double> x = su3::gaussian_algebra_element(random);
      return transform_leaves<ColourMatrix<R>>(
          [](double v) { return static_cast<R>(v); },
          su3::exp_antihermitian(transform_leaves<ColourMatrix<double>>([](double v) { return 0.3 * v; }, x)));
    });
}

template <class R>
struct FixedField {
  GaugeField<R> U;
  GaugeTransformation<R> G;
  GaugeFixingReport report;
  FixedField(const Geometry& g, GaugeCondition condition, const GaugeFixingControl& control, int sweeps)
      : U(g), G(g) {
    smooth_links(U, 91);
    GaugeFixing<R> fixing(g, condition, control);
    if (sweeps > 0) {
      for (int n = 0; n < sweeps; ++n) fixing.sweep(U);
      report.quality = fixing.measure(U);
    } else {
      report = fixing.fix(U);
    }
    G = fixing.transformation();
  }
};

template <class R>
void expect_fixing_matches(GaugeCondition condition, const GaugeFixingControl& control, int sweeps) {
  const FixedField<R> one(replicated(lattice4), condition, control, sweeps);
  if (condition == GaugeCondition::coulomb && sweeps == 0) {
    const auto& s = one.report.slice_sweeps;
    EXPECT_NE(*std::min_element(s.begin(), s.end()), *std::max_element(s.begin(), s.end()))
        << "every timeslice stopped at the same sweep: the masks are not tested";
  }
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    const FixedField<R> many(g, condition, control, sweeps);
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(many.U[mu], one.U[mu])) << "mu = " << mu;
    EXPECT_TRUE(same_as_one_rank(many.G.matrices(), one.G.matrices()));
    EXPECT_TRUE(same_result(many.report.quality.functional, one.report.quality.functional));
    EXPECT_TRUE(same_result(many.report.quality.theta, one.report.quality.theta));
    EXPECT_EQ(many.report.sweeps, one.report.sweeps);
    EXPECT_EQ(many.report.slice_sweeps, one.report.slice_sweeps);
    for (std::size_t t = 0; t < one.report.quality.slice_theta.size(); ++t)
      EXPECT_TRUE(same_result(many.report.quality.slice_theta[t], one.report.quality.slice_theta[t])) << "t = " << t;
  });
}

GaugeFixingControl loose(double tolerance) {
  GaugeFixingControl c;
  c.tolerance = tolerance;
  c.check_every = 1;
  c.max_sweeps = 400;
  return c;
}

TEST(DecompositionGaugeFixing, LandauSweepsDouble) { expect_fixing_matches<double>(GaugeCondition::landau, loose(1e-12), 8); }
TEST(DecompositionGaugeFixing, LandauSweepsSingle) { expect_fixing_matches<float>(GaugeCondition::landau, loose(1e-12), 8); }
// Timeslices stop at different sweeps: the masks and their bits too.
TEST(DecompositionGaugeFixing, CoulombFixingDouble) { expect_fixing_matches<double>(GaugeCondition::coulomb, loose(1e-9), 0); }
TEST(DecompositionGaugeFixing, CoulombFixingSingle) { expect_fixing_matches<float>(GaugeCondition::coulomb, loose(1e-9), 0); }

}  // namespace
}  // namespace latte::testing
