#pragma once
// Reductions over whole-lattice expressions, each one fused pass:
//   sum(e)              sum over sites of the site tensor e(x)
//   norm2(e)            sum over sites of |e(x)|^2 (real)
//   innerProduct(a, b)  sum over sites of <a(x), b(x)> = sum conj(a) b
//   maxval(e), minval(e) for real-valued e
// Results are in double precision whatever the fields' precision, over every
// rank, and reproducible: the same bits for any number of ranks, process
// grid, SIMD width, thread count and backend (backends/common/reduction_blocks.hpp).

#include <type_traits>

#include "backends/backend.hpp"
#include "dsl/exec/evaluators.hpp"
#include "dsl/exec/statement_kernels.hpp"
#include "dsl/exec/statement_shape.hpp"
#include "dsl/expr/batch_lowering.hpp"
#include "dsl/expr/functors.hpp"
#include "dsl/expr/map.hpp"
#include "dsl/expr/site_algebra_check.hpp"
#include "dsl/statements/run_statement.hpp"

namespace latte {

template <class Combine, class Backend = backend::Default, class E>
auto reduce(const E& expression) {
  const auto node = as_node(expression);
  using Node = std::remove_cvref_t<decltype(node)>;
  static_assert(!std::is_void_v<typename Node::real_type>, "Latte: a reduction needs at least one field in its expression");
  const SiteLayout& layout = *node.layout();
  constexpr bool summed = std::is_same_v<Combine, SumCombine>;
  return run_statement<Backend, Combine>(
      layout,
      [&](auto& plan) {
        const auto evaluator = prepare(lower_batches(node), plan);
        using Evaluator = std::remove_const_t<decltype(evaluator)>;
        return PreparedStatement{ReduceKernel<Evaluator>{evaluator},
                                 StatementShape{StatementForm::reduce, false, 0, 0, Evaluator::bytes_read_per_site},
                                 nullptr};
      },
      [&] { return reduction_model(node, summed); },
      [&] {
        return statement_name(nullptr, summed ? "sum " : std::is_same_v<Combine, MaxCombine> ? "max " : "min ", node);
      });
}

// An expression already refused where it was built (dsl/expr/site_algebra_check.hpp)
// is not reduced: its refusal stays the statement's only error.
template <class Combine, class Backend = backend::Default>
double reduce(const RefusedExpression&) { return 0; }

template <class Backend = backend::Default, FieldOperand E>
auto sum(const E& e) { return reduce<SumCombine, Backend>(e); }

template <class Backend = backend::Default, FieldOperand E>
double norm2(const E& e) {
  if constexpr (any_refused<E>) {
    return 0;
  } else {
    auto node = as_node(e);
    return reduce<SumCombine, Backend>(Map<functors::LocalNorm2, decltype(node)>(node));
  }
}

template <class Backend = backend::Default, FieldOperand A, FieldOperand B>
auto innerProduct(const A& a, const B& b) {
  if constexpr (!site_defined<functors::LocalInnerProduct, A, B>) {
    static_assert(site_algebra_of<functors::LocalInnerProduct, A, B>::defined,
                  "Latte: innerProduct(a, b) is refused: an inner product is of two values of one kind");
    return 0.0;
  } else if constexpr (any_refused<A, B>) {
    return 0.0;
  } else {
    auto na = as_node(a);
    auto nb = as_node(b);
    return reduce<SumCombine, Backend>(Map<functors::LocalInnerProduct, decltype(na), decltype(nb)>(na, nb));
  }
}

template <class Backend = backend::Default, FieldOperand E>
double maxval(const E& e) { return reduce<MaxCombine, Backend>(e); }
template <class Backend = backend::Default, FieldOperand E>
double minval(const E& e) { return reduce<MinCombine, Backend>(e); }

}  // namespace latte

// Fields built from these expressions are assigned with statements: a file
// that includes only this header can write them (included last: dsl/statements/assign.hpp
// needs the DSL headers this one is built on, complete).
#include "dsl/statements/assign.hpp"
