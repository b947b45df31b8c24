#pragma once
// One term of the action that hybrid Monte Carlo samples: what the
// integrator and the Metropolis step need of it. A gauge action is one;
// pseudofermion actions of dynamical quarks are others (they refresh their
// pseudofermions at the start of each trajectory). The interface is
// virtual: it is called a few times per molecular-dynamics step, each call
// a whole-lattice statement or a solve.

#include <cstdint>
#include <string>

#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/update/molecular_dynamics.hpp"

namespace latte {

template <class R, class W = DefaultWidth>
class Monomial {
 public:
  virtual ~Monomial() = default;
  virtual std::string describe() const = 0;
  // At the start of a trajectory, with the trajectory's own random key.
  virtual void refresh(const GaugeField<R, W>& /*U*/, std::uint64_t /*key*/) {}
  virtual double action(const GaugeField<R, W>& U) = 0;
  // P -= eps F(U): one momentum step with this term's force.
  virtual void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) = 0;
};

template <class R, class W = DefaultWidth>
class GaugeMonomial final : public Monomial<R, W> {
 public:
  explicit GaugeMonomial(const GaugeAction& action) : action_(action) {}
  std::string describe() const override {
    std::string name = "gauge action beta = " + std::to_string(action_.beta);
    if (action_.has_rectangles()) name += ", c1 = " + std::to_string(action_.c1);
    return name;
  }
  double action(const GaugeField<R, W>& U) override { return gauge_action_value(action_, U); }
  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    subtract_gauge_force(action_, U, P, eps);
  }
  const GaugeAction& gauge_action() const { return action_; }

 private:
  GaugeAction action_;
};

}  // namespace latte
