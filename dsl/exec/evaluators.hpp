#pragma once
// Every node's evaluator: what a statement includes to prepare any
// expression (dsl/exec/prepare.hpp). make_evaluator is found by
// argument-dependent lookup, so the order of these files does not matter.

#include "dsl/exec/cast_evaluator.hpp"
#include "dsl/exec/leaf_evaluators.hpp"
#include "dsl/exec/let_evaluator.hpp"
#include "dsl/exec/map_evaluator.hpp"
#include "dsl/exec/prepare.hpp"
#include "dsl/exec/rhs_loop_evaluator.hpp"
#include "dsl/exec/shift_evaluator.hpp"
