// Two independent algorithms sample the same distribution exp(-S): the
// average plaquette of an HMC chain and of a heatbath chain (with
// overrelaxation) agree within their errors at beta = 5.6 on 4^4, each
// error from blocked data so that autocorrelations are counted.

#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/quenched_update.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

struct MeanAndError {
  double mean = 0, error = 0;
};
// Blocks of 5 (block means of a chain this short are nearly independent).
MeanAndError blocked(const std::vector<double>& x) {
  const std::size_t length = 5, blocks = x.size() / length;
  std::vector<double> means(blocks, 0.0);
  MeanAndError r;
  for (std::size_t b = 0; b < blocks; ++b) {
    for (std::size_t i = 0; i < length; ++i) means[b] += x[b * length + i] / length;
    r.mean += means[b] / blocks;
  }
  double square = 0;
  for (double m : means) square += (m - r.mean) * (m - r.mean);
  r.error = std::sqrt(square / (blocks * (blocks - 1.0)));
  return r;
}

TEST(HmcAndHeatbath, AgreeOnTheAveragePlaquette) {
  const double beta = 5.6;
  const Geometry geometry({4, 4, 4, 4});
  std::vector<double> hmc_plaquettes, heatbath_plaquettes;
  {
    GaugeField<double> U(geometry);
    ParallelRng rng(1);
    U.set_random(rng);
    GaugeMonomial<double> wilson(GaugeAction::wilson(beta));
    MolecularDynamics<double> md({{IntegratorScheme::omelyan, 5, {&wilson}}});
    HybridMonteCarlo<double> hmc(U, md, {&wilson}, {1.0, 31, true});
    for (int i = 0; i < 30; ++i) hmc.trajectory();
    for (int i = 0; i < 150; ++i) hmc_plaquettes.push_back(hmc.trajectory().plaquette);
  }
  {
    GaugeField<double> U(geometry);
    ParallelRng rng(2);
    U.set_random(rng);
    const QuenchedUpdate update{beta, 2, 32};
    for (std::uint64_t n = 0; n < 30; ++n) update.sweep(U, n);
    for (std::uint64_t n = 30; n < 180; ++n) {
      update.sweep(U, n);
      heatbath_plaquettes.push_back(average_plaquette(U));
    }
  }
  const MeanAndError a = blocked(hmc_plaquettes), b = blocked(heatbath_plaquettes);
  const double combined = std::sqrt(a.error * a.error + b.error * b.error);
  EXPECT_NEAR(a.mean, b.mean, 3 * combined) << "HMC " << a.mean << " +- " << a.error << ", heatbath " << b.mean
                                            << " +- " << b.error;
  EXPECT_LT(combined, 0.005);  // a comparison that can fail
  std::printf("HMC <P> = %.5f +- %.5f, heatbath <P> = %.5f +- %.5f\n", a.mean, a.error, b.mean, b.error);
}

}  // namespace
}  // namespace latte::testing
