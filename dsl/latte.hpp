#pragma once
// Latte: LAttice Template Expressions. Include this one header.

#include "backends/backend.hpp"
#include "dsl/assign.hpp"
#include "dsl/expression.hpp"
#include "dsl/functions.hpp"
#include "dsl/map.hpp"
#include "dsl/operators.hpp"
#include "dsl/precision_cast.hpp"
#include "dsl/reduce.hpp"
#include "dsl/shift.hpp"
#include "dsl/spin.hpp"
#include "lattice/coordinate_field.hpp"
#include "lattice/geometry.hpp"
#include "lattice/lattice.hpp"
#include "lattice/peek_poke.hpp"
#include "lattice/random.hpp"
#include "lattice/site_types.hpp"
