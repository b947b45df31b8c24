#pragma once
// Jackknife resampling of measurements made on an ensemble of
// configurations: the mean of each observable, the leave-one-out means, and
// the error of any function of the means (an effective mass, a fit).
//
//   // samples[c][i]: observable i (say C(t) at t = i) on configuration c
//   const Jackknife jk = jackknife(samples);            // bin_size 1: leave one configuration out
//   const Estimate m = jk.estimate([](const std::vector<double>& C) { return effective_mass(C); });
//   // m.value[t] = f(mean), m.error[t] = jackknife error of f
//
// With N bins of b consecutive configurations (b = bin_size; configurations
// beyond the last whole bin are left out, and the constructor says how many
// were used), replica k is the mean over all bins but bin k. For a function
// f of the means the estimate is f(mean of all used configurations) and
// its error
//
//   sigma_f = sqrt( (N - 1) / N * sum_k (f(replica_k) - fbar)^2 ),
//   fbar = (1/N) sum_k f(replica_k),
//
// which for f = the mean itself is the standard error of the mean of the N
// bin averages, s / sqrt(N) (s the sample standard deviation of the bin
// averages with N - 1 in its denominator) — exactly, not only for large N.
// Binning consecutive configurations (b > 1) takes autocorrelations of a
// Markov chain into account up to about b trajectories. A function that
// returns a non-finite value on some replica (an effective mass where C
// changes sign) gives a NaN error there, not a silently smaller one.
//
// The covariance of the means (what a correlated fit needs) is the same sum
// over replicas without the square root: cov_ij = (N - 1) / N sum_k
// (r_ki - rbar_i)(r_kj - rbar_j).

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace latte::statistics {

// A value per observable and its error.
struct Estimate {
  std::vector<double> value, error;
};

class Jackknife {
 public:
  // samples[c] holds every observable on configuration c; all rows have
  // one length. At least two bins are needed for an error.
  explicit Jackknife(const std::vector<std::vector<double>>& samples, int bin_size = 1) {
    if (bin_size < 1)
      throw std::invalid_argument("Latte: a jackknife bin holds at least one configuration, not " +
                                  std::to_string(bin_size));
    const std::size_t bins = samples.size() / static_cast<std::size_t>(bin_size);
    if (bins < 2)
      throw std::invalid_argument("Latte: a jackknife needs at least two bins, and " + std::to_string(samples.size()) +
                                  " configurations in bins of " + std::to_string(bin_size) + " give " +
                                  std::to_string(bins));
    const std::size_t observables = samples.front().size();
    for (std::size_t c = 0; c < samples.size(); ++c)
      if (samples[c].size() != observables)
        throw std::invalid_argument("Latte: configuration " + std::to_string(c) + " has " +
                                    std::to_string(samples[c].size()) + " observables, configuration 0 has " +
                                    std::to_string(observables));
    used_ = bins * static_cast<std::size_t>(bin_size);

    // Bin averages, then the mean of all and each leave-one-bin-out mean.
    std::vector<std::vector<double>> bin_means(bins, std::vector<double>(observables, 0.0));
    for (std::size_t c = 0; c < used_; ++c)
      for (std::size_t i = 0; i < observables; ++i) bin_means[c / bin_size][i] += samples[c][i];
    mean_.assign(observables, 0.0);
    for (auto& bin : bin_means)
      for (std::size_t i = 0; i < observables; ++i) {
        bin[i] /= bin_size;
        mean_[i] += bin[i];
      }
    for (double& m : mean_) m /= static_cast<double>(bins);
    replicas_.assign(bins, std::vector<double>(observables));
    const double n = static_cast<double>(bins);
    for (std::size_t k = 0; k < bins; ++k)
      for (std::size_t i = 0; i < observables; ++i) replicas_[k][i] = (n * mean_[i] - bin_means[k][i]) / (n - 1);
  }

  std::size_t bins() const { return replicas_.size(); }
  std::size_t configurations_used() const { return used_; }
  const std::vector<double>& mean() const { return mean_; }
  const std::vector<std::vector<double>>& replicas() const { return replicas_; }

  // f of the mean, with the jackknife error of f over the replicas. f maps
  // the vector of observables to a vector (of any one length).
  template <class F>
  Estimate estimate(F&& f) const {
    Estimate e{f(mean_), {}};
    std::vector<std::vector<double>> values;
    values.reserve(bins());
    for (const auto& replica : replicas_) {
      values.push_back(f(replica));
      if (values.back().size() != e.value.size())
        throw std::logic_error("Latte: a jackknife function returned vectors of different lengths");
    }
    e.error = spread(values);
    return e;
  }

  // The means themselves with their errors.
  Estimate estimate() const {
    return estimate([](const std::vector<double>& x) { return x; });
  }

  // The covariance matrix of the means, cov[i][j].
  std::vector<std::vector<double>> covariance() const {
    const std::size_t observables = mean_.size();
    const std::vector<double> average = replica_average(replicas_);
    std::vector<std::vector<double>> cov(observables, std::vector<double>(observables, 0.0));
    for (const auto& r : replicas_)
      for (std::size_t i = 0; i < observables; ++i)
        for (std::size_t j = 0; j < observables; ++j) cov[i][j] += (r[i] - average[i]) * (r[j] - average[j]);
    const double n = static_cast<double>(bins());
    for (auto& row : cov)
      for (double& c : row) c *= (n - 1) / n;
    return cov;
  }

  // The jackknife error of values f(replica_k), k = 0 .. N - 1, given
  // directly (e.g. the parameters of fits made on each replica).
  static std::vector<double> spread(const std::vector<std::vector<double>>& values) {
    const std::size_t n = values.size(), length = values.empty() ? 0 : values.front().size();
    const std::vector<double> average = replica_average(values);
    std::vector<double> error(length, 0.0);
    for (const auto& v : values)
      for (std::size_t i = 0; i < length; ++i) error[i] += (v[i] - average[i]) * (v[i] - average[i]);
    for (double& e : error) {
      e = std::sqrt((static_cast<double>(n) - 1) / static_cast<double>(n) * e);
      if (!std::isfinite(e)) e = std::numeric_limits<double>::quiet_NaN();
    }
    return error;
  }

 private:
  static std::vector<double> replica_average(const std::vector<std::vector<double>>& values) {
    const std::size_t length = values.empty() ? 0 : values.front().size();
    std::vector<double> average(length, 0.0);
    for (const auto& v : values)
      for (std::size_t i = 0; i < length; ++i) average[i] += v[i];
    for (double& a : average) a /= static_cast<double>(values.size());
    return average;
  }

  std::size_t used_ = 0;
  std::vector<double> mean_;
  std::vector<std::vector<double>> replicas_;
};

}  // namespace latte::statistics
