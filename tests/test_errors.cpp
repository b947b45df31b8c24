// Bad input gets a clear error, never a crash or a silent wrong answer.
// Each case checks the exception type and that the message
// names what was wrong (the extents, the lane grid or the coordinate), since
// a bare "invalid argument" leaves the user to guess which field or lattice.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using latte::Coordinate;
using latte::Geometry;
using latte::Lattice;
using latte::SiteLayout;

// Runs `statement`, expecting an exception of type E whose what() contains
// every string in `fragments`.
template <class E>
::testing::AssertionResult throws_naming(const std::function<void()>& statement,
                                         const std::vector<std::string>& fragments) {
  try {
    statement();
  } catch (const E& error) {
    const std::string message = error.what();
    for (const auto& fragment : fragments)
      if (message.find(fragment) == std::string::npos)
        return ::testing::AssertionFailure() << "message \"" << message << "\" does not mention \"" << fragment
                                             << "\"";
    return ::testing::AssertionSuccess();
  } catch (const std::exception& other) {
    return ::testing::AssertionFailure() << "threw another exception: " << other.what();
  }
  return ::testing::AssertionFailure() << "nothing was thrown";
}

constexpr int double_lanes = latte::DefaultWidth::lanes<double>;

// ---- lattice extents and SIMD layouts -------------------------------------------

// Explicit lane counts, so these fail in every build, whatever its width.
TEST(LayoutErrors, DefaultPolicyCannotSplitExtents) {
  // 6 = 2 * 3: one factor of two per dimension, 8 lanes fit but 16 do not.
  EXPECT_NO_THROW(Geometry::default_simd_layout({6, 6, 6}, 8));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry::default_simd_layout({6, 6, 6}, 16); },
                                                {"[6 6 6]", "16"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry::default_simd_layout({3, 5, 7}, 2); },
                                                {"[3 5 7]", "2"}));
  // Through a Geometry the error comes when a field asks for that lane count.
  const Geometry geometry({6, 6, 6});
  EXPECT_TRUE(throws_naming<latte::LayoutError>([&] { geometry.layout(16); }, {"[6 6 6]"}));
  // Lane counts must be powers of two.
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry::default_simd_layout({12, 12}, 3); }, {"3"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry::default_simd_layout({12, 12}, 0); }, {"0"}));
}

TEST(LayoutErrors, FieldOnExtentsItsWidthCannotSplit) {
  // Odd extents cannot take any factor of two; one lane always works.
  const Geometry odd({3, 5, 7});
  EXPECT_NO_THROW((Lattice<double, latte::ScalarWidth>(odd)));
  if (double_lanes > 1) {
    EXPECT_TRUE(throws_naming<latte::LayoutError>([&] { Lattice<double> field(odd); }, {"[3 5 7]"}));
  }
  if (latte::DefaultWidth::lanes<float> > 8) {
    // 16 float lanes on [6 6 6] (see above), while 8 double lanes fit.
    const Geometry six({6, 6, 6});
    EXPECT_NO_THROW(Lattice<double> field(six));
    EXPECT_TRUE(throws_naming<latte::LayoutError>([&] { Lattice<float> field(six); }, {"[6 6 6]"}));
  }
}

TEST(LayoutErrors, ExplicitLayoutNotDividingExtents) {
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { SiteLayout layout({6, 6, 6}, {4, 1, 1}); },
                                                {"[6 6 6]", "[4 1 1]"}));
  // A Geometry checks its explicit layout at once, not at first use.
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry geometry({6, 6, 6}, {1, 1, 4}); },
                                                {"[6 6 6]", "[1 1 4]"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { SiteLayout layout({8, 8}, {0, 1}); }, {"[8 8]", "[0 1]"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { SiteLayout layout({8, 8}, {-2, 1}); }, {"[8 8]", "[-2 1]"}));
}

TEST(LayoutErrors, LayoutWithWrongNumberOfDimensions) {
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry geometry({8, 8}, {2, 2, 2}); }, {"[8 8]", "[2 2 2]"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { SiteLayout layout({8, 8, 8, 8}, {2, 2}); },
                                                {"[8 8 8 8]", "[2 2]"}));
}

TEST(LayoutErrors, NonPositiveExtents) {
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry geometry({8, 0, 8}); }, {"[8 0 8]"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry geometry({8, -4}); }, {"[8 -4]"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { Geometry geometry(Coordinate{}); }, {"dimension"}));
  EXPECT_TRUE(throws_naming<latte::LayoutError>([] { SiteLayout layout({4, 0}, {1, 1}); }, {"[4 0]"}));
}

// ---- fields of different lattices in one statement ------------------------------

const Geometry big({8, 8, 8, 8});
const Geometry small({8, 8, 8, 4});

TEST(GeometryErrors, MixingGeometriesInAnExpression) {
  const Lattice<double> a(big);
  const Lattice<double> b(small);
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { auto e = a + b; (void)e; }, {"[8 8 8 8]", "[8 8 8 4]"}));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { auto e = 2.0 * a - b * a; (void)e; },
                                                     {"[8 8 8 8]", "[8 8 8 4]"}));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { auto e = latte::shift(a, 0, +1) + b; (void)e; },
                                                     {"[8 8 8 8]", "[8 8 8 4]"}));
}

