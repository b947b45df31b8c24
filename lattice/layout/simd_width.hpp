#pragma once
// The width of the virtual-node layout a field uses, as a type: fields of
// the same width and precision share one SiteLayout and one vector type.
// Nsimd follows from the width and the precision (64 bytes: 8 doubles or
// 16 floats), as in Grid.

#include "platform/build.hpp"

namespace latte {

template <int Bytes>
struct SimdWidth {
  static constexpr int bytes = Bytes;
  template <class Real>
  static constexpr int lanes = Bytes == 0 ? 1 : Bytes / static_cast<int>(sizeof(Real));
};

// Single-precision fields with the lane count of double fields of width W
// (same SiteLayout): mixed-precision solvers change precision with one
// pointwise statement. On the CPU this needs a float vector of half W's
// bytes, so it is there for AVX-512 (8 lanes) and AVX (4 lanes), and one lane.
template <class W> using MatchingSingleWidth = SimdWidth<W::bytes / 2>;

using ScalarWidth = SimdWidth<0>;                   // Nsimd = 1: the reference layout
using DefaultWidth = SimdWidth<LATTE_SIMD_BYTES>;  // chosen at configure time

}  // namespace latte
