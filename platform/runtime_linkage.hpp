#pragma once
// Where Latte's run-time code is compiled: the non-template functions that
// build layouts, decompositions, shift tables and communicators.
//
// By default their definitions are in the headers, marked inline, so Latte
// works header-only. Every file of a program then compiles its own copy
// (measured: about 3 MB of identical object code over the project's 20
// files). A program of several files compiles them once instead by linking
// the latte::runtime library: it defines LATTE_COMPILED_RUNTIME for its
// users, whose headers then only declare these functions.
//
//   LATTE_RUNTIME_DEFINITIONS  1 where this file must define them
//   LATTE_RUNTIME_INLINE       how those definitions are marked

#if defined(LATTE_BUILDING_RUNTIME)
// lattice/layout/compiled_runtime.cpp: the one copy, with external linkage.
#define LATTE_RUNTIME_DEFINITIONS 1
#define LATTE_RUNTIME_INLINE
#elif defined(LATTE_COMPILED_RUNTIME)
#define LATTE_RUNTIME_DEFINITIONS 0
#define LATTE_RUNTIME_INLINE
#else
#define LATTE_RUNTIME_DEFINITIONS 1
#define LATTE_RUNTIME_INLINE inline
#endif
