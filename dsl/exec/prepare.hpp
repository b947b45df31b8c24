#pragma once
// prepare(node, context): the evaluator a kernel runs for an expression node.
//
// A node is a host-side description of an expression: its operands, the
// layout it lives on, what it reads (aliasing), how it is named and
// modelled in the statement profile. Its evaluator holds only what a kernel
// reads at a site -- data pointers, table and halo views, functor state --
// and is trivially copyable, so that the cpu loops capture it by value and
// the cuda lowering passes it as a kernel parameter. Preparing binds every
// field to the memory side the statement runs on and registers with the
// context (the statement plan, dsl/statements/statement_plan.hpp) each shift whose
// neighbours live on other ranks.
//
// Every evaluator E offers
//   E::value_type, E::real_type, E::nsimd, E::bytes_read_per_site
//   eval(site)       the value at a VectorSite (all lanes) or a LaneSite
//   prefetch(site)   request what eval(site) will read
// and for every node type there is a make_evaluator(node, context)
// (dsl/exec/evaluators.hpp) returning its evaluator.

#include <type_traits>

namespace latte {

template <class Node, class Context>
auto prepare(const Node& node, Context& context) {
  auto evaluator = make_evaluator(node, context);
  static_assert(std::is_trivially_copyable_v<decltype(evaluator)>,
                "Latte: an evaluator must be trivially copyable (it is copied into every kernel)");
  return evaluator;
}

}  // namespace latte
