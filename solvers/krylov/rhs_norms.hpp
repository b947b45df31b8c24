#pragma once
// |f_k| for every right-hand side k of a field or an expression, from one
// pass: N entries for a batch of N (Batch, lattice/tensors/site_types.hpp), one
// entry for an ordinary field. Solvers written once for both use it.

#include <cmath>
#include <type_traits>
#include <vector>

#include "dsl/latte.hpp"

namespace latte {

template <class E>
std::vector<double> rhs_norms(const E& e) {
  using Site = typename std::remove_cvref_t<E>::value_type;
  constexpr int n = batch_size_v<Site>;
  if constexpr (n == 0) {
    return {std::sqrt(norm2(e))};
  } else {
    const auto squares = sum(rhs_norm2(e));
    std::vector<double> out(n);
    for (int k = 0; k < n; ++k) out[k] = std::sqrt(squares.v[k]);
    return out;
  }
}

}  // namespace latte
