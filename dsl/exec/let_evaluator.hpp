#pragma once
// The evaluators of let (dsl/expr/let.hpp). At a site, LetEvaluator evaluates
// its operand once and evaluates the body at a LetSite: the same site with
// the value beside it. The body's placeholders (LetValueEvaluator) read the
// value of their level from the innermost LetSite of that level.
//
// A LetSite is the site it extends (it derives from it), so every other
// evaluator reads it as before; a shift (dsl/exec/shift_evaluator.hpp)
// moves to its neighbour through the plain site, where no value is bound:
// a let-bound value is its site's, and a placeholder under a shift is
// refused when the statement is compiled.

#include <type_traits>

#include "dsl/exec/let_site.hpp"
#include "dsl/exec/prepare.hpp"
#include "dsl/expr/let.hpp"

namespace latte {

// Named so that the compiler's note on a refused shift says what it is.
template <int Level, bool Bound> struct let_value_at_a_neighbour { static constexpr bool allowed = Bound; };

template <int Level, class Value, class Real, int Nsimd>
struct LetValueEvaluator {
  using value_type = Value;
  using real_type = Real;
  static constexpr int nsimd = Nsimd;
  static constexpr std::size_t bytes_read_per_site = 0;

  template <class Site>
  LATTE_INLINE void prefetch(const Site&) const {}
  // A site without the value is a neighbour: refused in one line, with a
  // value of the right type so that nothing else is reported.
  template <class Site>
  LATTE_INLINE decltype(auto) eval(const Site& s) const {
    if constexpr (!binds_level<Level, Site>::value) {
      static_assert(let_value_at_a_neighbour<Level, binds_level<Level, Site>::value>::allowed,
                    "Latte: a let-bound value belongs to its site and cannot be shifted; shift the let's operand "
                    "(or let-bind the shifted expression) instead");
      return rebind_t<Value, typename Site::leaf_type>{};
    } else {
      return bound_value<Level>(s);
    }
  }
};

template <int Level, class Operand, class Body>
struct LetEvaluator {
  using value_type = typename Body::value_type;
  using real_type = typename common_real<typename Operand::real_type, typename Body::real_type>::type;
  static constexpr int nsimd = common_nsimd<Operand, Body>();
  static constexpr std::size_t bytes_read_per_site = Operand::bytes_read_per_site + Body::bytes_read_per_site;

  Operand operand;
  Body body;

  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    operand.prefetch(s);
    body.prefetch(s);
  }
  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    using Value = decltype(operand.eval(s));
    const LetSite<Site, Level, Value> bound_site{s, operand.eval(s)};
    return body.eval(bound_site);
  }
};

template <int L, class V, class R, int N, class Context>
LetValueEvaluator<L, V, R, N> make_evaluator(const LetValue<L, V, R, N>&, Context&) {
  return {};
}

template <int L, class O, class B, class Context>
auto make_evaluator(const Let<L, O, B>& node, Context& context) {
  auto operand = make_evaluator(node.operand, context);
  auto body = make_evaluator(node.body, context);
  return LetEvaluator<L, decltype(operand), decltype(body)>{operand, body};
}

}  // namespace latte
