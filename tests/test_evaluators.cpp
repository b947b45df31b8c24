// Statements are prepared into evaluators (dsl/exec/prepare.hpp): trivially
// copyable objects holding only what a kernel reads. These tests pin that
// down for the Wilson operator, the largest statement the library runs, and
// check that a map's functor object carries its state into every lowering.

#include <type_traits>

#include "solvers/qcd/fermions/wilson_dirac.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// The statement M psi of the Wilson operator, as WilsonDirac writes it.
template <class R, class W, class Psi>
auto wilson_m(const GaugeField<R, W>& U, const Lattice<Psi, W>& psi, double mass) {
  return as_node((4.0 + mass) * psi - 0.5 * wilson_hopping<+1>(U, psi));
}

TEST(Evaluators, PreparedWilsonOperatorHoldsOnlyWhatItsKernelReads) {
  const Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U(geometry);
  Lattice<Spinor<double>> psi(geometry);
  const auto node = wilson_m(U, psi, 0.1);
  StatementPlan<backend::Default> plan(psi.layout());
  const auto evaluator = prepare(node, plan);
  static_assert(std::is_trivially_copyable_v<decltype(evaluator)>);
  // 17 field pointers (9 reads of psi, 8 of links), 8 shifts of 48 bytes
  // (a 40-byte table view and a halo pointer), two coefficients: 560 bytes
  // on a 64-bit host. The node keeps layouts, storage and names besides.
  EXPECT_LE(sizeof(evaluator), 600u) << "the prepared Wilson M evaluator takes " << sizeof(evaluator) << " bytes";
  EXPECT_LT(sizeof(evaluator), sizeof(node)) << "node " << sizeof(node) << " bytes, evaluator " << sizeof(evaluator);
  std::printf("Wilson M: node %zu bytes, prepared evaluator %zu bytes\n", sizeof(node), sizeof(evaluator));
}

// On a batch of right-hand sides the statement runs one right-hand side's
// evaluator N times per site (dsl/expr/batch_lowering.hpp), with the index on
// the site: the kernel's parameters are those of one right-hand side, on
// every backend.
TEST(Evaluators, PreparedBatchOperatorIsTheSizeOfOneRightHandSides) {
  const Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U(geometry);
  Lattice<Spinor<double>> psi(geometry);
  Lattice<MultiSpinor<double, 12>> batch(geometry);
  StatementPlan<backend::Default> plan(psi.layout());
  const auto single = prepare(lower_batches(wilson_m(U, psi, 0.1)), plan);
  StatementPlan<backend::Default> batch_plan(batch.layout());
  const auto twelve = prepare(lower_batches(wilson_m(U, batch, 0.1)), batch_plan);
  static_assert(std::is_trivially_copyable_v<decltype(twelve)>);
  EXPECT_EQ(sizeof(twelve), sizeof(single)) << "12 right-hand sides: " << sizeof(twelve) << " bytes, one: " << sizeof(single);
  std::printf("Wilson M: prepared evaluator %zu bytes for one right-hand side, %zu bytes for a batch of 12\n",
              sizeof(single), sizeof(twelve));
}

// A functor with state: x -> slope x + offset.
struct Affine {
  double slope, offset;
  static constexpr const char* name = "affine";
  template <class X> LATTE_INLINE auto operator()(const X& x) const { return x * slope + offset; }
};

template <class Backend, class W>
void expect_affine_map(const Geometry& geometry, const char* lowering) {
  Lattice<double, W> x(geometry), y(geometry);
  // Small integers: every product and sum is exact, so fused or not, the
  // result is exact and can be compared bit for bit.
  for_each_coordinate(geometry, [&](const Coordinate& c) {
    poke(x, c, static_cast<double>((c[0] + 2 * c[1] + 3 * c[2] + 5 * c[3]) % 7 - 3));
  });
  assign<Backend>(y, map(Affine{2.0, -0.5}, x), AssignSet{});
  for_each_coordinate(geometry, [&](const Coordinate& c) {
    const double expected = peek(x, c) * 2.0 - 0.5;
    ASSERT_EQ(peek(y, c), expected) << lowering << " at " << to_string(c);
  });
  // The same functor type with other parameters is the same statement with
  // another state, not another kernel.
  assign<Backend>(y, map(Affine{-1.0, 4.0}, x) + map(Affine{0.5, 0.0}, x), AssignSet{});
  for_each_coordinate(geometry, [&](const Coordinate& c) {
    ASSERT_EQ(peek(y, c), (4.0 - peek(x, c)) + 0.5 * peek(x, c)) << lowering << " at " << to_string(c);
  });
}

TEST(Evaluators, MapCarriesItsFunctorsStateOnEveryLowering) {
  const Geometry geometry{{4, 4, 4, 4}};
  expect_affine_map<backend::Default, VectorWidth>(geometry, "default backend");
  expect_affine_map<backend::Simt, VectorWidth>(geometry, "per-lane path");
  expect_affine_map<backend::Default, ScalarWidth>(geometry, "scalar layout");
}

TEST(Evaluators, MapOfAStatefulFunctorIsNamedAndShifted) {
  const Geometry geometry{{4, 4, 4, 4}};
  Lattice<double> x(geometry), y(geometry);
  ParallelRng(7).gaussian(x);
  y = shift(map(Affine{3.0, 1.0}, x), 1, +1);
  for_each_coordinate(geometry, [&](const Coordinate& c) {
    Coordinate n = c;
    n[1] = (n[1] + 1) % 4;
    ASSERT_NEAR(peek(y, c), 3.0 * peek(x, n) + 1.0, 1e-14) << to_string(c);
  });
  EXPECT_NE(statement_name(y.storage_identity(), "=", as_node(map(Affine{1, 0}, x))).find("affine("), std::string::npos);
}

}  // namespace
}  // namespace latte::testing
