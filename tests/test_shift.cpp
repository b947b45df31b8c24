// shift(e, d)(x) = e(x + d), checked exactly (shifts move data, they do no
// arithmetic) against peek at the displaced site, on the build's SIMD layout,
// the per-lane path and the scalar layout. Lattices are chosen so that every
// dimension is split over SIMD lanes wherever the lane count allows, so
// every shift direction crosses virtual-node boundaries.

#include "test_support.hpp"

namespace latte::testing {
namespace {

// Random complex fields of one precision on one lattice, in the build's SIMD
// width and in the scalar width, with identical contents.
template <class Real>
struct ShiftFixture {
  using Z = Complex<Real>;
  Geometry geometry;
  Lattice<Z, VectorWidth> f;
  Lattice<Z, ScalarWidth> f_scalar;
  Lattice<ColourMatrix<Real>, VectorWidth> U;
  Lattice<ColourVector<Real>, VectorWidth> c;

  explicit ShiftFixture(Coordinate dims) : geometry(std::move(dims)), f(geometry), f_scalar(geometry), U(geometry), c(geometry) {
    ParallelRng rng(99), rng_scalar(99);
    rng.gaussian(f);
    rng_scalar.gaussian(f_scalar);
    rng.gaussian(U);
    rng.gaussian(c);
  }

