#pragma once
// The site tensors physicists name. R is the real leaf: double or float for
// storage and per-lane values; the vector path rebinds it to SIMD batches.

#include "lattice/tensor_ops.hpp"

namespace latte {

inline constexpr int colours = 3;  // SU(3)
inline constexpr int spins = 4;    // Dirac spinors in four dimensions

template <class R> using ColourVector = Vec<Complex<R>, colours, ColourIndex>;
template <class R> using ColourMatrix = Mat<Complex<R>, colours, ColourIndex>;
template <class R> using Spinor = Vec<ColourVector<R>, spins, SpinIndex>;
// Result of a spin projection (1 +- gamma_mu): two independent spin components.
template <class R> using HalfSpinor = Vec<ColourVector<R>, 2, SpinIndex>;
template <class R> using SpinMatrix = Mat<Complex<R>, spins, SpinIndex>;
// Lattice-Boltzmann populations f_i, i = 0..Q-1.
template <class R, int Q> using Populations = Vec<R, Q, PopulationIndex>;
// A small real vector (velocity, force, displacement).
template <class R, int N> using RealVector = Vec<R, N, GenericIndex>;

}  // namespace latte
