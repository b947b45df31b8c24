#pragma once
// The evaluator of a shift (and of the gathers of dsl/expr/checkerboard.hpp):
// the operand's evaluator, the displacement table where the statement runs,
// and the halo records where a neighbour lives on another rank.
//
// One evaluation path per site. eval chooses the neighbour first -- a fixed
// offset at an interior site (VectorSite::interior) of an interior_regular
// table, else the table's entry -- and its permutation, and then evaluates
// the operand in one place. Two inlined copies of the operand's arithmetic
// (one per path) would let the compiler fuse multiplies into FMAs
// (-ffp-contract=fast, CMakeLists.txt) differently in each, and one rank
// (large blocks: mostly interior sites) and N ranks (small blocks: often
// none) would then differ in the last bit. The halo path only loads values;
// the statement plan evaluates the operand for them with the backend's pack
// loop, which runs this same operand evaluator.
//
// At an interior site a one-step shift's neighbour is a fixed offset away in
// the same lanes: neither table is read, which spares a statement with many
// shifts two table streams per shift (lattice Boltzmann: 36 for D3Q19).
// Nearly every site of a large block is interior, so that path is marked
// [[likely]]: GCC otherwise placed it out of line, two taken jumps per shift
// per site, and a light stencil then ran at the front end's mercy. The D2Q9
// two-lattice step in single precision at 1024^2 on an AMD Zen 5 VM ran at
// 0.76 or 1.0 of the same loop, instruction for instruction, depending only
// on the address the linker gave it (its offset modulo 64 bytes); laid out
// in line it ran at par with the loop of the layer before this one, at an
// address of the unlucky kind.
//
// A shift of one right-hand side of a batch (RhsBatch > 0,
// dsl/expr/batch_lowering.hpp) keeps the right-hand side index of its site at the
// neighbour, and its halo records hold the operand's whole batch (one halo
// per batch, packed by RhsLoopEvaluator): it reads element s.rhs of them.

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "dsl/exec/let_site.hpp"
#include "dsl/exec/prepare.hpp"
#include "dsl/exec/rhs_loop_evaluator.hpp"
#include "dsl/exec/rhs_site.hpp"
#include "dsl/expr/checkerboard.hpp"
#include "dsl/expr/shift.hpp"
#include "lattice/fields/field_access.hpp"
#include "lattice/layout/halo_exchange.hpp"

namespace latte {

template <class E, int RhsBatch = 0>
struct ShiftEvaluator {
  using value_type = typename E::value_type;
  using real_type = typename E::real_type;
  static constexpr int nsimd = E::nsimd;
  static constexpr std::size_t bytes_read_per_site = E::bytes_read_per_site;
  // The value of one lane of the operand, as the halo records hold it.
  using halo_value = rebind_t<value_type, real_type>;
  // Only values made of reals travel through halos (not comparison masks).
  static constexpr bool holds_reals = std::is_floating_point_v<real_of_t<value_type>>;

  // A halo record: the operand's value, or its whole batch.
  static constexpr int halo_record_words = (RhsBatch > 0 ? RhsBatch : 1) * words_v<halo_value>;
  using HaloRecords = FieldAccess<halo_value, nsimd, halo_record_words>;

  E operand;
  DisplacementView table;
  HaloRecords halo;  // the halo's records, where the table has a halo

