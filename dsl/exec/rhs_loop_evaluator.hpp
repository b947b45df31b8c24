#pragma once
// The evaluator of RhsLoop (dsl/batch_lowering.hpp): one evaluator per
// right-hand side, evaluated in turn at each site.

#include <cstddef>
#include <type_traits>

#include "dsl/batch_lowering.hpp"
#include "dsl/exec/prepare.hpp"
#include "lattice/site_types.hpp"

namespace latte {

template <class Element, int N>
struct RhsLoopEvaluator {
  using value_type = Batch<typename Element::value_type, N>;
  using real_type = typename Element::real_type;
  static constexpr int nsimd = Element::nsimd;
  static constexpr std::size_t bytes_read_per_site = N * Element::bytes_read_per_site;

  Element elements[N];

  // A site's batch (18 KB for 12 spinors in double at AVX-512, read from 8
  // neighbours) is more than the first-level cache holds. So where the
  // statement streams from memory, the backend's prefetch one site ahead
  // brings right-hand side 0 to the first level and the rest only to the
  // second, and eval brings each next right-hand side to the first level
  // while it computes the one before. Dslash at 24^4, 12 right-hand sides
  // (bench_wilson, 2 threads, Zen 5, 2026-11-27, three alternations against
  // all of a site to the first level): 33-38 -> 38-42 GFLOPS in double,
  // 69-74 -> 77-86 in single. With the fields in cache (8^4,
  // --no-interleave) the extra prefetches cost 10-15 %: there the whole
  // site goes to the first level as before.
  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    if constexpr (requires { s.to_second_level(); }) {
      if (s.from_memory) {
        elements[0].prefetch(s);
        const auto ahead = s.to_second_level();
        for (int k = 1; k < N; ++k) elements[k].prefetch(ahead);
        return;
      }
    }
    for (const auto& e : elements) e.prefetch(s);
  }
  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    using Value = std::remove_cvref_t<decltype(elements[0].eval(s))>;
    Batch<Value, N> out;
    for (int k = 0; k < N; ++k) {
      if constexpr (requires { s.from_memory; })
        if (s.from_memory && k + 1 < N) elements[k + 1].prefetch(s);
      out.v[k] = elements[k].eval(s);
    }
    return out;
  }
};

template <class Element, int N, class Context>
auto make_evaluator(const RhsLoop<Element, N>& node, Context& context) {
  using Evaluator = decltype(make_evaluator(node.elements[0], context));
  RhsLoopEvaluator<Evaluator, N> evaluator;
  for (int k = 0; k < N; ++k) evaluator.elements[k] = make_evaluator(node.elements[k], context);
  return evaluator;
}

}  // namespace latte
