#pragma once
// The single assignment entry point: field op= expression, for =, +=, -=
// and *= alike. It checks geometry and precision, resolves aliasing, and
// hands one fused loop to the backend.
//
// Aliasing rule: pointwise statements read each site before writing it and
// are always safe (a = a * b + c). A statement whose right-hand side reads
// the destination at a neighbouring site (a = shift(a, 0, +1)) would read
// values it has already overwritten; it is evaluated into fresh storage that
// then replaces the destination's, so the result is what the maths says.

#include <type_traits>

#include "backends/backend.hpp"
#include "dsl/expression.hpp"

namespace latte {

template <class Backend = backend::Default, class T, class W, class E, class Op>
void assign(Lattice<T, W>& dst, const E& expression, Op op) {
  if constexpr (std::is_same_v<E, ZeroTag>) {
    assign<Backend>(dst, Constant<T>{zero_value<T>()}, op);
  } else {
    const auto node = as_node(expression);
    using Node = std::remove_cvref_t<decltype(node)>;
    static_assert(Node::nsimd == 0 || Node::nsimd == Lattice<T, W>::nsimd,
                  "Latte: the expression's SIMD width or precision differs from the destination field's");
    static_assert(std::is_void_v<typename Node::real_type> ||
                      std::is_same_v<typename Node::real_type, typename Lattice<T, W>::real_type>,
                  "Latte: the expression's precision differs from the destination field's");
    if (const SiteLayout* layout = node.layout(); layout && !layout->same_as(dst.layout()))
      throw GeometryMismatch("Latte: cannot assign an expression on " + layout->describe() + " to a field on " +
                             dst.layout().describe());
    if (node.reads_shifted(dst.data())) {
      Lattice<T, W> result(dst);
      Backend::assign(result.view(), node, op);
      dst.swap(result);
      return;
    }
    Backend::assign(dst.view(), node, op);
  }
}

}  // namespace latte
