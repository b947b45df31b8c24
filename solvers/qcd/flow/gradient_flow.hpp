#pragma once
// The gradient flow of a gauge field (Luescher, JHEP 08 (2010) 071) by his
// third-order Runge-Kutta scheme (eqs. (C.1)-(C.3)), in the DSL.
//
// The flow equation is dV_mu(x,t)/dt = Z_mu(x,t) V_mu(x,t), V(0) = U, with
// Z = -g0^2 dS(V), dS the su(3)-valued Lie derivative of the action. In the
// library's conventions (lattice/tensors/su3_algebra.hpp, solvers/qcd/gauge/gauge_action.hpp):
// - Luescher's generators are anti-hermitian, T^a_L = i T^a with our
//   T^a = lambda^a/2, and dS = sum_a T^a_L d/ds S(exp(s T^a_L) V)|_{s=0}.
//   The library's force F is defined by d/ds S(exp(s X) V) = <X, F> =
//   sum_a x^a f^a with X = i x^a T^a, F = i f^a T^a; for X = T^a_L that
//   derivative is f^a, so dS = sum_a i T^a f^a = F.
// - His Wilson action S_w = (1/g0^2) sum_p Re tr(1 - U(p)) runs over the
//   oriented plaquettes, each unoriented one twice, so
//   g0^2 S_w = 2 sum_{x, mu<nu} Re tr(1 - P) = 6 sum (1 - Re tr P / 3) = S at beta = 6.
// Hence Z_mu = -F_mu at beta = 6 = -Ta(V_mu Sigma_mu^+) with Sigma_mu the sum of
// the six plaquette staples: the flow runs down the action, dS/dt = <Z, F> =
// -|F|^2 <= 0. The same with the rectangles of a GaugeAction's c1 at beta = 6
// gives the Symanzik (c1 = -1/12) or Iwasaki flows.
//
// The integrator, with Z_i = eps Z(W_i):
//   W0 = V_t,  W1 = exp(Z0/4) W0,  W2 = exp(8/9 Z1 - 17/36 Z0) W1,
//   V_{t+eps} = exp(3/4 Z2 - 8/9 Z1 + 17/36 Z0) W2,
// held in one accumulator A (Luescher's low-storage form): each stage is
//   A_mu <- a eps Z_mu(W) + b A_mu,   W_mu <- exp(A_mu) W_mu
// with (a, b) = (1/4, none), (8/9, -17/9), (3/4, -1). The force and the
// combination are one statement per direction (the staples read the links
// of every direction at neighbours, so no link may change before all four
// are done), the exponential and the link update another. Global error O(eps^3).

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "dsl/expr/su3_functions.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

// The flow's workspace and its action: Wilson (the default, Luescher's
// flow) or rectangle-improved by c1 (GaugeAction::symanzik(6) etc.; beta is
// ignored: the flow is always that of the action at beta = 6, i.e. of g0^2 S).
template <class R, class W = DefaultWidth>
class GradientFlow {
 public:
  explicit GradientFlow(const Geometry& geometry, const GaugeAction& action = GaugeAction::wilson(6.0))
      : action_{6.0, action.c1}, accumulator_(geometry) {
    if (action_.has_rectangles()) staples_.emplace(geometry);
  }

  const GaugeAction& action() const { return action_; }

  // V_t -> V_{t+eps}: one Runge-Kutta step, 24 statements (Wilson).
  template <class Backend = backend::Default> void step(GaugeField<R, W>& V, double epsilon) {
    stage<Backend>(V, 0.25 * epsilon, 0.0, true);
    stage<Backend>(V, (8.0 / 9.0) * epsilon, -17.0 / 9.0, false);
    stage<Backend>(V, 0.75 * epsilon, -1.0, false);
  }

  // Flows by `time` in steps of at most epsilon, the last one shortened so
  // that it lands on `time` exactly; returns the number of steps.
  template <class Backend = backend::Default> int flow(GaugeField<R, W>& V, double time, double epsilon) {
    if (!(epsilon > 0) || !(time >= 0))
      throw std::invalid_argument("Latte: the gradient flow needs a positive step and a non-negative flow time");
    const int steps = static_cast<int>(std::ceil(time / epsilon - 1e-9));
    for (int i = 0; i < steps; ++i) step<Backend>(V, std::min(epsilon, time - i * epsilon));
    return steps;
  }

 private:
  // A_mu <- coefficient * Z_mu(V) + keep * A_mu (A_mu <- coefficient * Z_mu(V)
  // in the first stage, whose A holds nothing yet), then V_mu <- exp(A_mu) V_mu.
  template <class Backend> void stage(GaugeField<R, W>& V, double coefficient, double keep, bool first) {
    for (int mu = 0; mu < spacetime_dimensions; ++mu) {
      if (action_.has_rectangles()) {
        gauge_staples(action_, V, mu, *staples_);
        update_accumulator<Backend>(mu, coefficient, keep, first, traceless_antihermitian(V[mu] * adj(*staples_)));
      } else {
        update_accumulator<Backend>(mu, coefficient, keep, first,
                                    traceless_antihermitian(V[mu] * adj(staple_sum(V, mu))));
      }
    }
    for (int mu = 0; mu < spacetime_dimensions; ++mu)
      assign<Backend>(V[mu], su3_exp(accumulator_[mu]) * V[mu], AssignSet{});
  }
  // Z_mu = -Ta(V_mu Sigma_mu^+) = -force, so the force enters with -coefficient.
  template <class Backend, class Force>
  void update_accumulator(int mu, double coefficient, double keep, bool first, const Force& force) {
    if (first) assign<Backend>(accumulator_[mu], -coefficient * force, AssignSet{});
    else assign<Backend>(accumulator_[mu], -coefficient * force + keep * accumulator_[mu], AssignSet{});
  }

  GaugeAction action_;
  GaugeField<R, W> accumulator_;         // A_mu, an su(3) field per direction
  std::optional<Lattice<ColourMatrix<R>, W>> staples_;  // Sigma_mu of a rectangle-improved action
};

// One flow step of U by epsilon with the workspace of a GradientFlow.
template <class R, class W> void flow_step(GaugeField<R, W>& U, double epsilon, GradientFlow<R, W>& flow) {
  flow.step(U, epsilon);
}
// One flow step of U by epsilon; the workspace is made for the call.
template <class R, class W>
void flow_step(GaugeField<R, W>& U, double epsilon, const GaugeAction& action = GaugeAction::wilson(6.0)) {
  GradientFlow<R, W> flow(U.geometry(), action);
  flow.step(U, epsilon);
}

}  // namespace latte
