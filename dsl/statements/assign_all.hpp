#pragma once
// Several destinations written in one pass over memory:
//
//   assign_all(std::tie(U, P), exp_times(eps, P, U), P - eps * F);
//
// destination i gets expression i, every destination on one lattice. An
// HMC step updates four links and four momenta this way in one sweep
// instead of eight, and each site reads what the expressions share once.
//
// Aliasing, generalised from assign (dsl/statements/assign.hpp): every value of a site
// is computed before the first store, so an expression may read any
// destination at the site itself (U = f(U, P) and P = g(U, P) see the old U
// and P). A destination that some expression reads at a neighbour would be
// read after other sites have overwritten it: it is written into fresh
// storage that then replaces it. The same field twice among the
// destinations is refused.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "dsl/exec/statement_kernels.hpp"
#include "dsl/exec/statement_shape.hpp"
#include "dsl/statements/assign.hpp"
#include "dsl/statements/run_statement.hpp"

namespace latte {

namespace assign_all_detail {

// One pass over the targets (the destinations or their fresh replacements).
template <class Backend, class Targets, class Nodes, std::size_t... I>
void run(const SiteLayout& layout, Targets& targets, const Nodes& nodes, std::index_sequence<I...>) {
  using First = std::remove_pointer_t<std::tuple_element_t<0, Targets>>;
  constexpr std::size_t site_bytes =
      (std::size_t(0) + ... +
       outer_site_bytes<typename std::remove_pointer_t<std::tuple_element_t<I, Targets>>::value_type, First::nsimd>());
  run_statement<Backend>(
      layout,
      [&](auto& plan) {
        const auto evaluators = std::make_tuple(prepare(lower_batches(std::get<I>(nodes)), plan)...);
        const auto views = std::make_tuple(destination_view<Backend>(*std::get<I>(targets), AssignSet{})...);
        using Destinations =
            OperandPack<std::index_sequence<I...>,
                        FieldAccess<typename std::remove_pointer_t<std::tuple_element_t<I, Targets>>::value_type,
                                    std::remove_pointer_t<std::tuple_element_t<I, Targets>>::nsimd>...>;
        using Expressions =
            OperandPack<std::index_sequence<I...>, std::remove_const_t<std::tuple_element_t<I, decltype(evaluators)>>...>;
        const StatementShape shape{
            StatementForm::assign, false, site_bytes * static_cast<std::size_t>(layout.outer_volume()), site_bytes,
            (std::size_t(0) + ... + std::remove_cvref_t<std::tuple_element_t<I, decltype(evaluators)>>::bytes_read_per_site)};
        return PreparedStatement{
            MultiAssignKernel<Destinations, Expressions>{{{{std::get<I>(views).data}}...}, {{std::get<I>(evaluators)}...}},
            shape, layout.interior_sites()};
      },
      [&] {
        // Every field the expressions read once, every destination written once.
        TrafficTally tally;
        (std::get<I>(nodes).add_reads(tally, 1.0), ...);
        StatementModel model;
        model.bytes_per_site = tally.bytes_per_site() + static_cast<double>(site_bytes) / First::nsimd;
        model.flops_per_site = (0.0 + ... + std::tuple_element_t<I, Nodes>::flops_per_site());
        model.sites = static_cast<double>(layout.volume());
        return model;
      },
      [&] {
        std::string name;
        ((name += (I ? "; " : "") + statement_name(std::get<I>(targets)->storage_identity(), " = ", std::get<I>(nodes))), ...);
        return name;
      });
}

}  // namespace assign_all_detail

template <class Backend = backend::Default, class... T, class... W, class... E>
void assign_all(std::tuple<Lattice<T, W>&...> destinations, const E&... expressions) {
  static_assert(sizeof...(T) == sizeof...(E), "Latte: assign_all needs one expression per destination");
  static_assert(sizeof...(T) > 0, "Latte: assign_all needs at least one destination");
  using Indices = std::index_sequence_for<T...>;
  const auto nodes = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::make_tuple(statement_node(std::get<I>(destinations), expressions)...);
  }(Indices{});
  const SiteLayout& layout = std::get<0>(destinations).layout();
  std::tuple<std::optional<Lattice<T, W>>...> fresh;
  std::tuple<Lattice<T, W>*...> targets;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    const void* identities[] = {std::get<I>(destinations).storage_identity()...};
    std::size_t i = 0;
    const auto check = [&](const auto& destination) {
      if (!destination.layout().same_as(layout))
        throw GeometryMismatch("Latte: assign_all writes destinations on different lattices: " + layout.describe() +
                               " and " + destination.layout().describe());
      for (std::size_t j = 0; j < i; ++j)
        if (identities[j] == identities[i])
          throw std::invalid_argument("Latte: assign_all names the same field as destination " + std::to_string(j) +
                                      " and " + std::to_string(i));
      ++i;
    };
    (check(std::get<I>(destinations)), ...);
    // A destination read at a neighbour by any expression gets fresh storage.
    const auto reads_shifted = [&](const void* identity) {
      return std::apply([&](const auto&... node) { return (node.reads_shifted(identity) || ...); }, nodes);
    };
    const auto target = [&](auto& destination, auto& spare) {
      using Field = std::remove_reference_t<decltype(destination)>;
      if (!reads_shifted(destination.storage_identity())) return &destination;
      spare.emplace(destination.geometry(), Uninitialized{});
      return static_cast<Field*>(&*spare);
    };
    targets = std::make_tuple(target(std::get<I>(destinations), std::get<I>(fresh))...);
    assign_all_detail::run<Backend>(layout, targets, nodes, Indices{});
    const auto replace = [](auto& destination, auto& spare) {
      if (spare) destination.swap(*spare);
    };
    (replace(std::get<I>(destinations), std::get<I>(fresh)), ...);
  }(Indices{});
}

}  // namespace latte
