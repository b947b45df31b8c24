// Sums over the slices of one direction (lattice/fields/slice_sum.hpp): the same
// bits as one masked whole-lattice reduction per slice, on the whole
// lattice, on a checkerboard and for single-precision fields; a field of K
// reals gives the K sums of its components in one pass, each the bits of
// the component's own slice_sum.

#include <string>
#include <vector>

#include "lattice/fields/coordinate_field.hpp"
#include "lattice/fields/slice_sum.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// sum(f(x) where x[mu] = t), one reduction per slice: the definition.
template <class R, class W>
std::vector<double> masked_slice_sums(const Lattice<R, W>& field, int mu) {
  Lattice<R, W> coordinate(field.geometry()), nothing(field.geometry());
  fill_coordinate(coordinate, mu);
  std::vector<double> sums(field.geometry().dims()[mu]);
  for (std::size_t t = 0; t < sums.size(); ++t)
    sums[t] = sum(where(abs(coordinate - static_cast<R>(t)) < static_cast<R>(0.5), field, nothing));
  return sums;
}

TEST(SliceSum, EqualsOneMaskedReductionPerSliceBitForBit) {
  Geometry geometry({4, 6, 2, 8});
  Lattice<double> field(geometry);
  ParallelRng(3).uniform(field, -1.0, 2.0);
  for (int mu = 0; mu < 4; ++mu) {
    const std::vector<double> slices = slice_sum(field, mu);
    EXPECT_EQ(slices, masked_slice_sums(field, mu)) << "direction " << mu;
    // and the slices add up to the whole
    double total = 0;
    for (double s : slices) total += s;
    EXPECT_NEAR(total, sum(field), 1e-12 * norm2(field));
  }
}

TEST(SliceSum, OnACheckerboardAndInSinglePrecision) {
  Geometry geometry({4, 4, 4, 8});
  const Geometry even = geometry.checkerboard(Parity::even);
  Lattice<double> half(even);
  Lattice<float> single(geometry);
  ParallelRng rng(4);
  rng.gaussian(half);
  rng.gaussian(single);
  for (int mu = 0; mu < 4; ++mu) {
    EXPECT_EQ(slice_sum(half, mu), masked_slice_sums(half, mu)) << "direction " << mu;
    EXPECT_EQ(slice_sum(single, mu), masked_slice_sums(single, mu)) << "direction " << mu;
  }
}

TEST(SliceSum, ManyComponentsInOnePassAreEachComponentsOwnSums) {
  Geometry geometry({4, 4, 2, 8});
  Lattice<RealVector<double, 3>> vectors(geometry);
  Lattice<Complex<float>> complex_field(geometry);
  ParallelRng rng(6);
  rng.gaussian(vectors);
  rng.gaussian(complex_field);
  Lattice<double> component(geometry);
  Lattice<float> part(geometry);
  for (int mu = 0; mu < 4; ++mu) {
    const std::vector<std::vector<double>> sums = slice_sums(vectors, mu);
    ASSERT_EQ(sums.size(), 3u);
    component = element<0>(vectors);
    EXPECT_EQ(sums[0], slice_sum(component, mu)) << "direction " << mu;
    component = element<2>(vectors);
    EXPECT_EQ(sums[2], slice_sum(component, mu)) << "direction " << mu;
    EXPECT_NE(sums[1], sums[2]);
    // A complex field: (re, im), in single precision.
    const std::vector<std::vector<double>> parts = slice_sums(complex_field, mu);
    part = real(complex_field);
    EXPECT_EQ(parts[0], slice_sum(part, mu));
    part = imag(complex_field);
    EXPECT_EQ(parts[1], slice_sum(part, mu));
  }
}

TEST(SliceSum, DirectionOutsideTheLatticeIsNamed) {
  const Lattice<double> field(Geometry({4, 4, 4}));
  const std::string message = error_of<std::invalid_argument>([&] { slice_sum(field, 3); });
  EXPECT_NE(message.find("slice direction 3 outside a 3-dimensional lattice"), std::string::npos) << message;
}

}  // namespace
}  // namespace latte::testing
