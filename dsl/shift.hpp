#pragma once
// shift(e, d)(x) = e(x + d): the stencil node. Conventions (used everywhere,
// Grid's Cshift and QDP++'s shift(f, FORWARD, mu) agree):
//   shift(f, mu, +1)(x) = f(x + mu^)    the forward neighbour
//   shift(f, mu, -1)(x) = f(x - mu^)    the backward neighbour
// with periodic wrap-around. The operand may be any expression; it is
// evaluated at the neighbouring outer site, and where the neighbour lies in
// another virtual node the lanes of the result are permuted (vector path) or
// the neighbour's lane is read instead (per-lane path: a load swizzle).
// On a checkerboard a hop by an odd displacement lands on the other parity:
// shift of an odd field is an even-site expression (SiteLayout::shifted).

#include <cstdint>

#include "dsl/expression.hpp"
#include "lattice/displacement_table.hpp"

namespace latte {

template <class E>
struct Shift {
  static constexpr bool is_latte_expression = true;
  using value_type = typename E::value_type;
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;

  E operand;
  DisplacementView table;
  const DisplacementTable* source;  // host tables, owned by the layout
  const SiteLayout* destination;    // where the shifted expression lives

  Shift(const E& e, const Coordinate& displacement) : operand(e) {
    const SiteLayout* layout = e.layout();
    if (!layout) throw std::invalid_argument("Latte: shift of an expression without fields has no lattice");
    source = &layout->displacement(displacement);
    destination = &layout->shifted(displacement);
    table = source->host_view();
  }
  // Read e through a table that leads to another layout (dsl/checkerboard.hpp).
  Shift(const E& e, const DisplacementTable& gather, const SiteLayout& to)
      : operand(e), table(gather.host_view()), source(&gather), destination(&to) {}

  void bind(MemorySide side) {
    operand.bind(side);
    table = FieldMemory::table_view(*source, side);
  }

  const SiteLayout* layout() const { return destination; }
  bool reads(const void* p) const { return operand.reads(p); }
  bool reads_shifted(const void* p) const { return operand.reads(p); }

  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    operand.prefetch(Site{table.neighbour[s.outer]});
  }

  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    const std::int64_t neighbour = table.neighbour[s.outer];
    const int permutation = table.permutation[s.outer];
    if constexpr (Site::is_vector) {
      auto value = operand.eval(Site{neighbour});
      if (permutation != 0) Site::permute(value, table.lane_map(permutation));
      return value;
    } else {
      return operand.eval(Site{neighbour, table.lane_map(permutation)[s.lane]});
    }
  }
};

template <FieldOperand A>
auto shift(A&& operand, const Coordinate& displacement) {
  using Node = node_t<A>;
  return Shift<Node>(to_node(std::forward<A>(operand)), displacement);
}

template <FieldOperand A>
auto shift(A&& operand, int mu, int step) {
  auto node = to_node(std::forward<A>(operand));
  const SiteLayout* layout = node.layout();
  if (!layout) throw std::invalid_argument("Latte: shift of an expression without fields has no lattice");
  if (mu < 0 || mu >= layout->dimensions())
    throw std::invalid_argument("Latte: shift direction " + std::to_string(mu) + " outside a " +
                                std::to_string(layout->dimensions()) + "-dimensional lattice");
  return Shift<decltype(node)>(node, unit_displacement(layout->dimensions(), mu, step));
}

}  // namespace latte
