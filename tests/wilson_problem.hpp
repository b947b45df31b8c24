#pragma once
// A random gauge field, the Wilson operator on it, a gaussian source b and
// x = 0: the system the solver tests solve.

#include <cstdint>
#include <utility>

#include "solvers/qcd/fermions/wilson_dirac.hpp"

namespace latte::testing {

template <class R>
struct WilsonProblem {
  Geometry geometry;
  GaugeField<R> U{geometry};
  WilsonDirac<R> M{U, 0};
  Lattice<Spinor<R>> b{geometry}, x{geometry};

  WilsonProblem(Coordinate dims, std::uint64_t seed, double mass) : geometry(std::move(dims)), M(U, mass) {
    ParallelRng rng(seed);
    U.set_random(rng);
    rng.gaussian(b);
    x = zero;
  }
};

}  // namespace latte::testing
