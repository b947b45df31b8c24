#pragma once
// The populations of one lattice-Boltzmann distribution and where they
// are: two fields swapped every step (the two-lattice pull scheme,
// solvers/lbm/streaming/stream_collide.hpp) or, built with
// in_place_streaming, one field updated in place (the AA pattern), whose
// state between steps is natural, swapped or pushed
// (solvers/lbm/streaming/in_place_streaming.hpp says where f*_i(x) lies in
// each). The flow's Simulation and the ThermalSimulation hold one each;
// what they add is the site rule and the walls of their update.
//
//   store.two_lattice_step(body);          // body(PullStreaming{}, f, &next), then the swap
//   store.in_place_step<Backend>(body);    // body(AaPushStep{} or AaLocalStep{}, f, nullptr)
//   const auto& f = store.natural(boundary);
//
// body is a generic callable that issues the update with the pattern it is
// given. The two steps are separate members so that a simulation compiles
// its in-place statements only where it streams in place (the flow's
// precompiled instances leave them out, solvers/lbm/flow/precompiled_instances.hpp).
//
// natural() brings the field to natural order (a pointwise statement from
// the swapped state, a shifted copy through fresh storage from the pushed
// one); with a boundary field, solid cells then read as at rest with unit
// density, f_i = w_i, since in place a solid cell's record holds its
// neighbours' populations, not its own.

#include <optional>
#include <type_traits>
#include <utility>

#include "dsl/latte.hpp"
#include "solvers/lbm/streaming/in_place_streaming.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"

namespace latte::lbm {

template <class VS, class Real, class Width>
class PopulationStore {
 public:
  using Field = Lattice<Populations<Real, VS::q>, Width>;

  explicit PopulationStore(const Geometry& geometry) : f_(geometry), next_(std::in_place, geometry) {}
  PopulationStore(const Geometry& geometry, InPlaceStreaming) : f_(geometry) {}

  bool in_place() const { return !next_; }
  const Geometry& geometry() const { return f_.geometry(); }
  const auto& layout() const { return f_.layout(); }

  // f = value (an expression, a field), in natural order.
  template <class Value>
  void set(const Value& value) {
    f_ = value;
    state_ = State::natural;
  }

  // The field in natural order (the top of this file).
  // boundary: a field whose element 0 is 1 on solid cells, or none.
  template <class Boundary = void>
  const Field& natural(const Boundary* boundary = nullptr) const {
    if (state_ == State::natural) return f_;
    const auto reordered = [&](const auto& natural_order) {
      if constexpr (!std::is_void_v<Boundary>) {
        if (boundary) {
          f_ = at_rest_on_solid<VS>(natural_order, *boundary);
          return;
        }
      }
      f_ = natural_order;
    };
    if (state_ == State::swapped) reordered(swap_opposite<VS>(f_));
    else reordered(natural_from_pushed<VS>(f_));  // shifted: through fresh storage
    state_ = State::natural;
    return f_;
  }
  template <class Boundary = void>
  Field& natural(const Boundary* boundary = nullptr) {
    std::as_const(*this).natural(boundary);
    return f_;
  }

  // One step of the two-lattice scheme: the update into the second field,
  // then the O(1) swap.
  template <class Body>
  void two_lattice_step(const Body& body) {
    body(PullStreaming{}, f_, &*next_);
    f_.swap(*next_);
  }

  // One in-place step: a push step from the swapped state, a local step
  // from the pushed one (a natural field is swapped first).
  template <class Backend, class Body>
  void in_place_step(const Body& body) {
    if (state_ == State::natural) {
      assign<Backend>(f_, swap_opposite<VS>(f_), AssignSet{});
      state_ = State::swapped;
    }
    if (state_ == State::swapped) {
      body(AaPushStep{}, f_, static_cast<Field*>(nullptr));
      state_ = State::pushed;
    } else {
      body(AaLocalStep{}, f_, static_cast<Field*>(nullptr));
      state_ = State::swapped;
    }
  }

 private:
  enum class State { natural, swapped, pushed };

  mutable Field f_;                // mutable: in place, reading it may first reorder it
  std::optional<Field> next_;      // the second lattice; none in place
  mutable State state_ = State::natural;
};

}  // namespace latte::lbm
