#pragma once
// The evaluator of precision_cast<To>(e): the operand evaluated at the same
// site seen in its own precision, its reals converted lane by lane.

#include <type_traits>

#include "dsl/exec/prepare.hpp"
#include "dsl/exec/rhs_site.hpp"
#include "dsl/expr/precision_cast.hpp"
#include "lattice/tensors/site_index.hpp"

namespace latte {

template <class To, class E>
struct CastEvaluator {
  using From = typename E::real_type;
  using value_type = rebind_t<typename E::value_type, To>;
  using real_type = To;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;

  E operand;

  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    operand.prefetch(source_site(s));
  }

  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    using Leaf = typename Site::leaf_type;
    const auto& value = operand.eval(source_site(s));
    if constexpr (Site::is_vector) {
      using Ops = typename Site::ops_type;
      return transform_leaves<rebind_t<typename E::value_type, Leaf>>(
          [](const auto& x) LATTE_LAMBDA { return Ops::template convert<Leaf>(x); }, value);
    } else {
      return transform_leaves<rebind_t<typename E::value_type, Leaf>>(
          [](const auto& x) LATTE_LAMBDA { return static_cast<Leaf>(x); }, value);
    }
  }

 private:
  // The same site (and right-hand side), seen by the operand's precision.
  template <class Site>
  LATTE_INLINE static auto source_site(const Site& s) {
    if constexpr (Site::is_vector) {
      using Ops = typename Site::ops_type;
      using FromVector = typename Ops::template vector_for<From, nsimd>;
      return with_rhs_of(s, VectorSite<FromVector, From, Ops>{s.outer});
    } else {
      return with_rhs_of(s, LaneSite<From>{s.outer, s.lane});
    }
  }
};

template <class To, class E, class Context>
auto make_evaluator(const PrecisionCast<To, E>& node, Context& context) {
  auto operand = make_evaluator(node.operand, context);
  return CastEvaluator<To, decltype(operand)>{operand};
}

}  // namespace latte