  // The neighbour is a plain site: values bound by a let are this site's.
  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    using Plain = plain_site_t<Site>;
    if constexpr (Site::is_vector) {
      if (s.interior && table.interior_regular) [[likely]] {
        operand.prefetch(with_rhs_of(s, Plain{s.outer + table.interior_offset}));
        return;
      }
    }
    operand.prefetch(with_rhs_of(s, Plain{table.neighbour[s.outer]}));
  }

  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    using Plain = plain_site_t<Site>;
    using Value = std::remove_cvref_t<decltype(operand.eval(with_rhs_of(s, Plain{s.outer})))>;
    std::int64_t neighbour;
    int permutation;
    bool interior = false;
    if constexpr (Site::is_vector) interior = s.interior && table.interior_regular;
    if (interior) [[likely]] {
      neighbour = s.outer + table.interior_offset;
      permutation = 0;
    } else {
      neighbour = table.neighbour[s.outer];
      permutation = table.permutation[s.outer];
      if constexpr (holds_reals) {
        if (permutation == DisplacementTable::halo_entry) [[unlikely]] {
          if constexpr (Site::is_vector) return Value(halo_records(s).load(Plain{neighbour}));
          else return Value(halo_records(s).load(Plain{neighbour, s.lane}));
        }
      }
    }
    if constexpr (Site::is_vector) {
      Value value = operand.eval(with_rhs_of(s, Plain{neighbour}));
      if (permutation != 0) Site::permute(value, table.lane_map(permutation));
      return value;
    } else {
      return Value(operand.eval(with_rhs_of(s, Plain{neighbour, table.lane_map(permutation)[s.lane]})));
    }
  }

 private:
  template <class Site>
  LATTE_INLINE HaloRecords halo_records(const Site& s) const {
    if constexpr (RhsBatch > 0) return {halo.data + s.rhs * std::int64_t(words_v<halo_value>) * nsimd};
    else return halo;
  }
};

template <class E, class Context>
auto make_evaluator(const Shift<E>& node, Context& context) {
  context.enter_shift();
  auto operand = make_evaluator(node.operand, context);
  context.leave_shift();
  constexpr int rhs_batch = rhs_batch_v<E>;
  using Evaluator = ShiftEvaluator<decltype(operand), rhs_batch>;
  Evaluator evaluator{operand, FieldMemory::table_view(*node.source, context.side()), {nullptr}};
  if (node.source->halo) {
    if constexpr (Evaluator::holds_reals && rhs_batch > 0)
      evaluator.halo.data =
          context.add_remote(RhsLoopEvaluator<decltype(operand), rhs_batch>{evaluator.operand}, *node.source->halo);
    else if constexpr (Evaluator::holds_reals)
      evaluator.halo.data = context.add_remote(evaluator.operand, *node.source->halo);
    else
      throw std::invalid_argument("Latte: a shift across ranks of a value that is not made of reals (a mask)");
  }
  return evaluator;
}

// merge(e, o): every outer site of the whole layout has one parity (even
// lane blocks); the even part's table marks the odd sites absent.
template <class EvenShift, class OddShift>
struct MergeEvaluator {
  using value_type = typename EvenShift::value_type;
  using real_type = typename EvenShift::real_type;
  static constexpr int nsimd = EvenShift::nsimd;
  static constexpr std::size_t bytes_read_per_site = EvenShift::bytes_read_per_site > OddShift::bytes_read_per_site
                                                         ? EvenShift::bytes_read_per_site
                                                         : OddShift::bytes_read_per_site;
  EvenShift even;
  OddShift odd;

  template <class Site>
  LATTE_INLINE bool on_even(const Site& s) const {
    return even.table.permutation[s.outer] != DisplacementTable::absent;
  }
  template <class Site>
  LATTE_INLINE void prefetch(const Site& s) const {
    if (on_even(s)) even.prefetch(s);
    else odd.prefetch(s);
  }
  template <class Site>
  LATTE_INLINE auto eval(const Site& s) const {
    using Value = std::remove_cvref_t<decltype(even.eval(s))>;
    if (on_even(s)) return Value(even.eval(s));
    return Value(odd.eval(s));
  }
};

template <class E, class O, class Context>
auto make_evaluator(const Merge<E, O>& node, Context& context) {
  auto even = make_evaluator(node.even, context);
  auto odd = make_evaluator(node.odd, context);
  return MergeEvaluator<decltype(even), decltype(odd)>{even, odd};
}

}  // namespace latte
