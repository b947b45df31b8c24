// The virtual-node layout: the map between global sites and
// (outer site, lane), the default lane grid, the shift tables, and the site
// numbering that random fields and masks rely on. Expected values come from
// the design's formulas, re-derived here with helpers that share no code with
// the library, so a wrong convention in the library cannot hide itself.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "test_support.hpp"

namespace {

using latte::Coordinate;
using latte::Geometry;
using latte::SiteLayout;

// Lexicographic numbering with dimension 0 fastest (the documented order of
// outer sites, lanes and global sites), written out independently.
Coordinate decode(std::int64_t index, const Coordinate& extents) {
  Coordinate x(extents.size());
  for (std::size_t mu = 0; mu < extents.size(); ++mu) {
    x[mu] = static_cast<int>(index % extents[mu]);
    index /= extents[mu];
  }
  return x;
}

std::int64_t encode(const Coordinate& x, const Coordinate& extents) {
  std::int64_t index = 0;
  for (int mu = static_cast<int>(extents.size()) - 1; mu >= 0; --mu) index = index * extents[mu] + x[mu];
  return index;
}

std::int64_t count_sites(const Coordinate& extents) {
  std::int64_t n = 1;
  for (int e : extents) n *= e;
  return n;
}

Coordinate reduced_extents(const Coordinate& dims, const Coordinate& simd) {
  Coordinate reduced(dims.size());
  for (std::size_t mu = 0; mu < dims.size(); ++mu) reduced[mu] = dims[mu] / simd[mu];
  return reduced;
}

// The site that lane `lane` of outer site `outer` holds: x = xo + reduced * xl.
Coordinate expected_site(const Coordinate& dims, const Coordinate& simd, std::int64_t outer, int lane) {
  const Coordinate reduced = reduced_extents(dims, simd);
  Coordinate x = decode(outer, reduced);
  const Coordinate xl = decode(lane, simd);
  for (std::size_t mu = 0; mu < x.size(); ++mu) x[mu] += reduced[mu] * xl[mu];
  return x;
}

std::string describe(const Coordinate& dims, const Coordinate& simd) {
  return "extents " + latte::to_string(dims) + " simd " + latte::to_string(simd);
}

struct LayoutCase {
  Coordinate dims;
  Coordinate simd;
};

// 2-, 3- and 4-d lattices with 1, 2, 4, 8 and 16 lanes, lanes piled on one
// dimension or spread out, and extents that are not powers of two.
const std::vector<LayoutCase> layout_cases = {
    {{8, 8}, {1, 1}},          {{6, 4}, {2, 1}},        {{6, 10}, {1, 2}},          {{4, 12}, {2, 2}},
    {{8, 6}, {4, 2}},          {{6, 4, 8}, {2, 1, 4}},  {{4, 6, 10}, {1, 2, 2}},    {{12, 3, 4}, {4, 1, 2}},
    {{8, 8, 8}, {2, 2, 2}},    {{16, 2, 2}, {16, 1, 1}}, {{4, 4, 4, 4}, {1, 2, 2, 4}}, {{4, 6, 2, 8}, {2, 2, 2, 2}},
    {{6, 4, 4, 6}, {1, 1, 2, 1}}};

void check_split_join(const SiteLayout& layout, const Coordinate& dims, const Coordinate& simd) {
  const std::int64_t volume = count_sites(dims);
  const int lanes = static_cast<int>(count_sites(simd));
  ASSERT_EQ(layout.nsimd(), lanes);
  ASSERT_EQ(layout.reduced_dims(), reduced_extents(dims, simd));
  ASSERT_EQ(layout.outer_volume() * layout.nsimd(), volume);
  ASSERT_EQ(layout.volume(), volume);

  // join must hit every site exactly once (a bijection) at the design's
  // formula, and split must undo it.
  std::vector<int> hits(volume, 0);
  for (std::int64_t o = 0; o < layout.outer_volume(); ++o) {
    for (int l = 0; l < lanes; ++l) {
      const Coordinate x = layout.join(o, l);
      ASSERT_EQ(x, expected_site(dims, simd, o, l)) << "outer " << o << " lane " << l;
      ASSERT_TRUE(layout.contains(x));
      ++hits[encode(x, dims)];
      const auto [outer, lane] = layout.split(x);
      ASSERT_EQ(outer, o);
      ASSERT_EQ(lane, l);
    }
  }
  // With split(join(o, l)) == (o, l) this makes split the inverse of join.
  for (std::int64_t i = 0; i < volume; ++i) ASSERT_EQ(hits[i], 1) << "site " << latte::to_string(decode(i, dims));
}

TEST(SiteLayout, SplitAndJoinAreInverseBijections) {
  for (const auto& c : layout_cases) {
    SCOPED_TRACE(describe(c.dims, c.simd));
    const SiteLayout layout(c.dims, c.simd);
    check_split_join(layout, c.dims, c.simd);
  }
}

TEST(SiteLayout, ExplicitLayoutThroughGeometry) {
  for (const auto& c : layout_cases) {
    SCOPED_TRACE(describe(c.dims, c.simd));
    const Geometry geometry(c.dims, c.simd);
    const int lanes = static_cast<int>(count_sites(c.simd));
    ASSERT_EQ(geometry.simd_layout_for(lanes), c.simd);
    check_split_join(geometry.layout(lanes), c.dims, c.simd);
  }
}

// The default policy, worked out by hand: factors of two are handed out from
// the last (slowest) dimension to the first, cycling round again, first only
// where the lane's block stays even, then while the remaining extent is even.
TEST(Geometry, DefaultSimdLayoutPolicy) {
  struct Case {
    Coordinate dims;
    int nsimd;
    Coordinate expected;
  };
  const std::vector<Case> cases = {
      {{8, 8, 8, 8}, 1, {1, 1, 1, 1}},  {{8, 8, 8, 8}, 2, {1, 1, 1, 2}},  {{8, 8, 8, 8}, 4, {1, 1, 2, 2}},
      {{8, 8, 8, 8}, 8, {1, 2, 2, 2}},  {{8, 8, 8, 8}, 16, {2, 2, 2, 2}}, {{8, 8, 8, 8}, 32, {2, 2, 2, 4}},
      {{4, 4, 4, 4}, 64, {2, 2, 4, 4}}, {{12, 8}, 8, {2, 4}},             {{6, 6}, 4, {2, 2}},
      // second round skips the dimensions whose halves are odd (3)
      {{8, 6, 6}, 16, {4, 2, 2}},
      // odd extents are never split
      {{8, 5, 4}, 4, {2, 1, 2}},        {{16, 1, 1}, 8, {8, 1, 1}},       {{3, 5, 7}, 1, {1, 1, 1}},
      // blocks that stay even come first (a rank's block of 8 8 8 2 can still be checkerboarded)
      {{8, 8, 8, 2}, 8, {2, 2, 2, 1}}};
  for (const auto& c : cases) {
    SCOPED_TRACE("extents " + latte::to_string(c.dims) + " nsimd " + std::to_string(c.nsimd));
    EXPECT_EQ(Geometry::default_simd_layout(c.dims, c.nsimd), c.expected);
    const Geometry geometry(c.dims);
    EXPECT_EQ(geometry.simd_layout_for(c.nsimd), c.expected);
    EXPECT_EQ(geometry.layout(c.nsimd).simd_layout(), c.expected);
  }
}

// An explicit lane grid serves only its own lane count; the others follow
// the default rule.
TEST(Geometry, ExplicitLayoutOnlyForItsLaneCount) {
  const Geometry geometry({8, 8, 8}, {2, 1, 4});
  EXPECT_EQ(geometry.layout(8).simd_layout(), (Coordinate{2, 1, 4}));
  EXPECT_EQ(geometry.layout(4).simd_layout(), (Coordinate{1, 2, 2}));
  EXPECT_EQ(geometry.layout(16).simd_layout(), (Coordinate{2, 2, 4}));
  EXPECT_EQ(geometry.layout(1).simd_layout(), (Coordinate{1, 1, 1}));
}

bool is_identity(const std::int32_t* map, int n) {
  for (int l = 0; l < n; ++l)
    if (map[l] != l) return false;
  return true;
}

void check_displacement(const SiteLayout& layout, const Coordinate& dims, const Coordinate& simd, const Coordinate& d) {
  SCOPED_TRACE("displacement " + latte::to_string(d));
  const latte::DisplacementTable& table = layout.displacement(d);
  const int lanes = layout.nsimd();
  const Coordinate reduced = reduced_extents(dims, simd);
  ASSERT_EQ(table.nsimd, lanes);
  ASSERT_GE(table.permutations(), 1);
  ASSERT_TRUE(is_identity(table.lane_map(0), lanes)) << "permutation 0 must be the identity";
  for (int p = 0; p < table.permutations(); ++p) {
    std::set<int> sources(table.lane_map(p), table.lane_map(p) + lanes);
    ASSERT_EQ(static_cast<int>(sources.size()), lanes) << "lane map " << p << " is not a permutation";
    ASSERT_TRUE(*sources.begin() == 0 && *sources.rbegin() == lanes - 1);
    if (p > 0) {
      ASSERT_FALSE(is_identity(table.lane_map(p), lanes)) << "lane map " << p << " repeats the identity";
    }
  }
  for (std::int64_t o = 0; o < layout.outer_volume(); ++o) {
    const std::int64_t n = table.neighbour[o];
    const int p = table.permutation[o];
    ASSERT_TRUE(n >= 0 && n < layout.outer_volume()) << "outer " << o;
    ASSERT_LT(p, table.permutations());
    for (int l = 0; l < lanes; ++l) {
      const Coordinate target = latte::testing::displaced(expected_site(dims, simd, o, l), d, dims);
      ASSERT_EQ(expected_site(dims, simd, n, table.lane_map(p)[l]), target) << "outer " << o << " lane " << l;
    }
    // Staying inside the sub-lattice along every split dimension means every
    // lane's neighbour is in its own virtual node: no permute.
    const Coordinate xo = decode(o, reduced);
    bool crosses = false;
    for (std::size_t mu = 0; mu < d.size(); ++mu)
      if (simd[mu] > 1 && (xo[mu] + d[mu] < 0 || xo[mu] + d[mu] >= reduced[mu])) crosses = true;
    if (!crosses) {
      ASSERT_EQ(p, 0) << "outer " << o << " does not cross a virtual-node boundary";
    }
  }
}

TEST(DisplacementTable, ReproducesShiftedSitesOnEveryLane) {
  std::mt19937 random(20240611);
  for (const auto& c : layout_cases) {
    SCOPED_TRACE(describe(c.dims, c.simd));
    const SiteLayout layout(c.dims, c.simd);
    const int nd = static_cast<int>(c.dims.size());
    std::vector<Coordinate> displacements{Coordinate(nd, 0)};
    for (int mu = 0; mu < nd; ++mu)
      for (int step : {+1, -1}) displacements.push_back(latte::unit_displacement(nd, mu, step));
    // Diagonal and long displacements, up to twice the extent either way
    // (so well past the reduced extent and past full wrap-arounds).
    for (int k = 0; k < 12; ++k) {
      Coordinate d(nd);
      for (int mu = 0; mu < nd; ++mu)
        d[mu] = std::uniform_int_distribution<int>(-2 * c.dims[mu], 2 * c.dims[mu])(random);
      displacements.push_back(d);
    }
    for (const auto& d : displacements) check_displacement(layout, c.dims, c.simd, d);

    // A unit shift permutes lanes only along a split dimension, and then all
    // boundary sites share one rotation of the lanes.
    for (int mu = 0; mu < nd; ++mu) {
      const auto& table = layout.displacement(latte::unit_displacement(nd, mu, +1));
      EXPECT_EQ(table.permutations(), c.simd[mu] > 1 ? 2 : 1) << "direction " << mu;
    }
    EXPECT_EQ(&layout.displacement(displacements.back()), &layout.displacement(displacements.back()))
        << "tables are built once and cached";
  }
}

TEST(Geometry, GlobalIndexAndParity) {
  const Geometry geometry({4, 6, 8});
  EXPECT_EQ(geometry.dimensions(), 3);
  EXPECT_EQ(geometry.volume(), 4 * 6 * 8);
  EXPECT_EQ(geometry.global_index({1, 2, 3}), 1 + 4 * (2 + 6 * 3));
  EXPECT_EQ(geometry.global_index({3, 5, 7}), 4 * 6 * 8 - 1);
  EXPECT_EQ(Geometry::parity({1, 2, 3}), 0);
  EXPECT_EQ(Geometry::parity({0, 0, 1}), 1);
  EXPECT_FALSE(geometry.contains({4, 0, 0}));
  EXPECT_FALSE(geometry.contains({0, -1, 0}));
  EXPECT_FALSE(geometry.contains({0, 0}));
  std::vector<int> hits(geometry.volume(), 0);
  for (int z = 0; z < 8; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 4; ++x) {
        const std::int64_t index = geometry.global_index({x, y, z});
        ASSERT_EQ(index, x + 4 * (y + 6 * z));
        ++hits[index];
        EXPECT_EQ(Geometry::parity({x, y, z}), (x + y + z) % 2);
        EXPECT_TRUE(geometry.contains({x, y, z}));
      }
  for (int h : hits) ASSERT_EQ(h, 1);
}

template <class R, class W>
void check_coordinate_fields(const Geometry& geometry) {
  SCOPED_TRACE("lanes " + std::to_string(W::template lanes<R>) + ", real of " + std::to_string(sizeof(R)) + " bytes");
  for (int mu = 0; mu < geometry.dimensions(); ++mu) {
    latte::Lattice<R, W> field(geometry);
    latte::fill_coordinate(field, mu);
    latte::testing::for_each_coordinate(geometry, [&](const Coordinate& x) {
      if (::testing::Test::HasFatalFailure()) return;  // report the first bad site only
      ASSERT_EQ(latte::peek(field, x), static_cast<R>(x[mu])) << "site " << latte::to_string(x) << " mu " << mu;
    });
  }
  latte::Lattice<R, W> parity(geometry);
  latte::fill_parity(parity);
  latte::testing::for_each_coordinate(geometry, [&](const Coordinate& x) {
    if (::testing::Test::HasFatalFailure()) return;
    int sum = 0;
    for (int v : x) sum += v;
    ASSERT_EQ(latte::peek(parity, x), static_cast<R>(sum % 2)) << "site " << latte::to_string(x);
  });
}

TEST(CoordinateFields, AgreeWithPeekAtEverySite) {
  const Geometry geometry({8, 6, 4, 4});
  check_coordinate_fields<double, latte::DefaultWidth>(geometry);
  check_coordinate_fields<float, latte::DefaultWidth>(geometry);
  check_coordinate_fields<double, latte::ScalarWidth>(geometry);
  // All of the build's double lanes on dimension 0 instead of the default.
  const Geometry piled({8, 6, 4, 4}, {latte::DefaultWidth::lanes<double>, 1, 1, 1});
  check_coordinate_fields<double, latte::DefaultWidth>(piled);
}

// double and float fields on one lattice use different lane counts, and so
// different layouts of one Geometry; they must coexist and agree.
TEST(Geometry, LayoutsForDifferentLaneCountsCoexist) {
  const Geometry geometry({8, 8, 8, 8});
  std::vector<const SiteLayout*> layouts;
  for (int lanes : {1, 2, 4, 8, 16}) layouts.push_back(&geometry.layout(lanes));
  int k = 0;
  for (int lanes : {1, 2, 4, 8, 16}) {
    EXPECT_EQ(layouts[k]->nsimd(), lanes);
    EXPECT_EQ(layouts[k]->outer_volume() * lanes, geometry.volume());
    EXPECT_EQ(&geometry.layout(lanes), layouts[k]) << "layouts are cached and stay put as others are added";
    ++k;
  }

  latte::Lattice<double> vector_double(geometry);
  latte::Lattice<float> vector_float(geometry);
  latte::Lattice<double, latte::ScalarWidth> scalar_double(geometry);
  EXPECT_EQ(vector_double.layout().nsimd(), latte::DefaultWidth::lanes<double>);
  EXPECT_EQ(vector_float.layout().nsimd(), latte::DefaultWidth::lanes<float>);
  EXPECT_EQ(scalar_double.layout().nsimd(), 1);
  EXPECT_EQ(&vector_double.layout(), &geometry.layout(latte::DefaultWidth::lanes<double>));
  EXPECT_EQ(&vector_float.layout(), &geometry.layout(latte::DefaultWidth::lanes<float>));

  for (int mu = 0; mu < 4; ++mu) {
    latte::fill_coordinate(vector_double, mu);
    latte::fill_coordinate(vector_float, mu);
    latte::fill_coordinate(scalar_double, mu);
    latte::testing::for_each_coordinate(geometry, [&](const Coordinate& x) {
      if (::testing::Test::HasFatalFailure()) return;  // report the first bad site only
      ASSERT_EQ(latte::peek(vector_double, x), x[mu]);
      ASSERT_EQ(latte::peek(vector_float, x), static_cast<float>(x[mu]));
      ASSERT_EQ(latte::peek(scalar_double, x), x[mu]);
    });
  }
}

// The tiled order of outer sites (large sites go through statements in it):
// every site exactly once, each column of tiles (the same tile in dimensions
// 0 .. nd-2) visited in one stretch, and within it the last dimension
// advancing one tile slice at a time, so a neighbour along it is at most two
// slices back.
TEST(TiledOrder, VisitsEverySiteOnceInColumnsOfTiles) {
  for (const Coordinate& reduced : {Coordinate{3, 5, 4, 7}, Coordinate{2, 2, 2, 2}, Coordinate{1, 3, 1, 2},
                                    Coordinate{4, 3, 5}, Coordinate{2, 1, 1, 1, 3}, Coordinate{8, 4, 6, 3}}) {
    const int tile = 2;
    const std::vector<std::int32_t> order = latte::tiled_site_order(reduced, tile);
    std::int64_t volume = 1;
    for (int extent : reduced) volume *= extent;
    ASSERT_EQ(static_cast<std::int64_t>(order.size()), volume) << latte::to_string(reduced);
    std::vector<int> seen(static_cast<std::size_t>(volume), 0);
    for (std::int32_t o : order) ++seen[static_cast<std::size_t>(o)];
    for (std::int64_t o = 0; o < volume; ++o) EXPECT_EQ(seen[static_cast<std::size_t>(o)], 1) << latte::to_string(reduced);
    const int nd = static_cast<int>(reduced.size());
    const auto column_of = [&](const Coordinate& x) {
      Coordinate corner(x.begin(), x.end() - 1);
      for (int& c : corner) c /= tile;
      return corner;
    };
    std::set<Coordinate> finished;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const Coordinate site = decode(order[i], reduced), previous = decode(order[i - 1], reduced);
      if (column_of(site) == column_of(previous)) {
        EXPECT_GE(site[nd - 1], previous[nd - 1]) << latte::to_string(reduced) << " at " << i;
        EXPECT_LE(site[nd - 1], previous[nd - 1] + 1) << latte::to_string(reduced) << " at " << i;
      } else {
        finished.insert(column_of(previous));
        EXPECT_EQ(finished.count(column_of(site)), 0u) << latte::to_string(reduced) << " column revisited at " << i;
        EXPECT_EQ(site[nd - 1], 0) << latte::to_string(reduced) << " column starts at " << i;
      }
    }
  }
  EXPECT_TRUE(latte::tiled_site_order(Coordinate{4, 4}, 2).empty());
}

}  // namespace
