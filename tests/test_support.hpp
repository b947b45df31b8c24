#pragma once
// Shared helpers for the test suite: comparing fields site by site across
// SIMD layouts and backends, and lattices whose every dimension is split
// over SIMD lanes.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "dsl/latte.hpp"
#include "lattice/tensors/gamma.hpp"

namespace latte::testing {

using VectorWidth = DefaultWidth;  // the build's SIMD width (one lane in scalar builds)

// Largest absolute difference between two site tensors of the same shape.
template <class A, class B>
double max_abs_difference(const A& a, const B& b) {
  double worst = 0.0;
  for_each_leaf([&](const auto& x, const auto& y) {
    worst = std::max(worst, std::abs(static_cast<double>(x) - static_cast<double>(y)));
  }, a, b);
  return worst;
}

// Largest absolute value of any leaf, to turn absolute into relative errors.
template <class A>
double max_abs(const A& a) {
  double worst = 0.0;
  for_each_leaf([&](const auto& x) { worst = std::max(worst, std::abs(static_cast<double>(x))); }, a);
  return worst;
}

// Every site of the geometry (one parity of a checkerboard), in global
// lexicographic order.
template <class Visit>
void for_each_coordinate(const Geometry& geometry, Visit visit) {
  const std::int64_t whole_volume = product(geometry.dims());
  for (std::int64_t i = 0; i < whole_volume; ++i) {
    const Coordinate x = coordinate_from_index(i, geometry.dims());
    if (geometry.contains(x)) visit(x);
  }
}

// Fields a and b (possibly of different SIMD widths) agree at every site to
// within tolerance * (1 + |a(x)|).
template <class T, class WA, class WB>
::testing::AssertionResult fields_near(const Lattice<T, WA>& a, const Lattice<T, WB>& b, double tolerance) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool ok = true;
  for_each_coordinate(a.geometry(), [&](const Coordinate& x) {
    if (!ok) return;
    const T va = peek(a, x);
    const T vb = peek(b, x);
    const double difference = max_abs_difference(va, vb);
    if (!(difference <= tolerance * (1.0 + max_abs(va)))) {
      ok = false;
      result = ::testing::AssertionFailure() << "fields differ at site " << to_string(x) << " by " << difference;
    }
  });
  return result;
}

// Field a agrees at every site with reference(x) (a site tensor).
template <class T, class W, class Reference>
::testing::AssertionResult field_matches(const Lattice<T, W>& a, Reference reference, double tolerance) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool ok = true;
  for_each_coordinate(a.geometry(), [&](const Coordinate& x) {
    if (!ok) return;
    const T va = peek(a, x);
    const T expected = reference(x);
    const double difference = max_abs_difference(va, expected);
    if (!(difference <= tolerance * (1.0 + max_abs(expected)))) {
      ok = false;
      result = ::testing::AssertionFailure() << "site " << to_string(x) << " differs from the reference by "
                                             << difference;
    }
  });
  return result;
}

// The error text of `f()`, which must throw E.
template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& error) {
    return error.what();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

// Lanes a field of Real has in this build.
template <class Real>
constexpr int vector_lanes() {
  return VectorWidth::lanes<Real>;
}

// x + d with periodic wrap-around.
inline Coordinate displaced(const Coordinate& x, const Coordinate& d, const Coordinate& dims) {
  Coordinate y(x.size());
  for (std::size_t mu = 0; mu < x.size(); ++mu) y[mu] = ((x[mu] + d[mu]) % dims[mu] + dims[mu]) % dims[mu];
  return y;
}

// Every statement on the whole OpenMP team, however small the lattice
// (platform/parallel.hpp runs small ones on one thread): for the tests that
// the bits do not depend on the number of threads.
struct TeamForEveryStatement {
  std::int64_t before = team_above_bytes();
  TeamForEveryStatement() { team_above_bytes() = 0; }
  ~TeamForEveryStatement() { team_above_bytes() = before; }
  TeamForEveryStatement(const TeamForEveryStatement&) = delete;
  TeamForEveryStatement& operator=(const TeamForEveryStatement&) = delete;
};

}  // namespace latte::testing
