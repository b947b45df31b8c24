#pragma once
// The evaluators of the leaves: a field view becomes its FieldAccess (the
// data pointer on the statement's memory side, read there); a constant is
// its own evaluator (it holds only its value).

#include "dsl/expr/expression.hpp"
#include "lattice/fields/field_view.hpp"

namespace latte {

template <class T, int Nsimd, int RecordWords, class Context>
FieldAccess<T, Nsimd, RecordWords> make_evaluator(const FieldView<T, Nsimd, RecordWords>& view, Context& context) {
  FieldView<T, Nsimd, RecordWords> bound = view;
  bound.bind(context.side(), Access::read);
  return {bound.data};
}

template <class S, class Context>
Constant<S> make_evaluator(const Constant<S>& constant, Context&) {
  return constant;
}

}  // namespace latte
