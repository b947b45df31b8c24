#pragma once
// In-place streaming: the AA pattern (Bailey, Myre, Walsh, Lilja & Saar,
// 2009). One population field instead of the two-lattice scheme's two, and
// per cell update Q reads and Q writes of the same locations, so the stores
// never allocate lines they did not read: 2 x Q x sizeof(real) bytes of
// memory traffic in half the memory.
//
// Where f*_i(x), the population i that left the collision at x, is stored
// between steps (location (y, k) = element k of the field at site y):
//   swapped:  (x, opp i)         after a local step
//   pushed:   (x + c_i, i)       after a push step: the streamed populations,
//                                f_i(y) at (y, i) in natural order
//   natural:  (x, i)             as the two-lattice scheme keeps them
// Steps alternate between two statements:
//   push step   (swapped -> pushed): cell x reads f*_i(x - c_i) at
//               (x - c_i, opp i), collides, writes f*_i(x) to (x + c_i, i)
//               (a push statement, dsl/push.hpp);
//   local step  (pushed -> swapped): cell x reads f_i(x) at (x, i), collides,
//               writes f*_i(x) to (x, opp i).
// In both, each cell reads and writes the same Q locations: (x + c_k, k)
// over k in the push step ((x - c_i, opp i) is (x + c_opp(i), opp(i))) and
// its own record in the local step. No cell touches another's, so the
// statements run in place in any order, threads and ranks alike.
//
// Walls (half-way bounce-back, as stream_collide.hpp): where x - c_i is
// solid, the incoming population is f*_opp(i)(x) of the previous step plus
// the moving-wall term. After a local step that lies at (x, i); after a push
// step at (x - c_i, opp i), in the solid cell's record, a location x owns.
// A solid cell writes back, unchanged, what its locations hold: its record
// is where its fluid neighbours' populations wait to bounce back, so in
// place a solid cell keeps no populations of its own (the two-lattice scheme
// keeps them constant). In natural order a solid cell reads as fluid at rest
// with unit density, f_i = w_i (at_rest_on_solid). Forcing
// enters the collision as in the two-lattice scheme, so both schemes do the
// same arithmetic on the same values: they agree to round-off (bit for bit
// where the compiler contracts both alike).

#include <utility>

#include "dsl/latte.hpp"
#include "solvers/lbm/stream_collide.hpp"

namespace latte::lbm {

// p with elements i and opp(i) exchanged.
template <class VS, class V>
LATTE_INLINE Populations<V, VS::q> swapped(const Populations<V, VS::q>& p) {
  Populations<V, VS::q> out;
  static_for<VS::q>([&](auto i) LATTE_LAMBDA { out.v[i] = p.v[VS::opposite[i]]; });
  return out;
}

// f*_i(x - c_i) from a field in the swapped state: element opp(i) of x - c_i.
template <class VS, class F>
auto streamed_from_swapped_populations(const F& f) {
  return populations_along<VS, -1, true>(f);
}

// f*_i(x) from a field in the pushed state: element i of x + c_i.
template <class VS, class F>
auto natural_from_pushed(const F& f) {
  return populations_along<VS, +1, false>(f);
}

// Where a push step sends population i: x + c_i.
template <class VS>
const std::array<const Coordinate*, VS::q>& downstream_displacements() {
  static const std::array<const Coordinate*, VS::q> targets = [] {
    std::array<const Coordinate*, VS::q> out{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((out[I] = &along_velocity<VS, static_cast<int>(I), +1>()), ...);
    }(std::make_index_sequence<VS::q>{});
    return out;
  }();
  return targets;
}

namespace functors {

template <class VS>
struct Swap {
  static constexpr const char* name = "swap_opposite";
  template <class V>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& p) const {
    return swapped<VS>(p);
  }
};

// The local step on a periodic lattice: collide what streamed in, store swapped.
template <class VS, class Model, bool Forced>
struct CollideSwapped {
  static constexpr const char* name = "collide_swapped";
  template <class V, class K>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& in, const K& params) const {
    return swapped<VS>(collide<VS, Model, Forced>(in, params));
  }
};

// The moving-wall term of half-way bounce-back added to the reflected
// population (stream_collide.hpp: 6 w_i = 2 w_i / c_s^2).
template <class VS, int I, class V, class W>
LATTE_INLINE V bounced(const V& reflected, const W& boundary_upstream) {
  constexpr double weight = VS::w[I];  // a constant: device code cannot read the host table
  return V(reflected + V(6.0 * weight) * dot_c<VS, I, V>(&boundary_upstream.v[1]));
}

