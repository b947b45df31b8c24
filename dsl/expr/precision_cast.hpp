#pragma once
// precision_cast<To>(e): e with its reals converted to To (float or double),
// lane by lane. The fields of e and the destination must have the same lane
// count, i.e. the same SiteLayout: a float field of width
// MatchingSingleWidth<W> beside double fields of width W. Mixed-precision
// solvers use it to move vectors between their precisions in one statement.

#include <type_traits>

#include "dsl/expr/expression.hpp"

namespace latte {

template <class To, class E>
struct PrecisionCast {
  static constexpr bool is_latte_expression = true;
  using From = typename E::real_type;
  static_assert(!std::is_void_v<From>, "Latte: precision_cast needs an expression of fields");
  using value_type = rebind_t<typename E::value_type, To>;
  using real_type = To;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;

  E operand;

  const SiteLayout* layout() const { return operand.layout(); }
  bool reads(const void* p) const { return operand.reads(p); }
  bool reads_shifted(const void* p) const { return operand.reads_shifted(p); }

  static double flops_per_site() { return E::flops_per_site(); }  // conversions are not flops
  template <class Tally> void add_reads(Tally& tally, double weight) const { operand.add_reads(tally, weight); }
  template <class Namer> void describe(Namer& namer, int) const {
    namer.text(sizeof(To) == 8 ? "double(" : "float(");
    operand.describe(namer, 0);
    namer.text(")");
  }
};

template <class To, FieldOperand A>
auto precision_cast(A&& operand) {
  using Node = node_t<A>;
  return PrecisionCast<To, Node>{to_node(std::forward<A>(operand))};
}

}  // namespace latte
