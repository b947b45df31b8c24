#pragma once
// The push statement: each element of a site's value goes to a neighbour.
//
//   push_in_place(f, e, {&d_0, &d_1, ...}):   f(x + d_k)[k] = e(x)[k]   for all x, k
//
// for a field f of vector sites (Vec: populations, spinor components), one
// displacement per element (zero: the element stays at x). It is the
// scatter that in-place lattice-Boltzmann streaming needs (the odd step of
// the AA pattern writes population i to x + c_i, solvers/lbm/streaming/in_place_streaming.hpp).
//
// In place: e may read f, at x and at neighbours, and no fresh storage is
// made. That is right when every site reads only locations it writes
// itself, so no site reads what another has written: the caller's promise,
// which the AA steps keep (each cell reads and writes the same Q
// locations). The whole value of a site is computed before its first store.
// A statement that breaks the promise gives an order-dependent result:
// use assign (dsl/statements/assign.hpp) for anything else.
//
// Lowering. The vector path stores an element that crosses a virtual-node
// boundary with the inverse of the lane permutation a shift along d_k
// applies; the per-lane path stores lane l where shift(f, d_k) would read it.
// On a lattice spread over ranks an element bound for another block goes to
// a halo record (the halo of d_k's table, all lanes per slot) and, once
// every site is done, travels back along that halo's messages: the same
// items as a shift along d_k uses, read backwards (the receiver of a shift's
// message sends, its sender receives and stores at the item's source site).
// Shifts that e reads are exchanged first, as in any statement.

#include <array>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "backends/backend.hpp"
#include "dsl/exec/halo_kernels.hpp"
#include "dsl/exec/statement_kernels.hpp"
#include "dsl/exec/statement_shape.hpp"
#include "dsl/statements/assign.hpp"
#include "dsl/statements/halo_sequence.hpp"
#include "dsl/statements/run_statement.hpp"

