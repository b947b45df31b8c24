// The "add a node" recipe (docs/design/architecture.md), exercised: a node
// written in this file alone, with every entry the recipe names.
//   Flipped<E>: the value of e with every real negated, -e.
// (A functor passed to map() would say this in one line; the point here is
// the recipe, checked where a missing entry shows: under a shift its
// evaluator must pack halos, on a batch of right-hand sides it must be
// lowered to one right-hand side, and it must run per lane.)

#include <cstddef>
#include <type_traits>

#include "dsl/exec/prepare.hpp"
#include "dsl/expr/batch_lowering.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// 1. The node: operands, layout, what it reads, its statement model and name.
template <class E>
struct Flipped {
  static constexpr bool is_latte_expression = true;
  using value_type = typename E::value_type;
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;

  E operand;

  const SiteLayout* layout() const { return operand.layout(); }
  bool reads(const void* p) const { return operand.reads(p); }
  bool reads_shifted(const void* p) const { return operand.reads_shifted(p); }
  static double flops_per_site() { return E::flops_per_site(); }  // a sign change is not a flop
  template <class Tally> void add_reads(Tally& tally, double weight) const { operand.add_reads(tally, weight); }
  template <class Namer> void describe(Namer& namer, int) const {
    namer.text("flipped(");
    operand.describe(namer, 0);
    namer.text(")");
  }
};

template <FieldOperand A>
auto flipped(const A& a) {
  using Node = node_t<A>;
  return Flipped<Node>{to_node(a)};
}

// 2. Its evaluator, for both site types, and make_evaluator (found by
// argument-dependent lookup in this namespace).
template <class E>
struct FlippedEvaluator {
  using value_type = typename E::value_type;
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;

  E operand;

  template <class Site> LATTE_INLINE void prefetch(const Site& s) const { operand.prefetch(s); }
  // The site algebra's negation (lattice/tensors/tensor_ops.hpp), as -e uses.
  template <class Site> LATTE_INLINE auto eval(const Site& s) const { return -operand.eval(s); }
};

template <class E, class Context>
auto make_evaluator(const Flipped<E>& node, Context& context) {
  auto operand = make_evaluator(node.operand, context);
  return FlippedEvaluator<decltype(operand)>{operand};
}

// 3b. The node of one right-hand side (found by argument-dependent lookup).
template <class E>
auto rhs_element(const Flipped<E>& node) {
  auto operand = rhs_element(node.operand);
  return Flipped<decltype(operand)>{operand};
}

}  // namespace
}  // namespace latte::testing

// 3a. Its batch lowering: the rewrite passes through it, and its batch is its operand's.
namespace latte {
template <class E> struct lowers_by_rhs<testing::Flipped<E>> : lowers_by_rhs<E> {};
template <class E> inline constexpr int rhs_batch_v<testing::Flipped<E>> = rhs_batch_v<E>;
}  // namespace latte

namespace latte::testing {
namespace {

template <class Node> struct is_lowered : std::false_type {};
template <class Element, int N> struct is_lowered<RhsLoop<Element, N>> : std::true_type {};

struct ToyNode : ::testing::Test {
  Geometry geometry{{4, 4, 4, 8}};
  Lattice<ColourMatrix<double>> U{geometry};
  Lattice<Spinor<double>> psi{geometry}, out{geometry}, expected{geometry};
  ToyNode() {
    ParallelRng rng(17);
    rng.gaussian(U);
    rng.gaussian(psi);
  }
};

TEST_F(ToyNode, IsTheNegationItSays) {
  out = flipped(psi);
  expected = -psi;
  EXPECT_TRUE(fields_near(out, expected, 0.0));
  out = U * flipped(psi) + 0.5 * flipped(U * psi);
  expected = U * (-psi) + 0.5 * (-(U * psi));
  EXPECT_TRUE(fields_near(out, expected, 0.0));
}

TEST_F(ToyNode, WorksUnderAShiftWhoseNeighboursAreOnOtherRanks) {
  // Under mpirun, or with forced communication, the plan keeps the
  // operand's evaluator and packs flipped(U psi) for the other ranks.
  out = shift(flipped(U * psi), 0, +1) + shift(flipped(psi), 3, -1);
  expected = shift(-(U * psi), 0, +1) + shift(-psi, 3, -1);
  EXPECT_TRUE(fields_near(out, expected, 0.0));
}

TEST_F(ToyNode, RunsPerLaneAsOnVectors) {
  Lattice<Spinor<double>> per_lane(geometry);
  out = shift(flipped(U * psi), 1, -1);
  assign<backend::Simt>(per_lane, shift(flipped(U * psi), 1, -1), AssignSet{});
  // To rounding: the vector code may fuse a * b + c where the per-lane code
  // rounds twice (the cpu build contracts into FMAs, the simt build does not).
  EXPECT_TRUE(fields_near(out, per_lane, 1e-14));
}

TEST_F(ToyNode, IsLoweredToOneRightHandSideOnABatch) {
  constexpr int N = 3;
  Lattice<MultiSpinor<double, N>> batch(geometry), flipped_batch(geometry), negated_batch(geometry);
  ParallelRng(29).gaussian(batch);
  static_assert(is_lowered<decltype(lower_batches(as_node(flipped(U * batch))))>::value,
                "a batch statement through the toy node is lowered to one right-hand side");
  flipped_batch = shift(flipped(U * batch), 2, +1);
  negated_batch = shift(-(U * batch), 2, +1);
  EXPECT_TRUE(fields_near(flipped_batch, negated_batch, 0.0));
}

TEST_F(ToyNode, IsNamedAndModelledInTheProfile) {
  EXPECT_NE(statement_name(out.storage_identity(), " = ", as_node(flipped(U * psi))).find("flipped("), std::string::npos);
  const StatementModel model = statement_model(out, as_node(flipped(U * psi)), AssignSet{});
  const StatementModel reference = statement_model(out, as_node(U * psi), AssignSet{});
  EXPECT_EQ(model.flops_per_site, reference.flops_per_site);
  EXPECT_EQ(model.bytes_per_site, reference.bytes_per_site);
}

}  // namespace
}  // namespace latte::testing