// The local step with walls: `reflected` holds f*_opp(i)(x) of the previous
// (push) step at (x - c_i, opp i). A solid cell stores its record unchanged.
template <class VS, class Model, bool Forced>
struct CollideSwappedWalls {
  static constexpr const char* name = "collide_swapped_with_walls";
  template <class V, class W, class K>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& here,
                                                const Populations<V, VS::q>& reflected,
                                                const Vec<W, VS::q, GenericIndex>& boundary, const K& params) const {
    return swapped<VS>(collide_beside_walls<VS, Model, Forced>(
        here, swapped<VS>(here), boundary, params,
        [&](auto i) LATTE_LAMBDA { return bounced<VS, i>(reflected.v[i], boundary.v[i]); }));
  }
};

// The push step with walls: f*_opp(i)(x) of the previous (local) step lies
// at (x, i). A solid cell pushes back what its locations hold: element i
// goes to (x + c_i, i), which held the population that streamed in as opp(i).
template <class VS, class Model, bool Forced>
struct StreamCollidePushWalls {
  static constexpr const char* name = "collide_push_with_walls";
  template <class V, class W, class K>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& streamed,
                                                const Populations<V, VS::q>& here,
                                                const Vec<W, VS::q, GenericIndex>& boundary, const K& params) const {
    return collide_beside_walls<VS, Model, Forced>(
        streamed, swapped<VS>(streamed), boundary, params,
        [&](auto i) LATTE_LAMBDA { return bounced<VS, i>(here.v[i], boundary.v[i]); });
  }
};

// f_i = w_i on solid cells (boundary record {solid, u_w...}), f elsewhere.
template <class VS>
struct AtRestOnSolid {
  static constexpr const char* name = "at_rest_on_solid";
  template <class V, class B>
  LATTE_INLINE Populations<V, VS::q> operator()(const Populations<V, VS::q>& f, const B& boundary) const {
    using latte::functors::as_mask;
    using latte::functors::select_leaf;
    const auto solid = as_mask(boundary.v[0]);
    Populations<V, VS::q> out;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr double weight = VS::w[i];
      out.v[i] = select_leaf(solid, V(weight), f.v[i]);
    });
    return out;
  }
};

}  // namespace functors

template <class VS, class F, class B>
auto at_rest_on_solid(const F& f, const B& boundary) {
  return map<functors::AtRestOnSolid<VS>>(f, boundary);
}

// Natural <-> swapped (its own inverse), in place: a pointwise statement.
template <class VS, class F>
auto swap_opposite(const F& f) {
  return map<functors::Swap<VS>>(f);
}

// The two steps on a field in the right state, with or without walls.
template <class VS, class Model, bool Forced, class Backend, class F, class K>
void push_step(F& f, const K& params) {
  push_in_place<Backend>(f, map<functors::StreamCollide<VS, Model, Forced>>(streamed_from_swapped_populations<VS>(f), params),
                         downstream_displacements<VS>());
}
template <class VS, class Model, bool Forced, class Backend, class F, class B, class K>
void push_step(F& f, const B& boundary, const K& params) {
  push_in_place<Backend>(f,
                         map<functors::StreamCollidePushWalls<VS, Model, Forced>>(
                             streamed_from_swapped_populations<VS>(f), f, values_along_velocities<VS, -1>(boundary), params),
                         downstream_displacements<VS>());
}
// The local step writes only the cell's own record; it is a push with no
// displacement, since with walls it reads f at neighbours (the locations
// this cell owns there), which an ordinary assignment would copy away.
template <class VS, class Model, bool Forced, class Backend, class F, class K>
void local_step(F& f, const K& params) {
  assign<Backend>(f, map<functors::CollideSwapped<VS, Model, Forced>>(f, params), AssignSet{});
}
template <class VS, class Model, bool Forced, class Backend, class F, class B, class K>
void local_step(F& f, const B& boundary, const K& params) {
  static const Coordinate here(VS::d, 0);
  static const std::array<const Coordinate*, VS::q> stay = [] {
    std::array<const Coordinate*, VS::q> out{};
    out.fill(&here);
    return out;
  }();
  push_in_place<Backend>(f,
                         map<functors::CollideSwappedWalls<VS, Model, Forced>>(
                             f, streamed_from_swapped_populations<VS>(f), values_along_velocities<VS, -1>(boundary), params),
                         stay);
}

}  // namespace latte::lbm
