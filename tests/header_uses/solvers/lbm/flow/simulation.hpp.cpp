// solvers/lbm/flow/simulation.hpp alone: the README's flow, in two dimensions.
#include "solvers/lbm/flow/simulation.hpp"

void use_simulation() {
  using namespace latte;
  lbm::Simulation<lbm::D2Q9, double, lbm::Trt> flow(Geometry({16, 16}), lbm::FlowParameters<lbm::Trt>{0.8, 3.0 / 16, {1e-6, 0, 0}});
  flow.run(10);
  [[maybe_unused]] double mass = flow.mass(), umax = flow.max_speed();
}
