#pragma once
// The sequence every statement runs, written once:
//
//   plan      a StatementPlan over the destination's layout;
//   prepare   the form's `prepare(plan)`: operands into evaluators (each
//             shift with a halo registers with the plan), destinations bound
//             for writing, and the kernel with its shape (dsl/exec/);
//   pattern   plan.run: halos, interior, surface, each range of sites handed
//             to the backend's site pattern under the traversal it chooses
//             for the shape, for_each_site or, for a reduction,
//             reduce_sites<Combine> with the ranges' accumulators merged;
//             then the form's `finish` (a push returns its halo records);
//   profile   with LATTE_PROFILE set, the whole of that timed and recorded
//             under the form's model and name (dsl/statements/statement_profile.hpp).
//
// The forms (assign, assign_and_sum, assign_all, reduce, push_in_place)
// only check their operands, resolve aliasing and say what `prepare`
// returns: a new form is one kernel in dsl/exec/statement_kernels.hpp and
// one function that calls run_statement.
//
// Operands are prepared before the destinations are bound: binding a
// destination for writing marks its other copies stale, and an operand may
// be the destination itself.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "backends/common/traversal.hpp"
#include "dsl/exec/statement_shape.hpp"
#include "dsl/statements/reduction_result.hpp"
#include "dsl/statements/statement_plan.hpp"
#include "dsl/statements/statement_profile.hpp"

namespace latte {

// What a form's prepare(plan) returns: the kernel, its shape, the interior
// flags the kernel may rely on (null where it may not), and what runs after
// the sites (NoFinish: nothing).
struct NoFinish {
  void operator()() const {}
};
template <class Kernel, class Finish = NoFinish>
struct PreparedStatement {
  Kernel kernel;
  StatementShape shape;
  const std::uint8_t* interior;
  Finish finish{};
};
template <class Kernel, class Finish = NoFinish>
PreparedStatement(Kernel, StatementShape, const std::uint8_t*, Finish = {}) -> PreparedStatement<Kernel, Finish>;

// Combine = void: the statement writes (for_each_site) and returns nothing.
// Otherwise it reduces (SumCombine, MaxCombine, MinCombine) and returns the
// result over every rank (dsl/statements/reduction_result.hpp).
template <class Backend, class Combine = void, class Prepare, class Model, class Name>
auto run_statement(const SiteLayout& layout, Prepare&& prepare, Model&& model, Name&& name) {
  StatementPlan<Backend> plan(layout);
  const auto statement = prepare(plan);
  if constexpr (std::is_void_v<Combine>) {
    const auto run = [&] {
      plan.run([&](SiteRange sites) {
        for_each_site<Backend>(statement.shape, layout, sites, statement.kernel, statement.interior);
      });
      statement.finish();
    };
    if (profile::listeners == 0) [[likely]] return run();
    profile::run_profiled<Backend>(run, model, name);
  } else {
    using Accumulator = decltype(reduce_sites<Backend, Combine>(statement.shape, layout, SiteRange{},
                                                                statement.kernel, statement.interior));
    Accumulator total = start_accumulator<Combine, Accumulator>();
    const auto run = [&] {
      plan.run([&](SiteRange sites) {
        merge_accumulators<Combine>(total, reduce_sites<Backend, Combine>(statement.shape, layout, sites,
                                                                          statement.kernel, statement.interior));
      });
      statement.finish();
    };
    if (profile::listeners == 0) [[likely]] run();
    else profile::run_profiled<Backend>(run, model, name);
    return reduction_over_ranks<Combine>(total, layout);
  }
}

}  // namespace latte
