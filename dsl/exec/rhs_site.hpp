#pragma once
// RhsSite: a site of a statement on a batch of right-hand sides, evaluated
// one right-hand side at a time (dsl/expr/batch_lowering.hpp). It is the site
// plus the index of the right-hand side being evaluated, chosen at run time:
// one evaluator serves every right-hand side, and the leaves of the batch
// (RhsFieldAccess, RhsConstant) read their element `rhs`. It derives from
// the site it extends, so every other evaluator reads it as that site.
//
// An evaluator that moves to another site (a shift's neighbour, a cast's
// site in the operand's precision) builds that site from plain_site_t and
// gives it the right-hand side back with with_rhs_of.

#include "dsl/exec/let_site.hpp"
#include "platform/build.hpp"

namespace latte {

template <class Site>
struct RhsSite : Site {
  int rhs;
};

template <class Site> struct plain_site<RhsSite<Site>> : plain_site<Site> {};

// `to`, a site reached from s, with s's right-hand side (if s has one).
template <class From, class To>
LATTE_INLINE auto with_rhs_of(const From& s, const To& to) {
  if constexpr (requires { s.rhs; }) return RhsSite<To>{to, s.rhs};
  else return to;
}

}  // namespace latte
