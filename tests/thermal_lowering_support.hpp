#pragma once
// The temperature's step on every lowering: three copies of one case (the
// build's SIMD layout, the scalar layout, and the SIMD layout run per lane
// by the simt lowering) step in the same sheared flow and must give the
// same populations to round-off. make(width) builds the case for a width
// (a SimdWidth value); used by the thermal tests of half-way and curved walls.

#include <cmath>

#include "solvers/lbm/thermal/thermal.hpp"
#include "test_support.hpp"

namespace latte::testing {

// Populations at rest about a random temperature in [0.5, 1.5], with noise
// of 0.01 on each (off equilibrium), from the seed.
template <class Heat>
void start_from_random_temperature(Heat& heat, unsigned seed) {
  typename Heat::ScalarField t(heat.geometry());
  typename Heat::PopulationField noise(heat.geometry());
  ParallelRng rng(seed);
  rng.uniform(t, 0.5, 1.5);
  rng.uniform(noise, -0.01, 0.01);
  heat.populations() = lbm::scalar_equilibrium_of<typename Heat::velocity_set>(t, RealVector<double, 2>{}) + noise;
}

template <class MakeCase>
void expect_thermal_step_same_on_every_lowering(const Geometry& g, MakeCase make) {
  auto vector = make(VectorWidth{});
  auto scalar = make(ScalarWidth{});
  auto lanes = make(VectorWidth{});
  Lattice<RealVector<double, 2>, VectorWidth> u(g);
  Lattice<RealVector<double, 2>, ScalarWidth> u_scalar(g);
  const auto shear = [](const Coordinate& x) {
    return RealVector<double, 2>{{0.05 * std::sin(0.4 * x[1]), 0.03 * std::cos(0.3 * x[0])}};
  };
  fill(u, shear);
  fill(u_scalar, shear);
  const auto start = vector.populations();
  const int steps = 15;
  vector.run(u, steps);
  scalar.run(u_scalar, steps);
  lanes.template run<backend::Simt>(u, steps);
  EXPECT_GT(norm2(vector.populations() - start), 1e-6);  // the state moved well beyond the tolerance
  EXPECT_TRUE(fields_near(vector.populations(), scalar.populations(), 1e-14));
  EXPECT_TRUE(fields_near(vector.populations(), lanes.populations(), 1e-14));
}

}  // namespace latte::testing
