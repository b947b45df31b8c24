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
//
// On a lattice spread over ranks, outer sites whose neighbour is in another
// block read the shifted value from the halo records instead
// (DisplacementTable::halo_entry); the statement plan fills them from
// messages (dsl/statements/statement_plan.hpp), packed on the rank that holds the
// operand: the shifted sub-expression is evaluated where its fields are,
// and its value is what is sent. The evaluation itself is the shift's
// evaluator (dsl/exec/shift_evaluator.hpp).

#include <cstdint>
#include <string>

#include "dsl/expr/expression.hpp"
#include "platform/displacement_table.hpp"

namespace latte {

template <class E>
struct Shift {
  static constexpr bool is_latte_expression = true;
  using value_type = typename E::value_type;
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;

  using operand_type = E;
  E operand;
  const DisplacementTable* source;  // host tables, owned by the layout
  const SiteLayout* destination;    // where the shifted expression lives
  // The displacement, kept only to name the statement (dsl/expr/statement_model.hpp);
  // gather: a pick between the whole lattice and a checkerboard.
  static constexpr int named_dimensions = 4;
  std::int8_t displacement[named_dimensions] = {};
  std::int8_t dimensions = 0;
  bool gather = false;

  Shift(const E& e, const Coordinate& displacement) : operand(e) {
    const SiteLayout* layout = e.layout();
    if (!layout) throw std::invalid_argument("Latte: shift of an expression without fields has no lattice");
    source = &layout->displacement(displacement);
    destination = &layout->shifted(displacement);
    remember(displacement);
  }
  // A unit step along mu (no displacement vector is made: a statement
  // repeated in a solver's iteration allocates nothing).
  Shift(const E& e, int mu, int step) : operand(e) {
    const SiteLayout* layout = e.layout();
    source = &layout->unit_displacement(mu, step);
    destination = &layout->checkerboard(layout->checkerboarded() ? latte::opposite(layout->parity()) : Parity::all);
    dimensions = static_cast<std::int8_t>(layout->dimensions());
    if (mu < named_dimensions) displacement[mu] = static_cast<std::int8_t>(step);
  }
  // The same shift of another operand (dsl/expr/batch_lowering.hpp: one element
  // of a batch).
  template <class Other>
  Shift(const E& e, const Shift<Other>& like)
      : operand(e), source(like.source), destination(like.destination), dimensions(like.dimensions),
        gather(like.gather) {
    for (int k = 0; k < named_dimensions; ++k) displacement[k] = like.displacement[k];
  }
  // Read e through a table that leads to another layout (dsl/expr/checkerboard.hpp).
  Shift(const E& e, const DisplacementTable& gather, const SiteLayout& to)
      : operand(e), source(&gather), destination(&to), gather(true) {}

  const SiteLayout* layout() const { return destination; }
  bool reads(const void* p) const { return operand.reads(p); }
  bool reads_shifted(const void* p) const { return operand.reads(p); }

  // The statement model: the operand is evaluated once per destination site,
  // at its neighbour, and reads what it reads there.
  static double flops_per_site() { return E::flops_per_site(); }
  template <class Tally> void add_reads(Tally& tally, double weight) const { operand.add_reads(tally, weight); }
  template <class Namer> void describe(Namer& namer, int) const {
    if (gather) {
      namer.gather_begin();
      operand.describe(namer, 0);
      namer.text(")");
      return;
    }
    const std::string closing = namer.shift_begin(displacement, dimensions);
    operand.describe(namer, 0);
    namer.shift_end(closing);
  }

 private:
  void remember(const Coordinate& d) {
    dimensions = static_cast<std::int8_t>(d.size());
    for (std::size_t k = 0; k < d.size() && k < named_dimensions; ++k)
      displacement[k] = static_cast<std::int8_t>(d[k] > 127 ? 127 : d[k] < -127 ? -127 : d[k]);
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
  if (step == 1 || step == -1) return Shift<decltype(node)>(node, mu, step);
  return Shift<decltype(node)>(node, unit_displacement(layout->dimensions(), mu, step));
}

}  // namespace latte
