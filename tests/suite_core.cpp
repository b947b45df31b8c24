// The core tests, compiled as one translation unit: headers are parsed and
// templates instantiated once for all of them (nvcc spends some 20 s per
// translation unit before any of our code). Each test_*.cpp stays the home
// of one concept; the test_toy_*.cpp files each add a toy of one kind
// (a backend, a node, a statement form) the way docs/design/architecture.md
// says to.
#include "test_geometry.cpp"
#include "test_tensors.cpp"
#include "test_expressions.cpp"
#include "test_shift.cpp"
#include "test_push.cpp"
#include "test_assign_all.cpp"
#include "test_reductions.cpp"
#include "test_slice_sum.cpp"
#include "test_reproducible_sum.cpp"
#include "test_random.cpp"
#include "test_errors.cpp"
#include "test_gamma.cpp"
#include "test_statement_models.cpp"
#include "test_field_storage.cpp"
#include "test_math_functions.cpp"
#include "test_let.cpp"
#include "test_toy_backend.cpp"
#include "test_toy_node.cpp"
#include "test_toy_statement_form.cpp"
