// solvers/lbm/io/checkpoint.hpp alone: a flow written to a checkpoint and read back.
#include "solvers/lbm/io/checkpoint.hpp"

void use_checkpoint() {
  using namespace latte;
  lbm::Simulation<lbm::D2Q9, double, lbm::Bgk> flow(Geometry({16, 16}), lbm::Parameters{});
  lbm::write_checkpoint(flow, "flow.chk");
  lbm::read_checkpoint(flow, "flow.chk");
}