namespace latte {

namespace push_detail {

// Halo buffers of a push are kept apart from those of shifts along the same
// displacement in the same statement (a shift's occurrences count from 0).
inline constexpr int first_occurrence = 1 << 20;

inline bool is_zero(const Coordinate& d) {
  for (std::size_t k = 0; k < d.size(); ++k)
    if (d[k] != 0) return false;
  return true;
}

// Send each pushed element that lies in a halo record back to the rank that
// owns its site, and store it there: the halos' messages read backwards
// (dsl/statements/halo_sequence.hpp).
template <class Backend, class Real, int K>
void return_halos(const SiteLayout& layout, const std::array<const DisplacementTable*, K>& tables,
                  const std::array<HaloBuffers*, K>& buffers, Real* field, int record_stride, int element_words,
                  int nsimd) {
  constexpr MemorySide side = Backend::memory_side;
  const auto for_each_message = [&](auto&& body) {
    for (int k = 0; k < K; ++k) {
      if (!buffers[k]) continue;
      const auto& messages = tables[k]->halo->messages;
      for (std::size_t m = 0; m < messages.size(); ++m) body(k, *buffers[k], m, messages[m]);
    }
  };
  const HaloSequence<Backend> sequence(layout.decomposition().communicator(), HaloDirection::backward);
  sequence.start(for_each_message, [&](int k, std::size_t, const HaloMessage& message, void* payload) {
    const HaloItemsView items = message.view(side);
    Backend::for_each_halo_item(
        items, ReturnKernel<Real>{items, static_cast<const Real*>(buffers[k]->records.data(side, Access::read)),
                                  static_cast<Real*>(payload), element_words, nsimd});
  });
  sequence.finish(for_each_message, [&](int k, std::size_t, const HaloMessage& message, const void* payload) {
    const HaloItemsView items = message.view(side);
    Backend::for_each_halo_item(items, DeliverKernel<Real>{items, static_cast<const Real*>(payload),
                                                           field + static_cast<std::ptrdiff_t>(k) * element_words * nsimd,
                                                           record_stride, element_words, nsimd});
  });
}

}  // namespace push_detail

template <class Backend = backend::Default, class T, class W, class E, std::size_t K>
void push_in_place(Lattice<T, W>& dst, const E& expression, const std::array<const Coordinate*, K>& displacements) {
  static_assert(is_vec<T>::value, "Latte: push_in_place needs a field of vector sites (one displacement per element)");
  static_assert(K == static_cast<std::size_t>(T::size), "Latte: push_in_place needs one displacement per element");
  using Real = real_of_t<T>;
  constexpr int N = Lattice<T, W>::nsimd;
  constexpr int element_words = words_v<typename T::element_type>;
  constexpr MemorySide side = Backend::memory_side;
  const SiteLayout& layout = dst.layout();
  if (layout.checkerboarded())
    throw std::invalid_argument("Latte: push_in_place on a checkerboard (a push must stay on the sites it reads)");
  const auto node = statement_node(dst, expression);

  for (std::size_t k = 0; k < K; ++k)
    if (displacements[k]->size() != static_cast<std::size_t>(layout.dimensions()))
      throw std::invalid_argument("Latte: push_in_place displacement " + std::to_string(k) + " has " +
                                  std::to_string(displacements[k]->size()) + " components on a " +
                                  std::to_string(layout.dimensions()) + "-dimensional lattice");
  run_statement<Backend>(
      layout,
      [&](auto& plan) {
        const auto evaluator = prepare(lower_batches(node), plan);  // operands first: the destination is one of them
        auto view = dst.node();
        view.bind(side, Access::read_write);
        using Kernel = PushKernel<T, N, std::remove_const_t<decltype(evaluator)>, static_cast<int>(K)>;
        Kernel kernel{{view.data}, evaluator, {}, {}, {}};
        std::array<const DisplacementTable*, K> tables{};
        std::array<HaloBuffers*, K> buffers{};
        // At an interior site every element's target is a fixed distance from
        // the site's own record when every target table is interior_regular (or
        // the element stays put): one precomputed offset per element, instead of
        // two table reads and two tests per element.
        bool interior_targets_regular = true;
        bool any_halo = false;
        for (std::size_t k = 0; k < K; ++k) {
          kernel.table[k] = DisplacementView{nullptr, nullptr, nullptr, N};
          kernel.records[k] = nullptr;
          kernel.interior_target[k] = static_cast<std::int64_t>(k) * element_words * N;
          if (push_detail::is_zero(*displacements[k])) continue;
          tables[k] = &layout.displacement(*displacements[k]);
          const DisplacementView& t = kernel.table[k] = FieldMemory::table_view(*tables[k], side);
          if (!t.interior_regular) interior_targets_regular = false;
          kernel.interior_target[k] += t.interior_offset * FieldAccess<T, N>::record_stride;
          if (tables[k]->halo) {
            buffers[k] = &tables[k]->halo->buffers(sizeof(Real), element_words, N,
                                                   push_detail::first_occurrence + static_cast<int>(k));
            kernel.records[k] = static_cast<Real*>(buffers[k]->records.data(side, Access::read_write));
            any_halo = true;
          }
        }
        // Once every site is done, the elements bound for other ranks travel back.
        const auto finish = [=, &layout, field = view.data] {
          if (any_halo)
            push_detail::return_halos<Backend, Real, static_cast<int>(K)>(
                layout, tables, buffers, field, FieldAccess<T, N>::record_stride, element_words, N);
        };
        return PreparedStatement{
            kernel, statement_shape<T, N>(StatementForm::push, layout, false, decltype(kernel.e)::bytes_read_per_site),
            interior_targets_regular ? layout.interior_sites() : nullptr, finish};
      },
      // The statement model of an assignment of the same value: each site's
      // record written once, wherever its elements go.
      [&] { return statement_model(dst, node, AssignSet{}); },
      [&] { return "push: " + statement_name(dst.storage_identity(), assignment_symbol<AssignSet>(), node); });
}

}  // namespace latte
