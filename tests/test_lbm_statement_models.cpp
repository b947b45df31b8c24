// The lattice-Boltzmann step's model derived from its expression
// (dsl/expr/statement_model.hpp): the two-lattice pull scheme reads Q populations
// and writes Q per cell update, 2 x Q reals.

#include "solvers/lbm/flow/simulation.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

template <class VS, class Real>
void expect_two_lattice_traffic(const std::vector<int>& extents) {
  const Geometry geometry(extents);
  lbm::Parameters p;
  p.tau = 0.8;
  lbm::Simulation<VS, Real, lbm::Bgk, VectorWidth> sim(geometry, p);
  profile::ModelCapture capture;
  sim.step();
  EXPECT_EQ(capture.statements, 1);
  const double cells = static_cast<double>(geometry.volume());
  EXPECT_EQ(capture.bytes / cells, 2 * VS::q * sizeof(Real)) << VS::name;
  EXPECT_GT(capture.flops / cells, 0) << VS::name;
}

TEST(StatementModel, StreamCollideMovesTwoQRealsPerCell) {
  expect_two_lattice_traffic<lbm::D2Q9, double>({16, 8});
  expect_two_lattice_traffic<lbm::D2Q9, float>({16, 8});
  expect_two_lattice_traffic<lbm::D3Q19, double>({8, 8, 8});
  expect_two_lattice_traffic<lbm::D3Q19, float>({8, 8, 8});
}

}  // namespace
}  // namespace latte::testing
