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
//               (a push statement, dsl/statements/push.hpp);
//   local step  (pushed -> swapped): cell x reads f_i(x) at (x, i), collides,
//               writes f*_i(x) to (x, opp i).
// In both, each cell reads and writes the same Q locations: (x + c_k, k)
// over k in the push step ((x - c_i, opp i) is (x + c_opp(i), opp(i))) and
// its own record in the local step. No cell touches another's, so the
// statements run in place in any order, threads and ranks alike.
//
// Walls (half-way bounce-back, solvers/lbm/walls/wall_rules.hpp): where x - c_i is
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
//
// The two steps are accessors (AaPushStep, AaLocalStep below, with the
// interface of PullStreaming in stream_collide.hpp), composed with any
// collision model and wall rule by solvers/lbm/update/lattice_update.hpp. In the names of
// Bailey et al., the local step is the AA pattern's even step and the push
// step its odd one.

#include <utility>

#include "dsl/latte.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"

namespace latte::lbm {

// The tag that asks a Simulation (solvers/lbm/flow/simulation.hpp) or a ThermalSimulation
// (solvers/lbm/thermal/thermal.hpp) for in-place streaming.
struct InPlaceStreaming {};
inline constexpr InPlaceStreaming in_place_streaming{};

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

// What the two steps share: in both, the populations walls need (`beside`)
// hold f*(x) of the previous step swapped, and a solid cell keeps what
// streamed into it, swapped back to where it came from.
struct AaStep {
  static constexpr bool in_place = true;
  template <class VS, class P> LATTE_INLINE static P previous(const P&, const P& beside) { return swapped<VS>(beside); }
  template <class VS, class P> LATTE_INLINE static P solid(const P& in, const P&) { return swapped<VS>(in); }
};

// The push step (swapped -> pushed, the AA pattern's odd step): x reads
// f*_i(x - c_i) at (x - c_i, opp i) and writes f*_i(x) to (x + c_i, i).
// With walls, f*_opp(i)(x) of the previous (local) step lies at (x, i),
// and a solid cell pushes back what its locations hold: element i goes to
// (x + c_i, i), which held the population that streamed in as opp(i).
struct AaPushStep : AaStep {
  static constexpr const char* name = "AA push";
  template <class VS, class F> static auto incoming(const F& f) { return streamed_from_swapped_populations<VS>(f); }
  template <class VS, class F> static const F& beside(const F& f) { return f; }
  template <class VS, class P> LATTE_INLINE static const P& stored(const P& out) { return out; }
  template <class Backend, class VS, bool ReadsNeighbours, class F, class E>
  static void write(F& f, F*, const E& rhs) {
    push_in_place<Backend>(f, rhs, downstream_displacements<VS>());
  }
};

// The local step (pushed -> swapped, the AA pattern's even step): x reads
// f_i(x) at (x, i) and writes f*_i(x) to (x, opp i). With walls, f*_opp(i)(x)
// of the previous (push) step lies at (x - c_i, opp i), which x owns; a
// solid cell stores its record unchanged.
struct AaLocalStep : AaStep {
  static constexpr const char* name = "AA local";
  template <class VS, class F> static const F& incoming(const F& f) { return f; }
  template <class VS, class F> static auto beside(const F& f) { return streamed_from_swapped_populations<VS>(f); }
  template <class VS, class P> LATTE_INLINE static P stored(const P& out) { return swapped<VS>(out); }
  // Without walls the step is pointwise, an assignment. With walls it reads
  // f at neighbours (the locations this cell owns there), which an
  // assignment would copy away first: a push with no displacement.
  template <class Backend, class VS, bool ReadsNeighbours, class F, class E>
  static void write(F& f, F*, const E& rhs) {
    if constexpr (!ReadsNeighbours) {
      assign<Backend>(f, rhs, AssignSet{});
    } else {
      static const Coordinate here(VS::d, 0);
      static const std::array<const Coordinate*, VS::q> stay = [] {
        std::array<const Coordinate*, VS::q> out{};
        out.fill(&here);
        return out;
      }();
      push_in_place<Backend>(f, rhs, stay);
    }
  }
};

}  // namespace latte::lbm
