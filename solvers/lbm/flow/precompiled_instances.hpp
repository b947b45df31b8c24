#pragma once
// Compiling the common lattice-Boltzmann simulations once per build instead
// of once per file, as solvers/qcd/fermions/precompiled_instances.hpp does for the
// Wilson solvers: define LATTE_PRECOMPILED_LBM for every file of a program
// and add one file per velocity set that defines the matching macro below as
// `template` before including solvers/lbm/flow/simulation.hpp. Elsewhere the
// macros are `extern template`, and those files use the one copy of
//   Simulation<D2Q9, double, Bgk or Trt> and Simulation<D3Q19, double, Bgk or Trt>
// at the build's default width (constructor, initialise, step, run, mass,
// total_momentum, max_speed; step<Backend> and run<Backend> for another
// backend are compiled where they are used). This project's tests, examples
// and benchmarks are built so (solvers/lbm/flow/instances/ in the source tree);
// the cuda backend is not.

#if defined(LATTE_PRECOMPILED_LBM)
#ifndef LATTE_LBM_D2Q9_INSTANCE
#define LATTE_LBM_D2Q9_INSTANCE extern template
#endif
#ifndef LATTE_LBM_D3Q19_INSTANCE
#define LATTE_LBM_D3Q19_INSTANCE extern template
#endif
#endif
