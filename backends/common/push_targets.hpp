#pragma once
// Where a push statement (dsl/push.hpp) sends the elements of each site's
// value: element k of the value computed at x goes to element k of the
// destination at x + d_k. Per element, the displacement table of d_k (a
// null neighbour array when d_k = 0: the element stays at x) and, where the
// table has a halo, the records that collect what goes to sites of another
// block; the statement returns them to their owners when every site is done.
//
// A site's lanes go where a shift's lanes come from, the other way round:
// shift(f, d) at (o, l) reads (neighbour[o], lane_map(p)[l]), so a push
// along d from (o, l) writes there.

#include "lattice/displacement_table.hpp"

namespace latte {

template <class Real, int Elements>
struct PushTargets {
  DisplacementView table[Elements];
  Real* records[Elements];
};

}  // namespace latte
