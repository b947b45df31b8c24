#pragma once
// The single assignment entry point: field op= expression, for =, +=, -=
// and *= alike. It checks geometry and precision, resolves aliasing, and
// hands one fused loop to the backend.
//
// Aliasing rule: pointwise statements read each site before writing it and
// are always safe (a = a * b + c). A statement whose right-hand side reads
// the destination at a neighbouring site (a = shift(a, 0, +1)) would read
// values it has already overwritten; it is evaluated into fresh storage that
// then replaces the destination's, so the result is what the maths says.
//
// Every statement runs the one sequence of dsl/statements/run_statement.hpp:
// its plan exchanges halos where a shift reads another rank's block, the
// expression's node is prepared into its evaluator in the plan
// (dsl/exec/prepare.hpp), and the backend runs the evaluator.

#include <stdexcept>
#include <type_traits>

#include "backends/backend.hpp"
#include "dsl/exec/evaluators.hpp"
#include "dsl/exec/statement_kernels.hpp"
#include "dsl/exec/statement_shape.hpp"
#include "dsl/expr/batch_lowering.hpp"
#include "dsl/expr/expression.hpp"
#include "dsl/expr/site_algebra_check.hpp"
#include "dsl/statements/reduce.hpp"
#include "dsl/statements/run_statement.hpp"

namespace latte {

// The node of a statement's right-hand side, after checking that it can be
// assigned to dst: same lattice, same precision and SIMD width.
template <class T, class W, class E>
auto statement_node(const Lattice<T, W>& dst, const E& expression) {
  const auto node = as_node(expression);
  using Node = std::remove_cvref_t<decltype(node)>;
  static_assert(Node::nsimd == 0 || Node::nsimd == Lattice<T, W>::nsimd,
                "Latte: the expression's SIMD width or precision differs from the destination field's");
  static_assert(std::is_void_v<typename Node::real_type> ||
                    std::is_same_v<typename Node::real_type, typename Lattice<T, W>::real_type>,
                "Latte: the expression's precision differs from the destination field's");
  if (const SiteLayout* layout = node.layout(); layout && !layout->same_as(dst.layout()))
    throw GeometryMismatch("Latte: cannot assign an expression on " + layout->describe() + " to a field on " +
                           dst.layout().describe());
  return node;
}

// The destination of a statement, bound for writing where Backend runs.
template <class Backend, class T, class W, class Op>
auto destination_view(const Lattice<T, W>& dst, Op) {
  auto view = dst.node();
  view.bind(Backend::memory_side, Op::reads_destination ? Access::read_write : Access::write);
  return view;
}

// dst op= node over every site of dst's layout, halos exchanged.
template <class Backend, class T, class W, class Node, class Op>
void assign_into(Lattice<T, W>& dst, const Node& node, Op op) {
  const SiteLayout& layout = dst.layout();
  run_statement<Backend>(
      layout,
      [&](auto& plan) {
        const auto evaluator = prepare(lower_batches(node), plan);
        constexpr int N = Lattice<T, W>::nsimd;
        using Kernel = AssignKernel<T, N, std::remove_const_t<decltype(evaluator)>, Op>;
        return PreparedStatement{Kernel{{destination_view<Backend>(dst, op).data}, evaluator},
                                 statement_shape<T, N>(StatementForm::assign, layout, Op::reads_destination,
                                                       evaluator.bytes_read_per_site),
                                 layout.interior_sites()};
      },
      [&] { return statement_model(dst, node, op); },
      [&] { return statement_name(dst.storage_identity(), assignment_symbol<Op>(), node); });
}

template <class Backend = backend::Default, class T, class W, class E, class Op>
void assign(Lattice<T, W>& dst, const E& expression, Op op) {
  if constexpr (std::is_same_v<E, ZeroTag>) {
    assign<Backend>(dst, Constant<T>{zero_value<T>()}, op);
  } else {
    const auto node = statement_node(dst, expression);
    if (node.reads_shifted(dst.storage_identity())) {
      // Fresh storage; it needs the old values only if op reads them (+=).
      Lattice<T, W> result = Op::reads_destination ? Lattice<T, W>(dst) : Lattice<T, W>(dst.geometry(), Uninitialized{});
      assign_into<Backend>(result, node, op);
      dst.swap(result);
      return;
    }
    assign_into<Backend>(dst, node, op);
  }
}

// An expression already refused where it was built (dsl/expr/site_algebra_check.hpp)
// is not assigned: its refusal stays the statement's only error.
template <class Backend = backend::Default, class T, class W, class Op>
void assign(Lattice<T, W>&, const RefusedExpression&, Op) {}

// dst op= expression, and in the same pass the sum over sites of
// `reduction`, an expression that may read the freshly written dst at the
// same site (never at a neighbour). The CG's r -= alpha * Ap with |r|^2 is
//   double rr = assign_and_sum(r, alpha * Ap, localNorm2(r), AssignSubtract{});
// and reads r and Ap once, writes r once.
template <class Backend = backend::Default, class T, class W, class E, class R, class Op = AssignSet>
auto assign_and_sum(Lattice<T, W>& dst, const E& expression, const R& reduction, Op op = {}) {
  const auto node = statement_node(dst, expression);
  const auto reduce_node = as_node(reduction);
  if (const SiteLayout* layout = reduce_node.layout(); !layout || !layout->same_as(dst.layout()))
    throw GeometryMismatch("Latte: the reduction of a fused statement must be over the destination's lattice " +
                           dst.layout().describe());
  if (reduce_node.reads_shifted(dst.storage_identity()))
    throw std::invalid_argument("Latte: a fused statement's reduction reads the destination at a neighbour, "
                                "which is being overwritten; reduce in a separate statement");
  if (node.reads_shifted(dst.storage_identity())) {
    assign<Backend>(dst, node, op);
    return reduce<SumCombine, Backend>(reduce_node);
  }
  const SiteLayout& layout = dst.layout();
  return run_statement<Backend, SumCombine>(
      layout,
      [&](auto& plan) {
        const auto evaluator = prepare(lower_batches(node), plan);
        const auto reduction_evaluator = prepare(lower_batches(reduce_node), plan);
        constexpr int N = Lattice<T, W>::nsimd;
        using Evaluator = std::remove_const_t<decltype(evaluator)>;
        using Kernel = AssignReduceKernel<T, N, Evaluator, Op, std::remove_const_t<decltype(reduction_evaluator)>>;
        return PreparedStatement{Kernel{{{destination_view<Backend>(dst, op).data}, evaluator}, reduction_evaluator},
                                 statement_shape<T, N>(StatementForm::assign_reduce, layout, Op::reads_destination,
                                                       Evaluator::bytes_read_per_site),
                                 layout.interior_sites()};
      },
      [&] { return fused_model(dst, node, reduce_node, op); },
      [&] { return fused_statement_name(dst.storage_identity(), assignment_symbol<Op>(), node, reduce_node); });
}

}  // namespace latte
