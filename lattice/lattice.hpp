#pragma once
// Lattice<T>, a field over a Geometry (lattice/lattice_type.hpp), with what
// assigning to it needs (dsl/assign.hpp: a statement is one fused pass), so
// a file that includes only this header can create fields and assign them.

#include "lattice/lattice_type.hpp"
#include "dsl/assign.hpp"