TEST(GeometryErrors, AssigningToAFieldOnAnotherGeometry) {
  Lattice<double> a(big), c(small);
  const std::vector<std::string> both = {"[8 8 8 8]", "[8 8 8 4]"};
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { c = a; }, both));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { c = a + a; }, both));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { c += 3.0 * a; }, both));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { c = latte::shift(a, 1, -1); }, both));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { c = Lattice<double>(big); }, both));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { c.swap(a); }, both));
}

// A second Geometry object with the same extents and lane grid is the same
// lattice: mixing its fields is fine and gives the right answer.
TEST(GeometryErrors, EqualGeometriesMixFreely) {
  const Geometry twin({8, 8, 8, 8});
  Lattice<double> a(big), b(twin), c(twin);
  latte::fill_coordinate(a, 0);
  latte::fill_coordinate(b, 3);
  ASSERT_NO_THROW(c = a + 2.0 * b);
  EXPECT_TRUE(latte::testing::field_matches(c, [](const Coordinate& x) { return double(x[0] + 2 * x[3]); }, 0.0));
}

// Same extents but another lane grid: the fields' memory images differ, so
// combining them lane by lane would be silently wrong; it must be refused.
TEST(GeometryErrors, SameExtentsOtherLaneGrid) {
  if (double_lanes == 1) GTEST_SKIP() << "one lane: every lane grid is [1 1 1 1]";
  const Geometry piled({8, 8, 8, 8}, {double_lanes, 1, 1, 1});
  ASSERT_NE(piled.layout(double_lanes).simd_layout(), big.layout(double_lanes).simd_layout());
  Lattice<double> a(big), b(piled);
  const std::string grid = latte::to_string(piled.layout(double_lanes).simd_layout());
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { auto e = a + b; (void)e; }, {grid}));
  EXPECT_TRUE(throws_naming<latte::GeometryMismatch>([&] { b = a; }, {grid}));
}

// ---- single sites and directions ----------------------------------------------------

TEST(CoordinateErrors, PeekAndPokeOutsideTheLattice) {
  Lattice<latte::ComplexD> field(big);
  const latte::ComplexD one{1.0, 0.0};
  for (const Coordinate& x : {Coordinate{8, 0, 0, 0}, Coordinate{0, 0, 0, -1}, Coordinate{3, 9, 3, 3}}) {
    SCOPED_TRACE(latte::to_string(x));
    EXPECT_TRUE(throws_naming<latte::CoordinateOutOfRange>([&] { latte::peek(field, x); },
                                                           {latte::to_string(x), "[8 8 8 8]"}));
    EXPECT_TRUE(throws_naming<latte::CoordinateOutOfRange>([&] { latte::poke(field, x, one); },
                                                           {latte::to_string(x), "[8 8 8 8]"}));
  }
  // A refused poke writes nothing.
  EXPECT_TRUE(latte::testing::field_matches(field, [](const Coordinate&) { return latte::ComplexD{0.0, 0.0}; }, 0.0));
}

TEST(CoordinateErrors, WrongNumberOfCoordinates) {
  Lattice<double> field(big);
  EXPECT_TRUE(throws_naming<latte::CoordinateOutOfRange>([&] { latte::peek(field, {1, 2, 3}); },
                                                         {"[1 2 3]", "[8 8 8 8]"}));
  EXPECT_TRUE(throws_naming<latte::CoordinateOutOfRange>([&] { latte::poke(field, {1, 2, 3, 4, 5}, 1.0); },
                                                         {"[1 2 3 4 5]", "[8 8 8 8]"}));
}

TEST(DirectionErrors, ShiftDirectionOutOfRange) {
  const Lattice<double> field(big);
  EXPECT_TRUE(throws_naming<std::invalid_argument>([&] { auto e = latte::shift(field, 4, +1); (void)e; },
                                                   {"direction 4", "4-dimensional"}));
  EXPECT_TRUE(throws_naming<std::invalid_argument>([&] { auto e = latte::shift(field, -1, -1); (void)e; },
                                                   {"direction -1", "4-dimensional"}));
  // A displacement vector of the wrong length names itself and the lattice.
  EXPECT_TRUE(throws_naming<latte::LayoutError>([&] { auto e = latte::shift(field, Coordinate{1, 0}); (void)e; },
                                                {"[1 0]", "[8 8 8 8]"}));
}

TEST(DirectionErrors, CoordinateFieldDirectionOutOfRange) {
  Lattice<double> field(big);
  EXPECT_TRUE(throws_naming<std::invalid_argument>([&] { latte::fill_coordinate(field, 4); },
                                                   {"direction 4", "4-dimensional"}));
  EXPECT_TRUE(throws_naming<std::invalid_argument>([&] { latte::fill_coordinate(field, -1); }, {"direction -1"}));
}

}  // namespace
