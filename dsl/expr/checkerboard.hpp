#pragma once
// Moving between a whole lattice and its checkerboards (lattice/layout/parity.hpp):
//   pick(Parity::even, f)   the even sites of an expression on the whole
//                           lattice, as an expression on the even checkerboard
//   merge(e, o)             the whole-lattice expression that is e on even
//                           sites and o on odd ones
// Both are gathers through tables like a shift's (SiteLayout::gather_into);
// the checkerboards share the whole lattice's lane grid, so no lanes move.

#include <type_traits>

#include "dsl/expr/shift.hpp"

namespace latte {

template <FieldOperand A>
auto pick(Parity parity, A&& operand) {
  auto node = to_node(std::forward<A>(operand));
  const SiteLayout* layout = node.layout();
  if (!layout) throw std::invalid_argument("Latte: pick of an expression without fields has no lattice");
  if (parity == Parity::all || layout->checkerboarded())
    throw GeometryMismatch("Latte: pick(" + to_string(parity) + ", f) needs f on the whole lattice and a parity; f is on " +
                           layout->describe());
  const SiteLayout& half = layout->checkerboard(parity);
  return Shift<decltype(node)>(node, layout->gather_into(half), half);
}

template <class E, class O>
struct Merge {
  static constexpr bool is_latte_expression = true;
  using value_type = typename E::value_type;
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site =
      E::bytes_read_per_site > O::bytes_read_per_site ? E::bytes_read_per_site : O::bytes_read_per_site;
  static_assert(std::is_same_v<typename E::value_type, typename O::value_type> && E::nsimd == O::nsimd,
                "Latte: merge needs even and odd parts of the same site type and precision");

  Shift<E> even;  // each gathers from its checkerboard; absent on the other parity
  Shift<O> odd;

  const SiteLayout* layout() const { return even.layout(); }
  bool reads(const void* p) const { return even.reads(p) || odd.reads(p); }
  bool reads_shifted(const void* p) const { return reads(p); }
  // Half the sites evaluate each part.
  static double flops_per_site() { return 0.5 * (E::flops_per_site() + O::flops_per_site()); }
  template <class Tally> void add_reads(Tally& tally, double weight) const {
    even.operand.add_reads(tally, 0.5 * weight);
    odd.operand.add_reads(tally, 0.5 * weight);
  }
  template <class Namer> void describe(Namer& namer, int) const {
    namer.text("merge(");
    even.operand.describe(namer, 0);
    namer.text(", ");
    odd.operand.describe(namer, 0);
    namer.text(")");
  }
};

template <FieldOperand A, FieldOperand B>
auto merge(A&& even_part, B&& odd_part) {
  auto e = to_node(std::forward<A>(even_part));
  auto o = to_node(std::forward<B>(odd_part));
  const SiteLayout* el = e.layout();
  const SiteLayout* ol = o.layout();
  if (!el || !ol || el->parity() != Parity::even || ol->parity() != Parity::odd || !el->opposite()->same_as(*ol))
    throw GeometryMismatch("Latte: merge(e, o) needs e on the even and o on the odd checkerboard of one lattice; got " +
                           (el ? el->describe() : std::string("no lattice")) + " and " +
                           (ol ? ol->describe() : std::string("no lattice")));
  const SiteLayout& whole = el->checkerboard(Parity::all);
  using EvenNode = decltype(e);
  using OddNode = decltype(o);
  return Merge<EvenNode, OddNode>{Shift<EvenNode>(e, el->gather_into(whole), whole),
                                  Shift<OddNode>(o, ol->gather_into(whole), whole)};
}

}  // namespace latte
