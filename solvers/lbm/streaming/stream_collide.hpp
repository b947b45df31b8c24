#pragma once
// The two-lattice pull scheme:
//
//   f_next(x) = collide( f_i(x - c_i) for every i )
//
// Each streamed population is a shift of one element of f by -c_i
// (diagonal displacements included); the Q of them are packed into one site
// value and handed ONCE to the site functor of the update
// (solvers/lbm/update/lattice_update.hpp), which computes moments, equilibrium and relaxation
// (expression nodes do not share common sub-expressions, so packing first is
// what keeps it to one evaluation). The statement reads f at each site's
// neighbours and writes f_next once: 2 x Q reals of memory traffic per cell
// update.
//
// This file has the neighbourhood expressions every streaming pattern is
// made of, and PullStreaming, the accessor of the pull scheme: where the
// populations that collide at x come from, where the previous step's
// post-collision populations of x lie (the walls reflect them), what a
// solid cell keeps, and which statement writes the result. The AA pattern's
// two accessors are in in_place_streaming.hpp, the wall rules in
// solvers/lbm/walls/wall_rules.hpp.

#include <utility>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/collision.hpp"

namespace latte::lbm {

template <class VS, int I>
constexpr bool is_rest_velocity() {
  bool rest = true;
  for (int d = 0; d < VS::d; ++d) rest = rest && VS::c[I][d] == 0;
  return rest;
}

// Sign * c_I as a displacement: -c_I is upstream (where population I comes
// from in the pull scheme), +c_I downstream (where it goes).
// Made once: a time step then allocates nothing.
template <class VS, int I, int Sign>
const Coordinate& along_velocity() {
  static const Coordinate d = [] {
    Coordinate c(VS::d);
    for (int k = 0; k < VS::d; ++k) c[k] = Sign * VS::c[I][k];
    return c;
  }();
  return d;
}

// For every I, element I of f (element opp(I) where Opposite: a field that
// holds its populations swapped, in_place_streaming.hpp) at x + Sign c_I,
// as one Populations-valued expression.
template <class VS, int I, int Sign, bool Opposite, class F>
auto element_along(const F& f) {
  constexpr int slot = Opposite ? VS::opposite[I] : I;
  if constexpr (is_rest_velocity<VS, I>()) return element<slot>(f);
  else return shift(element<slot>(f), along_velocity<VS, I, Sign>());
}
template <class VS, int Sign, bool Opposite, class F>
auto populations_along(const F& f) {
  using P = Populations<typename F::real_type, VS::q>;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return pack<P>(element_along<VS, static_cast<int>(I), Sign, Opposite>(f)...);
  }(std::make_index_sequence<VS::q>{});
}

// All Q streamed populations f_I(x - c_I), the ones streamed into x.
template <class VS, class F>
auto streamed_populations(const F& f) {
  return populations_along<VS, -1, false>(f);
}

// The values of a field at x + Sign * c_i for every i, as one Vec of Q
// entries (boundary flags upstream, obstacle flags downstream).
template <class VS, int Sign, class B>
auto values_along_velocities(const B& b) {
  using Entry = typename B::value_type;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return pack<Vec<Entry, VS::q, GenericIndex>>(shift(b, along_velocity<VS, static_cast<int>(I), Sign>())...);
  }(std::make_index_sequence<VS::q>{});
}

// The pull scheme's accessor (the interface every streaming pattern has;
// solvers/lbm/update/lattice_update.hpp composes it with a collision model and wall rules):
//   incoming<VS>(f)      the Q populations that collide at x, as one expression
//   beside<VS>(f)        the populations walls need (read only with walls)
//   previous(in, beside) f*(x) of the previous step in natural order (what a
//                        half-way wall reflects)
//   solid(in, beside)    what a solid cell's record becomes
//   stored(out)          the collided populations as the pattern stores them
//   write<Backend, VS, ReadsNeighbours>(f, next, rhs)  the statement
struct PullStreaming {
  static constexpr const char* name = "pull";
  static constexpr bool in_place = false;
  template <class VS, class F> static auto incoming(const F& f) { return streamed_populations<VS>(f); }
  template <class VS, class F> static const F& beside(const F& f) { return f; }
  template <class VS, class P> LATTE_INLINE static const P& previous(const P&, const P& beside) { return beside; }
  template <class VS, class P> LATTE_INLINE static const P& solid(const P&, const P& beside) { return beside; }
  template <class VS, class P> LATTE_INLINE static const P& stored(const P& out) { return out; }
  template <class Backend, class VS, bool ReadsNeighbours, class F, class E>
  static void write(F&, F* next, const E& rhs) {
    assign<Backend>(*next, rhs, AssignSet{});
  }
};

}  // namespace latte::lbm
