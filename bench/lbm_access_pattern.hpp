#pragma once
// YARDSTICK, not library code: the memory traffic of the in-place (AA) pair
// of lattice-Boltzmann steps without the collision. It moves the same
// locations of the same record layout as the DSL's steps
// (solvers/lbm/streaming/in_place_streaming.hpp) and only moves values around:
//   push step:  outer site x loads element k of the record at x + c_k for
//               every k, through the layout's shift tables, and stores the
//               value it loaded from (x + c_opp(k), opp k) there: the
//               locations the push step reads ((x - c_i, opp i)) and writes
//               ((x + c_i, i)), with the CPU backend's software prefetch of
//               the next site's reads;
//   local step: outer site x loads its record and stores it with elements
//               i and opp(i) exchanged.
// Lane permutations are left out (the values are not physics), so the
// yardstick does slightly less than the DSL's push step at virtual-node
// boundaries. Its time is what the memory system needs for each step's
// pattern on this layout: DSL time / this time says how much of the gap to
// STREAM is the collision and how much is the pattern.

#include <array>
#include <cstdint>

#include "backends/cpu/vector_ops.hpp"
#include "backends/cpu/vector_type.hpp"
#include "platform/displacement_table.hpp"
#include "platform/memory/memory_side.hpp"
#include "platform/parallel.hpp"
#include "solvers/lbm/collision/equilibrium.hpp"  // lbm::static_for
#include "solvers/lbm/streaming/in_place_streaming.hpp"  // lbm::downstream_displacements

namespace latte::bench {

template <class VS, class Field>
class InPlaceAccessPattern {
 public:
  static constexpr int q = VS::q;
  static constexpr int nsimd = Field::nsimd;
  using Real = typename Field::real_type;
  using V = backend::cpu::vector_t<Real, nsimd>;

  explicit InPlaceAccessPattern(Field& field)
      : records_(reinterpret_cast<V*>(field.host_view(Access::read_write).data)),
        outer_(field.layout().outer_volume()) {
    for (int k = 0; k < q; ++k) downstream_[k] = &field.layout().displacement(*lbm::downstream_displacements<VS>()[k]);
  }

  void push_step() const {
    parallel_for(outer_, [this](std::int64_t x) {
      if (x + 1 < outer_)
        lbm::static_for<q>([&](auto k) {
          backend::cpu::VectorOps::prefetch(element(downstream_[k]->neighbour[x + 1], k), sizeof(V));
        });
      std::array<V*, q> at;
      std::array<V, q> value;
      lbm::static_for<q>([&](auto k) {
        at[k] = element(downstream_[k]->neighbour[x], k);
        value[k] = *at[k];
      });
      lbm::static_for<q>([&](auto k) { *at[k] = value[VS::opposite[k]]; });
    });
  }

  void local_step() const {
    parallel_for(outer_, [this](std::int64_t x) {
      std::array<V, q> value;
      lbm::static_for<q>([&](auto k) { value[k] = *element(x, k); });
      lbm::static_for<q>([&](auto k) { *element(x, k) = value[VS::opposite[k]]; });
    });
  }

 private:
  V* element(std::int64_t site, int k) const { return records_ + site * q + k; }

  V* records_;
  std::int64_t outer_;
  std::array<const DisplacementTable*, q> downstream_{};
};

}  // namespace latte::bench
