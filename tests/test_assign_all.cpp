// assign_all: several destinations written in one pass (dsl/statements/assign_all.hpp).
// Each destination gets the very bits a statement of its own gives, on
// every lowering; expressions see the destinations' old values, at the site
// and at neighbours; bad destinations are refused.

#include <stdexcept>

#include "test_support.hpp"

namespace latte::testing {
namespace {

template <class Backend, class W>
void expect_same_as_separate_statements(const Geometry& geometry, const char* lowering) {
  Lattice<ColourMatrix<double>, W> U(geometry), P(geometry), U1(geometry), P1(geometry);
  Lattice<ColourVector<double>, W> c(geometry), c1(geometry);
  ParallelRng(11).gaussian(U);
  ParallelRng(12).gaussian(P);
  ParallelRng(13).gaussian(c);
  U1 = U;
  P1 = P;
  c1 = c;
  const double eps = 0.125;
  // A leapfrog-like update: U reads the old P, P the old U (pointwise), c the
  // old U at a neighbour.
  assign_all<Backend>(std::tie(U, P, c), U + eps * P, P - eps * U * U, shift(U, 1, +1) * c);
  Lattice<ColourMatrix<double>, W> newU(geometry), newP(geometry);
  Lattice<ColourVector<double>, W> newc(geometry);
  assign<Backend>(newU, U1 + eps * P1, AssignSet{});
  assign<Backend>(newP, P1 - eps * U1 * U1, AssignSet{});
  assign<Backend>(newc, shift(U1, 1, +1) * c1, AssignSet{});
  EXPECT_TRUE(fields_near(U, newU, 0.0)) << lowering << ": U";
  EXPECT_TRUE(fields_near(P, newP, 0.0)) << lowering << ": P";
  EXPECT_TRUE(fields_near(c, newc, 0.0)) << lowering << ": c";
}

TEST(AssignAll, EachDestinationGetsTheBitsOfItsOwnStatement) {
  const Geometry geometry{{4, 4, 4, 8}};
  expect_same_as_separate_statements<backend::Default, VectorWidth>(geometry, "default backend");
  expect_same_as_separate_statements<backend::Simt, VectorWidth>(geometry, "per-lane path");
  expect_same_as_separate_statements<backend::Default, ScalarWidth>(geometry, "scalar layout");
}

TEST(AssignAll, ExpressionsReadTheOldValuesOfEveryDestination) {
  const Geometry geometry{{4, 4, 4, 4}};
  Lattice<double> a(geometry), b(geometry), a0(geometry), b0(geometry);
  ParallelRng(3).gaussian(a);
  ParallelRng(4).gaussian(b);
  a0 = a;
  b0 = b;
  // A swap at the site, and one through neighbours (fresh storage for both).
  assign_all(std::tie(a, b), b, a);
  EXPECT_TRUE(fields_near(a, b0, 0.0));
  EXPECT_TRUE(fields_near(b, a0, 0.0));
  assign_all(std::tie(a, b), shift(a, 0, +1) + shift(b, 2, -1), shift(a, 3, +1));
  Lattice<double> expect_a(geometry), expect_b(geometry);
  expect_a = shift(b0, 0, +1) + shift(a0, 2, -1);
  expect_b = shift(b0, 3, +1);
  EXPECT_TRUE(fields_near(a, expect_a, 0.0));
  EXPECT_TRUE(fields_near(b, expect_b, 0.0));
}

TEST(AssignAll, RefusesTheSameFieldTwiceAndMixedLattices) {
  const Geometry geometry{{4, 4, 4, 4}}, other{{4, 4, 4, 8}};
  Lattice<double> a(geometry), b(geometry), c(other);
  a = 1.0;
  b = 2.0;
  try {
    assign_all(std::tie(a, a), b, b);
    FAIL() << "the same destination twice was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("same field as destination 0 and 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(assign_all(std::tie(a, c), b, c), GeometryMismatch);
  EXPECT_THROW(assign_all(std::tie(a, b), c, b), GeometryMismatch);
  // Nothing was written by the refused statements.
  EXPECT_EQ(peek(a, Coordinate{0, 0, 0, 0}), 1.0);
  EXPECT_EQ(peek(b, Coordinate{0, 0, 0, 0}), 2.0);
}

}  // namespace
}  // namespace latte::testing
