// push_in_place(f, e, d): f(x + d_k)[k] = e(x)[k], checked exactly against
// peek (a push moves data, it does no arithmetic here) on the build's SIMD
// layout, the per-lane path and the scalar layout. Every dimension of the
// lattices is split over lanes where the lane count allows, so pushes cross
// virtual-node boundaries in every direction.

#include "test_support.hpp"

namespace latte::testing {
namespace {

constexpr int push_elements = 6;
template <class Real> using Record = Vec<Real, push_elements, GenericIndex>;

// Displacements of a D3Q27-like stencil, one per element: the site itself,
// axes both ways, face and body diagonals.
const std::array<Coordinate, push_elements> push_displacements{
    Coordinate{0, 0, 0}, Coordinate{1, 0, 0}, Coordinate{0, -1, 0},
    Coordinate{0, 1, -1}, Coordinate{-1, -1, 1}, Coordinate{1, 1, 1}};

std::array<const Coordinate*, push_elements> push_targets() {
  std::array<const Coordinate*, push_elements> out;
  for (int k = 0; k < push_elements; ++k) out[k] = &push_displacements[k];
  return out;
}

// The cyclic in-place pattern: site x reads element k + 1 at x + d_{k+1} and
// writes it as element k at x + d_k, so it reads exactly the locations it
// writes. Afterwards f(y)[k] = old f(y - d_k + d_{k+1})[k + 1].
template <class F>
auto rotated_neighbours(const F& f) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    return pack<Record<typename F::real_type>>(shift(element<(K + 1) % push_elements>(f), push_displacements[(K + 1) % push_elements])...);
  }(std::make_index_sequence<push_elements>{});
}

template <class Backend, class W, class Real>
void expect_in_place_rotation(const Geometry& geometry, const char* what) {
  Lattice<Record<Real>, W> f(geometry);
  ParallelRng(21).gaussian(f);
  const Lattice<Record<Real>, W> before(f);
  push_in_place<Backend>(f, rotated_neighbours(f), push_targets());
  EXPECT_TRUE(field_matches(
      f,
      [&](const Coordinate& y) {
        Record<Real> expected;
        for (int k = 0; k < push_elements; ++k) {
          const int j = (k + 1) % push_elements;
          Coordinate from = y;
          for (std::size_t mu = 0; mu < y.size(); ++mu)
            from[mu] = y[mu] - push_displacements[k][mu] + push_displacements[j][mu];
          expected.v[k] = peek(before, displaced(from, Coordinate(y.size(), 0), geometry.dims())).v[j];
        }
        return expected;
      },
      0.0))
      << what << " on " << to_string(geometry.dims());
}

// Into another field, from an expression of the site alone.
template <class Backend, class W, class Real>
void expect_push_of_expression(const Geometry& geometry, const char* what) {
  Lattice<Record<Real>, W> f(geometry), g(geometry);
  ParallelRng(22).gaussian(f);
  g = zero;
  push_in_place<Backend>(g, Real(2) * f, push_targets());
  EXPECT_TRUE(field_matches(
      g,
      [&](const Coordinate& y) {
        Record<Real> expected;
        for (int k = 0; k < push_elements; ++k) {
          Coordinate from = y;
          for (std::size_t mu = 0; mu < y.size(); ++mu) from[mu] = y[mu] - push_displacements[k][mu];
          expected.v[k] = Real(2) * peek(f, displaced(from, Coordinate(y.size(), 0), geometry.dims())).v[k];
        }
        return expected;
      },
      0.0))
      << what << " on " << to_string(geometry.dims());
}

// The last one puts four or more virtual nodes along x where the lanes
// allow: a lane permutation that is not its own inverse.
const std::vector<Coordinate> push_lattices{{8, 8, 8}, {4, 6, 8}, {32, 2, 2}};

TEST(Push, ElementsGoToTheirNeighboursOnEveryLowering) {
  for (const Coordinate& dims : push_lattices) {
    const Geometry geometry(dims);
    expect_push_of_expression<backend::Default, VectorWidth, double>(geometry, "vector lowering, double");
    expect_push_of_expression<backend::Default, VectorWidth, float>(geometry, "vector lowering, single");
    expect_push_of_expression<backend::Simt, VectorWidth, double>(geometry, "per-lane lowering");
    expect_push_of_expression<backend::Default, ScalarWidth, double>(geometry, "scalar layout");
  }
}

TEST(Push, InPlaceReadsEveryLocationBeforeItIsWritten) {
  for (const Coordinate& dims : push_lattices) {
    const Geometry geometry(dims);
    expect_in_place_rotation<backend::Default, VectorWidth, double>(geometry, "vector lowering, double");
    expect_in_place_rotation<backend::Default, VectorWidth, float>(geometry, "vector lowering, single");
    expect_in_place_rotation<backend::Simt, VectorWidth, double>(geometry, "per-lane lowering");
    expect_in_place_rotation<backend::Simt, VectorWidth, float>(geometry, "per-lane lowering, single");
    expect_in_place_rotation<backend::Default, ScalarWidth, double>(geometry, "scalar layout");
  }
}

TEST(Push, SomeLatticeHasAPermutationThatIsNotItsOwnInverse) {
  if (vector_lanes<float>() < 8) GTEST_SKIP() << "fewer than 8 single-precision lanes in this build";
  EXPECT_GE(Geometry(push_lattices.back()).simd_layout_for(vector_lanes<float>())[0], 4);
}

TEST(Push, WrongDisplacementsAreRefused) {
  const Geometry geometry({8, 8, 8});
  Lattice<Record<double>> f(geometry);
  f = zero;
  const Coordinate flat{1, 0};
  auto targets = push_targets();
  targets[3] = &flat;
  const std::string message = error_of<std::invalid_argument>([&] { push_in_place(f, f, targets); });
  EXPECT_NE(message.find("displacement 3 has 2 components on a 3-dimensional lattice"), std::string::npos) << message;
}

}  // namespace
}  // namespace latte::testing
