// solvers/lbm/multiphase/shan_chen.hpp alone: a Shan-Chen fluid stepped with its interaction force.
#include "solvers/lbm/multiphase/shan_chen.hpp"

void use_shan_chen() {
  using namespace latte;
  lbm::Simulation<lbm::D2Q9, double, lbm::Bgk> flow(Geometry({16, 16}), lbm::Parameters{});
  lbm::ShanChenCoupling coupling(flow, lbm::shan_chen_exponential(-5.0));
  coupling.run(2);
  Lattice<double> pressure(flow.geometry());
  pressure = lbm::bulk_pressure(coupling.model(), flow.density());
}
