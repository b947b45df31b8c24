#pragma once
// The site tensors physicists name. R is the real leaf: double or float for
// storage and per-lane values; the vector path rebinds it to SIMD batches.

#include "lattice/tensors/tensor_ops.hpp"

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

// N right-hand sides kept together: a site holds one E for each of them,
// contiguously, so an operator that reads a link once per site applies it
// to all N (the multi-right-hand-side Dirac operator and CG). Products with
// a link map over the batch (the index kinds differ); a Batch of
// coefficients times a Batch of fields multiplies them element by element
// (lattice/tensors/tensor_ops.hpp).
template <class E, int N> using Batch = Vec<E, N, RhsIndex>;
template <class R, int N> using MultiSpinor = Batch<Spinor<R>, N>;
template <class T> struct batch_size { static constexpr int value = 0; };  // 0: not a batch
template <class E, int N> struct batch_size<Vec<E, N, RhsIndex>> { static constexpr int value = N; };
template <class T> inline constexpr int batch_size_v = batch_size<T>::value;
// A quark propagator from one source site: 12 columns, column
// k = 3 * spin + colour of the source, each a spinor field.
inline constexpr int propagator_columns = spins * colours;
template <class R> using PropagatorSite = MultiSpinor<R, propagator_columns>;

}  // namespace latte
