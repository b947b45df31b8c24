// The jackknife and the one-state correlator fits (solvers/statistics/)
// against what they must give: the standard error of a mean exactly, bins
// as averages of consecutive configurations, exact parameters from data
// that are the model, pulls of unit width from noisy data, and chi^2 with
// the inverse covariance computed independently (Eigen).

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "solvers/qcd/measure/effective_mass.hpp"
#include "solvers/statistics/correlator_fit.hpp"
#include "solvers/statistics/jackknife.hpp"

namespace latte::testing {
namespace {

using statistics::CorrelatorModel;
using statistics::Jackknife;

std::vector<std::vector<double>> gaussian_samples(int configurations, int observables, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> samples(configurations, std::vector<double>(observables));
  for (auto& row : samples)
    for (int i = 0; i < observables; ++i) row[i] = 1.0 + i + 0.3 * normal(engine);
  return samples;
}

TEST(Jackknife, ErrorOfAMeanIsTheStandardError) {
  const auto samples = gaussian_samples(37, 3, 5);
  const statistics::Estimate e = Jackknife(samples).estimate();
  for (int i = 0; i < 3; ++i) {
    double mean = 0, square = 0;
    for (const auto& row : samples) mean += row[i];
    mean /= samples.size();
    for (const auto& row : samples) square += (row[i] - mean) * (row[i] - mean);
    const double standard_error = std::sqrt(square / (samples.size() - 1) / samples.size());
    EXPECT_NEAR(e.value[i], mean, 1e-14 * std::abs(mean));
    EXPECT_NEAR(e.error[i], standard_error, 1e-12 * standard_error) << "observable " << i;
  }
}

TEST(Jackknife, BinsAreAveragesOfConsecutiveConfigurations) {
  const auto samples = gaussian_samples(21, 2, 9);  // 7 bins of 3; nothing left over
  std::vector<std::vector<double>> averages;
  for (int b = 0; b < 7; ++b) {
    std::vector<double> average(2, 0.0);
    for (int c = 3 * b; c < 3 * b + 3; ++c)
      for (int i = 0; i < 2; ++i) average[i] += samples[c][i] / 3;
    averages.push_back(average);
  }
  const Jackknife binned(samples, 3), of_averages(averages);
  EXPECT_EQ(binned.bins(), 7u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(binned.estimate().error[i], of_averages.estimate().error[i], 1e-13);
    EXPECT_NEAR(binned.mean()[i], of_averages.mean()[i], 1e-14);
  }
  // Configurations beyond the last whole bin are left out, and said so.
  auto more = samples;
  more.push_back({100.0, 100.0});
  EXPECT_EQ(Jackknife(more, 3).configurations_used(), 21u);
  EXPECT_NEAR(Jackknife(more, 3).mean()[0], binned.mean()[0], 1e-14);
}

TEST(Jackknife, ErrorOfAFunctionFollowsItsDerivativeAndCovarianceItsDiagonal) {
  // f = x^2 of a mean with a small error: sigma_f = 2 |x| sigma_x to first order.
  const auto samples = gaussian_samples(400, 2, 11);
  const Jackknife jk(samples);
  const statistics::Estimate x = jk.estimate();
  const statistics::Estimate f = jk.estimate([](const std::vector<double>& v) { return std::vector<double>{v[1] * v[1]}; });
  EXPECT_NEAR(f.error[0], 2 * std::abs(x.value[1]) * x.error[1], 0.02 * f.error[0]);
  const auto cov = jk.covariance();
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(cov[i][i], x.error[i] * x.error[i], 1e-12 * cov[i][i]);
  EXPECT_LT(std::abs(cov[0][1]), 0.2 * std::sqrt(cov[0][0] * cov[1][1]));  // independent draws
}

TEST(Jackknife, RefusesTooFewBinsAndRaggedRows) {
  EXPECT_THROW(Jackknife(gaussian_samples(3, 2, 1), 2), std::invalid_argument);
  auto ragged = gaussian_samples(4, 2, 1);
  ragged[2].push_back(0);
  try {
    Jackknife{ragged};
    ADD_FAILURE() << "a ragged sample was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("configuration 2 has 3 observables"), std::string::npos) << e.what();
  }
}

// C_c(t) on configuration c from the model with amplitude A (1 + a_c) and
// mass m (1 + d_c).
std::vector<std::vector<double>> model_samples(CorrelatorModel model, int T, double A, double m, int configurations,
                                               double amplitude_noise, double mass_noise, double point_noise,
                                               unsigned seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> samples(configurations, std::vector<double>(T));
  for (auto& row : samples) {
    const double a = A * (1 + amplitude_noise * normal(engine)), mc = m * (1 + mass_noise * normal(engine));
    for (int t = 0; t < T; ++t) {
      double value = std::exp(-mc * t);
      if (model == CorrelatorModel::cosh) value += std::exp(-mc * (T - t));
      if (model == CorrelatorModel::sinh) value -= std::exp(-mc * (T - t));
      row[t] = a * value * (1 + point_noise * normal(engine));
    }
  }
  return samples;
}

TEST(CorrelatorFit, DataThatAreTheModelGiveItsMassExactly) {
  // Only the amplitude fluctuates: every replica is the model with mass m.
  for (const CorrelatorModel model : {CorrelatorModel::exp, CorrelatorModel::cosh, CorrelatorModel::sinh}) {
    const Jackknife jk(model_samples(model, 16, 2.5, 0.43, 20, 0.05, 0, 0, 3));
    const statistics::CorrelatorFit fit = statistics::fit_correlator(jk, model, {3, 7}, false);
    EXPECT_NEAR(fit.mass, 0.43, 1e-9) << statistics::model_name(model);
    EXPECT_NEAR(fit.amplitude, jk.mean()[0] / (model == CorrelatorModel::exp ? 1 : model == CorrelatorModel::cosh
                                                                                     ? 1 + std::exp(-0.43 * 16)
                                                                                     : 1 - std::exp(-0.43 * 16)),
                1e-9 * fit.amplitude);
    EXPECT_LT(fit.mass_error, 1e-8);
    EXPECT_LT(fit.chi2_per_dof, 1e-12);
    EXPECT_EQ(fit.dof, 3);
  }
  // A cosh fitted as an exponential near T/2 is not the model: chi^2 shows it.
  const Jackknife jk(model_samples(CorrelatorModel::cosh, 16, 2.5, 0.43, 20, 0.05, 0, 1e-3, 3));
  EXPECT_GT(statistics::fit_correlator(jk, CorrelatorModel::exp, {5, 11}, false).chi2_per_dof,
            100 * statistics::fit_correlator(jk, CorrelatorModel::cosh, {5, 11}, false).chi2_per_dof);
}

TEST(CorrelatorFit, PullsOfIndependentEnsemblesHaveUnitWidth) {
  // 40 ensembles of 60 configurations with 2 % noise per point and 1 %
  // on the mass: (m_fit - m) / sigma_m over the ensembles has mean square
  // near 1 (for 40 pulls, 1 +- 0.22; the bounds are 2.5 of that) — for an
  // error too small by a factor 1.5 it would be 2.25.
  for (const bool correlated : {false, true}) {
    double mean_square = 0;
    for (int ensemble = 0; ensemble < 40; ++ensemble) {
      const Jackknife jk(model_samples(CorrelatorModel::cosh, 16, 1.0, 0.5, 60, 0.02, 0.01, 0.02, 100 + ensemble));
      const statistics::CorrelatorFit fit = statistics::fit_correlator(jk, CorrelatorModel::cosh, {2, 8}, correlated);
      const double pull = (fit.mass - 0.5) / fit.mass_error;
      mean_square += pull * pull / 40;
    }
    EXPECT_GT(mean_square, 0.45) << (correlated ? "correlated" : "uncorrelated");
    EXPECT_LT(mean_square, 1.55) << (correlated ? "correlated" : "uncorrelated");
  }
}

TEST(CorrelatorFit, ReplicaMassesGiveTheErrorOfADifferenceWithItsCorrelation) {
  // The mass fluctuates from configuration to configuration (10 %), the
  // points hardly (0.1 %): two windows of the same data see the same
  // fluctuation, so their difference has a far smaller error than the two
  // errors added in quadrature.
  const Jackknife jk(model_samples(CorrelatorModel::cosh, 16, 1.0, 0.5, 40, 0.02, 0.1, 1e-3, 7));
  const statistics::CorrelatorFit early = statistics::fit_correlator(jk, CorrelatorModel::cosh, {2, 5}, false);
  const statistics::CorrelatorFit late = statistics::fit_correlator(jk, CorrelatorModel::cosh, {5, 8}, false);
  ASSERT_EQ(early.replica_masses.size(), jk.bins());
  ASSERT_EQ(late.replica_masses.size(), jk.bins());
  std::vector<std::vector<double>> masses, differences;
  for (std::size_t k = 0; k < jk.bins(); ++k) {
    masses.push_back({early.replica_masses[k]});
    differences.push_back({late.replica_masses[k] - early.replica_masses[k]});
  }
  EXPECT_DOUBLE_EQ(Jackknife::spread(masses)[0], early.mass_error);
  EXPECT_LT(Jackknife::spread(differences)[0], 0.2 * std::hypot(early.mass_error, late.mass_error));
}

TEST(CorrelatorFit, CorrelatedChiSquareUsesTheInverseCovariance) {
  const Jackknife jk(model_samples(CorrelatorModel::cosh, 12, 1.0, 0.6, 50, 0.03, 0.02, 0.01, 77));
  const statistics::FitWindow window{2, 6};
  const statistics::CorrelatorFit fit = statistics::fit_correlator(jk, CorrelatorModel::cosh, window, true);
  const auto cov = jk.covariance();
  const int n = window.t_max - window.t_min + 1;
  Eigen::MatrixXd c(n, n);
  Eigen::VectorXd r(n);
  for (int i = 0; i < n; ++i) {
    const int t = window.t_min + i;
    r(i) = jk.mean()[t] - fit.amplitude * (std::exp(-fit.mass * t) + std::exp(-fit.mass * (12 - t)));
    for (int j = 0; j < n; ++j) c(i, j) = cov[window.t_min + i][window.t_min + j];
  }
  const double chi2 = r.dot(c.llt().solve(r));
  EXPECT_NEAR(fit.chi2_per_dof * fit.dof, chi2, 1e-6 * chi2 + 1e-12);
  // And it is the least: a step in m either way raises it.
  for (const double step : {-1e-4, 1e-4}) {
    const double m = fit.mass + step;
    Eigen::VectorXd b(n), y(n);
    for (int i = 0; i < n; ++i) {
      const int t = window.t_min + i;
      b(i) = std::exp(-m * t) + std::exp(-m * (12 - t));
      y(i) = jk.mean()[t];
    }
    const Eigen::VectorXd wb = c.llt().solve(b);
    const double a = wb.dot(y) / wb.dot(b);
    const Eigen::VectorXd rm = y - a * b;
    EXPECT_GT(rm.dot(c.llt().solve(rm)), chi2);
  }
}

TEST(CorrelatorFit, RefusesWindowsAndCovariancesItCannotUse) {
  const Jackknife jk(model_samples(CorrelatorModel::cosh, 12, 1.0, 0.6, 6, 0.03, 0.02, 0.01, 7));
  const auto message = [&](statistics::FitWindow window, bool correlated) {
    try {
      statistics::fit_correlator(jk, CorrelatorModel::cosh, window, correlated);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({8, 12}, false).find("must lie in [0, 11]"), std::string::npos);
  EXPECT_NE(message({3, 4}, false).find("at least three points"), std::string::npos);
  EXPECT_NE(message({1, 8}, true).find("needs more than 8 jackknife bins, and there are 6"), std::string::npos);
  // Only the amplitude fluctuates: the covariance has rank one.
  const Jackknife rank_one(model_samples(CorrelatorModel::cosh, 12, 1.0, 0.6, 20, 0.03, 0, 0, 7));
  EXPECT_THROW(statistics::fit_correlator(rank_one, CorrelatorModel::cosh, {2, 5}, true), std::invalid_argument);
}

TEST(CorrelatorFit, EffectiveMassesCarryJackknifeErrors) {
  const Jackknife jk(model_samples(CorrelatorModel::cosh, 16, 1.0, 0.5, 80, 0.02, 0.01, 0.0, 21));
  const statistics::Estimate m = jk.estimate([](const std::vector<double>& C) { return effective_mass(C); });
  ASSERT_EQ(m.value.size(), 15u);
  // The configurations' masses scatter by 1 % (0.005): the error of their
  // mean is 0.005 / sqrt(80) = 0.00056 at every t.
  for (int t = 0; t < 15; ++t) {
    EXPECT_NEAR(m.value[t], 0.5, 4 * m.error[t]) << "t = " << t;
    EXPECT_GT(m.error[t], 0.0003) << "t = " << t;
    EXPECT_LT(m.error[t], 0.0010) << "t = " << t;
  }
}

}  // namespace
}  // namespace latte::testing