  // shift(f, d) on all three lowerings equals f(x + d) exactly.
  void expect_shift(const Coordinate& d) {
    Lattice<Z, VectorWidth> on_vectors(geometry), on_lanes(geometry);
    Lattice<Z, ScalarWidth> on_scalar_layout(geometry);
    on_vectors = shift(f, d);
    assign<backend::Simt>(on_lanes, shift(f, d), AssignSet{});
    on_scalar_layout = shift(f_scalar, d);
    auto expected = [&](const Coordinate& x) { return peek(f, displaced(x, d, geometry.dims())); };
    EXPECT_TRUE(field_matches(on_vectors, expected, 0.0)) << "displacement " << to_string(d);
    EXPECT_TRUE(field_matches(on_lanes, expected, 0.0)) << "per-lane, displacement " << to_string(d);
    EXPECT_TRUE(field_matches(on_scalar_layout, expected, 0.0)) << "scalar layout, displacement " << to_string(d);
  }
};

// Number of dimensions split over lanes in a field of Real on `geometry`.
template <class Real>
int split_dimensions(const Geometry& geometry) {
  const Coordinate simd = geometry.simd_layout_for(vector_lanes<Real>());
  int split = 0;
  for (int s : simd) split += s > 1;
  return split;
}

template <class Real>
void every_direction_and_sign(int dimensions) {
  ShiftFixture<Real> fixture(Coordinate(dimensions, 4));
  if ((1 << dimensions) <= vector_lanes<Real>()) {  // premise of the test: all dimensions cross lanes
    EXPECT_EQ(split_dimensions<Real>(fixture.geometry), dimensions);
  }
  for (int mu = 0; mu < dimensions; ++mu)
    for (int sign : {+1, -1}) fixture.expect_shift(unit_displacement(dimensions, mu, sign));
}

TEST(Shift, EveryDirectionAndSignDouble2D) { every_direction_and_sign<double>(2); }
TEST(Shift, EveryDirectionAndSignDouble3D) { every_direction_and_sign<double>(3); }
TEST(Shift, EveryDirectionAndSignDouble4D) { every_direction_and_sign<double>(4); }
TEST(Shift, EveryDirectionAndSignFloat3D) { every_direction_and_sign<float>(3); }
TEST(Shift, EveryDirectionAndSignFloat4D) { every_direction_and_sign<float>(4); }

TEST(Shift, ManyLanesAlongOneDimension) {
  // All lanes along dimension 0: crossings are lane rotations, not swaps.
  const int lanes = vector_lanes<double>();
  ShiftFixture<double> fixture({2 * lanes, 3});
  ASSERT_EQ(fixture.geometry.simd_layout_for(lanes), (Coordinate{lanes, 1}));
  for (int step : {+1, -1, +3, -5}) fixture.expect_shift({step, 0});
}

TEST(Shift, ExplicitSimdLayout) {
  const int lanes = vector_lanes<double>();
  if (lanes < 4) GTEST_SKIP() << "needs at least four lanes";
  // The explicit layout applies to fields built on that geometry.
  Geometry g({8, 4, 4}, {lanes / 4, 2, 2});
  Lattice<ComplexD, VectorWidth> f(g), out(g);
  EXPECT_EQ(f.layout().simd_layout(), (Coordinate{lanes / 4, 2, 2}));
  ParallelRng rng(3);
  rng.gaussian(f);
  for (int mu = 0; mu < 3; ++mu) {
    out = shift(f, mu, +1);
    EXPECT_TRUE(field_matches(out, [&](const Coordinate& x) {
      return peek(f, displaced(x, unit_displacement(3, mu, +1), g.dims()));
    }, 0.0));
  }
}

TEST(Shift, DiagonalAndLongDisplacements) {
  ShiftFixture<double> fixture({4, 4, 8});
  for (const Coordinate& d : {Coordinate{1, 1, 0}, Coordinate{-1, 1, -1}, Coordinate{1, -1, 1},
                              Coordinate{2, -3, 5}, Coordinate{0, 0, 0}, Coordinate{-4, 7, -9}})
    fixture.expect_shift(d);
}

TEST(Shift, LatticeBoltzmannVelocitySets) {
  ShiftFixture<double> fixture2({8, 4});
  for (int cx = -1; cx <= 1; ++cx)
    for (int cy = -1; cy <= 1; ++cy) fixture2.expect_shift({cx, cy});  // D2Q9
  ShiftFixture<float> fixture3({4, 4, 4});
  for (int cx = -1; cx <= 1; ++cx)
    for (int cy = -1; cy <= 1; ++cy)
      for (int cz = -1; cz <= 1; ++cz) fixture3.expect_shift({cx, cy, cz});  // D3Q27 (contains D3Q19)
}

TEST(Shift, CompoundExpressionIsEvaluatedAtTheNeighbour) {
  ShiftFixture<double> fixture({4, 4, 4});
  const Geometry& g = fixture.geometry;
  Lattice<ColourVector<double>, VectorWidth> out(g), on_lanes(g);
  for (int mu = 0; mu < 3; ++mu) {
    const Coordinate d = unit_displacement(3, mu, -1);
    out = shift(fixture.U * fixture.c + fixture.c * 2.0, d);
    assign<backend::Simt>(on_lanes, shift(fixture.U * fixture.c + fixture.c * 2.0, d), AssignSet{});
    auto expected = [&](const Coordinate& x) {
      const Coordinate y = displaced(x, d, g.dims());
      return peek(fixture.U, y) * peek(fixture.c, y) + peek(fixture.c, y) * 2.0;
    };
    EXPECT_TRUE(field_matches(out, expected, 1e-14));
    EXPECT_TRUE(field_matches(on_lanes, expected, 1e-14));
  }
}

TEST(Shift, NestedShiftsCompose) {
  ShiftFixture<double> fixture({4, 4, 4});
  Lattice<ComplexD, VectorWidth> out(fixture.geometry);
  out = shift(shift(fixture.f, 0, +1), 1, -1) + shift(shift(fixture.f, 2, +1), 2, +1);
  EXPECT_TRUE(field_matches(out, [&](const Coordinate& x) {
    const Coordinate& dims = fixture.geometry.dims();
    return peek(fixture.f, displaced(x, {1, -1, 0}, dims)) + peek(fixture.f, displaced(x, {0, 0, 2}, dims));
  }, 1e-15));
}

TEST(Shift, StencilSumIsTheDiscreteLaplacian) {
  ShiftFixture<double> fixture({4, 4, 4});
  Lattice<ComplexD, VectorWidth> laplacian(fixture.geometry);
  const auto& f = fixture.f;
  laplacian = shift(f, 0, +1) + shift(f, 0, -1) + shift(f, 1, +1) + shift(f, 1, -1) + shift(f, 2, +1) +
              shift(f, 2, -1) - 6.0 * f;
  // Summation by parts: the Laplacian of a periodic field sums to zero.
  const ComplexD total = sum(laplacian);
  EXPECT_NEAR(total.re, 0.0, 1e-11);
  EXPECT_NEAR(total.im, 0.0, 1e-11);
}

TEST(Shift, ShiftingTheDestinationIsHandled) {
  // a = shift(a, ...) reads a at neighbours it may already have written; the
  // statement must still equal the mathematical result.
  ShiftFixture<double> fixture({4, 4, 4});
  Lattice<ComplexD, VectorWidth> a(fixture.geometry), original(fixture.geometry);
  a = fixture.f;
  original = fixture.f;
  a = shift(a, 0, +1);
  EXPECT_TRUE(field_matches(a, [&](const Coordinate& x) {
    return peek(original, displaced(x, {1, 0, 0}, fixture.geometry.dims()));
  }, 0.0));
  a = original;
  a += shift(a, 2, -1) * 2.0;
  EXPECT_TRUE(field_matches(a, [&](const Coordinate& x) {
    return peek(original, x) + peek(original, displaced(x, {0, 0, -1}, fixture.geometry.dims())) * 2.0;
  }, 1e-15));
}

// Interior sites (every reduced coordinate off the first and last plane)
// read one-step neighbours at a fixed offset without the tables
// (VectorSite::interior). The lattices above are mostly too small to have
// any; these have several per dimension in both precisions, and the shifts
// must still equal peek exactly, interior and boundary alike.
template <class Real>
void interior_sites_skip_the_tables(const Coordinate& dims) {
  ShiftFixture<Real> fixture(dims);
  const SiteLayout& layout = fixture.f.layout();
  const Coordinate& reduced = layout.reduced_dims();
  std::int64_t expected_interior = 1;
  for (int r : reduced) expected_interior *= r > 2 ? r - 2 : 0;
  ASSERT_GT(expected_interior, 0) << "premise: the lattice " << to_string(dims) << " has interior outer sites";
  const std::uint8_t* interior = layout.interior_sites();
  ASSERT_NE(interior, nullptr);
  std::int64_t counted = 0;
  for (std::int64_t o = 0; o < layout.outer_volume(); ++o) counted += interior[o];
  EXPECT_EQ(counted, expected_interior);
  for (int cx = -1; cx <= 1; ++cx)
    for (int cy = -1; cy <= 1; ++cy)
      for (int cz = -1; cz <= 1; ++cz) {
        const Coordinate d{cx, cy, cz};
        const DisplacementTable& table = layout.displacement(d);
        EXPECT_TRUE(table.interior_regular) << "displacement " << to_string(d);
        EXPECT_EQ(table.interior_offset, cx + reduced[0] * (cy + reduced[1] * cz)) << "displacement " << to_string(d);
        fixture.expect_shift(d);
      }
  EXPECT_FALSE(layout.displacement({2, 0, 0}).interior_regular) << "two steps may leave the interior";
  fixture.expect_shift({2, 0, -1});
  EXPECT_EQ(layout.checkerboard(Parity::even).interior_sites(), nullptr) << "a checkerboard has no fixed offsets";
}

TEST(Shift, InteriorSitesSkipTheTablesDouble) { interior_sites_skip_the_tables<double>({12, 12, 16}); }
TEST(Shift, InteriorSitesSkipTheTablesFloat) { interior_sites_skip_the_tables<float>({12, 12, 16}); }

}  // namespace
}  // namespace latte::testing
