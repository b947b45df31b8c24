// A let-bound value belongs to its site: shifting the placeholder is
// refused where the statement is compiled (shift the operand instead).
// expect-error: Latte: a let-bound value belongs to its site and cannot be shifted
// expect-kinds: let_value_at_a_neighbour<0, false>::allowed
#include "dsl/expr/let.hpp"
#include "dsl/expr/operators.hpp"
#include "dsl/expr/shift.hpp"
#include "dsl/statements/assign.hpp"

void let_value_shifted(const latte::Lattice<double>& a, latte::Lattice<double>& b) {
  b = latte::let(a * a, [](const auto& x) { return shift(x, 0, +1) + x; });
}
