#pragma once
// The evaluator of Map<F, Args...>: the functor object (with its state) and
// the operands' evaluators, in the same flat aggregate as the node's.

#include <cstddef>
#include <type_traits>
#include <utility>

#include "dsl/exec/prepare.hpp"
#include "dsl/expr/map.hpp"

namespace latte {

template <class F, class... Args>
struct MapEvaluator {
  using real_type = typename common_real<typename Args::real_type...>::type;
  static constexpr int nsimd = common_nsimd<Args...>();
  template <class A> using lane_value = std::conditional_t<std::is_void_v<real_type>, typename A::value_type,
                                                          rebind_t<typename A::value_type, real_type>>;
  using value_type = decltype(std::declval<const F&>()(std::declval<lane_value<Args>>()...));
  static constexpr std::size_t bytes_read_per_site = (std::size_t(0) + ... + Args::bytes_read_per_site);
  using Pack = OperandPack<std::index_sequence_for<Args...>, Args...>;

  [[no_unique_address]] F function;
  Pack operands;

  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    return eval_impl(s, std::index_sequence_for<Args...>{});
  }
  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    prefetch_impl(s, std::index_sequence_for<Args...>{});
  }

 private:
  template <class Site, std::size_t... I>
  LATTE_INLINE auto eval_impl(const Site& s, std::index_sequence<I...>) const {
    return function(slot<I>(operands).eval(s)...);
  }
  template <class Site, std::size_t... I>
  LATTE_INLINE void prefetch_impl(const Site& s, std::index_sequence<I...>) const {
    (slot<I>(operands).prefetch(s), ...);
  }
};

template <class F, class... Args, class Context>
auto make_evaluator(const Map<F, Args...>& node, Context& context) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    using Evaluator = MapEvaluator<F, decltype(make_evaluator(slot<I>(node.operands), context))...>;
    // Operands in order: a field bound for reading before it is bound again.
    return Evaluator{node.function, {{make_evaluator(slot<I>(node.operands), context)}...}};
  }(std::index_sequence_for<Args...>{});
}

}  // namespace latte
