#pragma once
// A monomial with a stopwatch: the same term of the action, its time in
// refresh, action and kick summed, so that a run can print where a
// trajectory's time goes, monomial by monomial (the 2+1-flavour example,
// the trajectory benchmark). It changes nothing the wrapped monomial
// computes: the chain's bits are the same with or without it.

#include <chrono>
#include <cstdint>
#include <string>

#include "solvers/qcd/update/hmc_monomial.hpp"

namespace latte {

struct MonomialTimes {
  double refresh = 0, action = 0, force = 0;  // seconds
  long kicks = 0;
  double total() const { return refresh + action + force; }
};

template <class R, class W = DefaultWidth>
class TimedMonomial final : public Monomial<R, W> {
 public:
  explicit TimedMonomial(Monomial<R, W>& monomial) : monomial_(monomial) {}

  std::string describe() const override { return monomial_.describe(); }
  void refresh(const GaugeField<R, W>& U, std::uint64_t key) override {
    const auto start = clock::now();
    monomial_.refresh(U, key);
    times_.refresh += seconds_since(start);
  }
  double action(const GaugeField<R, W>& U) override {
    const auto start = clock::now();
    const double s = monomial_.action(U);
    times_.action += seconds_since(start);
    return s;
  }
  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    const auto start = clock::now();
    monomial_.kick(U, P, eps);
    times_.force += seconds_since(start);
    ++times_.kicks;
  }

  const MonomialTimes& times() const { return times_; }
  Monomial<R, W>& monomial() const { return monomial_; }

 private:
  using clock = std::chrono::steady_clock;
  static double seconds_since(clock::time_point start) {
    return std::chrono::duration<double>(clock::now() - start).count();
  }
  Monomial<R, W>& monomial_;
  MonomialTimes times_;
};

}  // namespace latte
