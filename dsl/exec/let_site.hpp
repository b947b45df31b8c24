#pragma once
// LetSite: a site with a let-bound value beside it (dsl/expr/let.hpp,
// dsl/exec/let_evaluator.hpp). It derives from the site it extends, so
// every evaluator reads it as that site; one that moves to another site (a
// shift) starts from plain_site_t, where no value is bound.

#include <type_traits>

#include "platform/build.hpp"

namespace latte {

// Value is what the operand's evaluator returns: a reference where it reads
// a field (no copy of a large site), else the value itself.
template <class Site, int Level, class Value>
struct LetSite : Site {
  using outer_site = Site;
  static constexpr int let_level = Level;
  Value bound;
};

template <class Site> struct plain_site { using type = Site; };
template <class Site, int Level, class Value>
struct plain_site<LetSite<Site, Level, Value>> : plain_site<Site> {};
// The site without let-bound values, to move to a neighbour.
template <class Site> using plain_site_t = typename plain_site<Site>::type;

template <int Level, class Site> struct binds_level : std::false_type {};
template <int Level, class Site, int L, class Value>
struct binds_level<Level, LetSite<Site, L, Value>> : std::bool_constant<L == Level || binds_level<Level, Site>::value> {};

// The innermost value of this level, searched from the inside out.
template <int Level, class Site>
LATTE_INLINE const auto& bound_value(const Site& s) {
  if constexpr (Site::let_level == Level) return s.bound;
  else return bound_value<Level>(static_cast<const typename Site::outer_site&>(s));
}

}  // namespace latte
