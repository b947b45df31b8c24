#pragma once
// Compiling the Wilson solvers once per build instead of once per file.
//
// The Wilson operators and solves are the largest statements of the library:
// every file that solves with them compiles their fused loops again (at -O3,
// about a minute of GCC per file for double, single and mixed precision).
// A program of several files may compile them once: define
// LATTE_PRECOMPILED_QCD for every file, and add one file per precision that
// defines the matching macro below as `template` before including the
// solver headers, e.g.
//   #define LATTE_QCD_DOUBLE_INSTANCE template
//   #include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
// (the mixed-precision file includes solvers/qcd/solves/wilson_solve_mixed.hpp).
// Elsewhere the macros are `extern template`: the other files use those
// copies for the build's default SIMD width (DefaultWidth), and still
// compile their own for any other width. This project's tests, examples and
// benchmarks are built so (solvers/qcd/solves/instances/ in the source tree); the
// cuda backend is not (its statements are kernels that each file launches
// itself).
//
// The instances:
//   double: WilsonDirac, WilsonEvenOdd (and the generic operators they are,
//           FermionOperator<WilsonAction>, EvenOddOperator<WilsonEvenOddAction>),
//           solve_wilson, solve_wilson_even_odd, relative_residual;
//   single: the same in float;
//   mixed:  the float operators on the lanes of the double ones
//           (MatchingSingleWidth) and the mixed-precision solves, where the
//           build has them (not the cpu backend at SSE2 width).

#include "platform/build.hpp"

#if defined(LATTE_PRECOMPILED_QCD)
#ifndef LATTE_QCD_DOUBLE_INSTANCE
#define LATTE_QCD_DOUBLE_INSTANCE extern template
#endif
#ifndef LATTE_QCD_SINGLE_INSTANCE
#define LATTE_QCD_SINGLE_INSTANCE extern template
#endif
#ifndef LATTE_QCD_MIXED_INSTANCE
#define LATTE_QCD_MIXED_INSTANCE extern template
#endif
// Mirrors mixed_precision_available<DefaultWidth> (solvers/qcd/solves/wilson_solve_mixed.hpp).
#if LATTE_SIMD_BYTES == 16 && LATTE_BUILD_BACKEND == LATTE_BUILD_CPU
#define LATTE_QCD_MIXED_PRECISION_INSTANCES 0
#else
#define LATTE_QCD_MIXED_PRECISION_INSTANCES 1
#endif
#endif
