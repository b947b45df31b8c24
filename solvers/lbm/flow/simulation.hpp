#pragma once
// A lattice-Boltzmann simulation: two population fields swapped every step
// (the two-lattice pull scheme, solvers/lbm/streaming/stream_collide.hpp) or, constructed with
// in_place_streaming, one field updated in place (the AA pattern,
// solvers/lbm/streaming/in_place_streaming.hpp), an optional boundary field for bounce-back walls
// (half-way, or interpolated on curved walls), BGK, TRT or MRT collision and
// an optional body force. Every per-site operation is a DSL statement; a
// step is one update of solvers/lbm/update/lattice_update.hpp, its pattern, model, walls and
// force chosen here once.
//
// The body force density at x is F(x) = Parameters::force + the force field
// at x: a uniform part (gravity, a pressure gradient) and, when set_force
// has been called, a part per site (a coupled temperature or concentration,
// a Kolmogorov forcing). The two add, as forces do. Without a field a step
// reads the uniform force as a constant; with one, every step kind (two
// lattices, in place, half-way and curved walls, every model) reads the
// field. The field is a copy owned by the simulation; force_field() changes
// it between steps. A checkpoint of a simulation with a field holds the
// field too (solvers/lbm/io/checkpoint.hpp, version 3); reading one does not
// call set_force (which would compile the field-forced steps into every
// reader), so the restarted simulation calls set_force first, with any
// field on its geometry (zeros), and the checkpoint overwrites its values.
//
// Either way populations() shows the post-collision populations in natural
// order, f*_i(x) as element i at x: in place, the field is brought to that
// order when it is asked for (a pointwise statement, or after a push step a
// shifted copy through fresh storage) and back when the next step runs
// (the PopulationStore of solvers/lbm/update/population_store.hpp, which
// the ThermalSimulation shares).
//
// The parameters are FlowParameters<Model> (below): the collision model's
// own, which the model checks (Model::from), and the uniform force.

#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/macroscopic.hpp"
#include "solvers/lbm/flow/precompiled_instances.hpp"
#include "solvers/lbm/streaming/in_place_streaming.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"
#include "solvers/lbm/update/lattice_update.hpp"
#include "solvers/lbm/update/population_store.hpp"
#include "solvers/lbm/walls/boundaries.hpp"
#include "solvers/lbm/walls/curved_walls.hpp"

namespace latte::lbm {

// The parameters of a flow: its collision model's own (Model::Parameters,
// solvers/lbm/collision/collision.hpp: tau and the model's knobs, checked
// by Model::from) and the uniform body force density.
template <ParameterisedCollisionModel Model>
struct FlowParameters : Model::Parameters {
  std::array<double, 3> force{0, 0, 0};  // body force density (first d entries used)

  // tau and the force alone (lbm::Parameters, below) are the parameters of
  // any model, its other parameters at their defaults.
  template <ParameterisedCollisionModel Other>
    requires(std::is_same_v<Model, Bgk> && !std::is_same_v<Other, Bgk>)
  operator FlowParameters<Other>() const {
    FlowParameters<Other> p;
    p.tau = this->tau;
    p.force = force;
    return p;
  }
};

// tau and the body force: BGK's parameters, and those of any model with
// its other parameters at their defaults (FlowParameters<Trt> sets TRT's
// magic parameter, FlowParameters<Mrt> MRT's rates).
using Parameters = FlowParameters<Bgk>;

template <class VS, class Real = double, ParameterisedCollisionModel Model = Bgk, class Width = DefaultWidth>
class Simulation {
 public:
  static constexpr int D = VS::d;
  static constexpr int Q = VS::q;
  using velocity_set = VS;
  using real_type = Real;
  using model_type = Model;
  using Parameters = FlowParameters<Model>;
  using PopulationField = Lattice<Populations<Real, Q>, Width>;
  using ScalarField = Lattice<Real, Width>;
  using VectorField = Lattice<RealVector<Real, D>, Width>;
  using Boundary = Lattice<RealVector<Real, D + 1>, Width>;

  Simulation(const Geometry& geometry, const Parameters& p);
  // One population field, streamed in place. A constructor template, so
  // that its steps are compiled only in programs that ask for it (the
  // precompiled instances, solvers/lbm/flow/precompiled_instances.hpp, leave it out).
  template <class Deferred = void>
  Simulation(const Geometry& geometry, const Parameters& p, InPlaceStreaming) : f_(geometry, in_place_streaming) {
    check_dimensions(geometry);
    set_parameters(p);
    initialise(1.0);
    in_place_step_ = &Simulation::in_place_step<backend::Default, Deferred>;
  }

  // The model's parameters are checked by the model (Model::from), which
  // throws std::invalid_argument naming what is wrong; the simulation is
  // then unchanged.
  void set_parameters(const Parameters& p) {
    model_ = Model::from(p);
    parameters_ = p;
    forced_ = false;
    for (int d = 0; d < D; ++d) {
      force_.v[d] = p.force[d];
      forced_ = forced_ || p.force[d] != 0.0;
    }
  }

  // A body force per site, added to Parameters::force (the top of this
  // file): copied, so the caller's field may go; force_field() reaches the
  // copy. Its steps are compiled only in programs that call this (a member
  // template, which the precompiled instances leave out), for the backend
  // named here (the build's by default): stepping on another is refused,
  // naming both. A field on another lattice or layout is refused, naming
  // both.
  template <class Backend = backend::Default, class Deferred = void>
  void set_force(const VectorField& force) {
    if (!force.layout().same_as(f_.layout()))
      throw GeometryMismatch("lbm: set_force: the force field lies on " + force.layout().describe() +
                             ", the simulation's populations on " + f_.layout().describe() +
                             ": make the field on the simulation's geometry()");
    choose_deferred_backend<Backend>("set_force");
    // Assigned into the storage velocity() may already read, so that an
    // expression taken from velocity() before stays valid.
    if (force_field_) *force_field_ = force;
    else force_field_.emplace(force);
    field_forced_step_ = &Simulation::field_forced_step<Backend, Deferred>;
  }
  bool has_force_field() const { return field_forced_step_ != nullptr; }
  // The force field set by set_force, to read or to change between steps
  // (coupled physics); without one, a std::logic_error.
  VectorField& force_field() {
    check_force_field();
    return *force_field_;
  }
  const VectorField& force_field() const {
    check_force_field();
    return *force_field_;
  }

  // Walls: solid cells (and moving-wall velocities) from a boundary field.
  void set_boundary(const Boundary& b) { boundary_.emplace(b); }
  // Curved walls (solvers/lbm/walls/curved_walls.hpp): interpolated bounce-back on the links
  // whose wall fractions `links` holds, half-way bounce-back on the other
  // solid cells of the boundary field (set first). The curved step is
  // compiled only in programs that call this (a member template, which the
  // precompiled instances leave out), for the backend named here, as
  // set_force's.
  template <class Backend = backend::Default, class Deferred = void>
  void set_curved_walls(const WallLinkField<VS, Real, Width>& links) {
    if (!boundary_)
      throw std::logic_error("lbm: set_boundary before set_curved_walls (the obstacle's cells are solid there)");
    if (in_place())
      throw std::logic_error("lbm: curved walls need the two-lattice scheme; in-place streaming does not offer them yet");
    if (links.geometry().dims() != f_.geometry().dims())
      throw std::invalid_argument("lbm: the wall-link field's lattice differs from the simulation's");
    choose_deferred_backend<Backend>("set_curved_walls");
    links_.emplace(links);
    curved_step_ = &Simulation::curved_step<Backend, Deferred>;
  }
  const WallLinkField<VS, Real, Width>* curved_walls() const { return links_ ? &*links_ : nullptr; }
  const Boundary* boundary() const { return boundary_ ? &*boundary_ : nullptr; }

  // f = f^eq(rho, u) from fields or expressions.
  template <class Rho, class U>
  void initialise(const Rho& rho, const U& u) {
    f_.set(equilibrium_of<VS>(rho, u));
  }
  // Fluid at rest with uniform density.
  void initialise(double rho);

  // One time step: one fused stream-collide pass (then, with two lattices,
  // the O(1) swap). step() and run() use the build's default backend;
  // step<Backend>() and run<Backend>() choose another (the per-lane one, to
  // compare) for every kind of step: the steps set_force and
  // set_curved_walls compile run on the backend they were compiled for, so
  // a simulation with either steps on that one only.
  void step();
  void run(long steps);
  template <class Backend>
  void step() {
    const profile::Region region("LB stream-collide");
    if (field_forced_step_ || curved_step_) {
      check_deferred_backend<Backend>();
      if (field_forced_step_) field_forced_step_(*this);
      else curved_step_(*this);
    } else if (in_place()) {
      if constexpr (std::is_same_v<Backend, backend::Default>) in_place_step_(*this);
      else in_place_step<Backend, void>(*this);
    } else {
      two_lattice_step<Backend>(*this);
    }
    ++time_;
  }
  template <class Backend>
  void run(long steps) {
    for (long s = 0; s < steps; ++s) step<Backend>();
  }

  auto density() const { return lbm::density<VS>(populations()); }
  // u = (j - F/2) / rho with the local force (solvers/lbm/collision/macroscopic.hpp). Its type
  // cannot depend on whether a force field is set, so it always reads one:
  // without set_force, a field of zeros allocated on first use.
  auto velocity() const { return lbm::velocity<VS>(populations(), body_force()); }
  // The body force density at every site, F(x) = Parameters::force + the
  // force field (zero without one), as an expression.
  auto body_force() const { return force_field_or_zero() + force_; }

  double mass() const;
  // sum_x j(x) of the stored populations: a body force adds F(x) to j(x)
  // every step, so this grows by sum_x F(x) per step (the physical momentum,
  // sum_x rho u, is this minus sum_x F(x) / 2).
  std::array<double, D> total_momentum() const;
  // max |u| over fluid sites (solid sites keep their initial state).
  double max_speed() const;

  // The post-collision populations in natural order (see the top of this
  // file); in place, solid cells read as fluid at rest.
  PopulationField& populations() { return f_.natural(boundary()); }
  const PopulationField& populations() const { return f_.natural(boundary()); }
  bool in_place() const { return f_.in_place(); }
  // Bytes of population storage per lattice cell: Q reals, once in place,
  // twice with two lattices.
  double population_bytes_per_cell() const {
    return static_cast<double>(sizeof(Real)) * Q * (in_place() ? 1 : 2);
  }
  const Geometry& geometry() const { return f_.geometry(); }
  const Parameters& parameters() const { return parameters_; }
  // The collision model with its rates, and the uniform body force
  // (Parameters::force; a force field adds to it).
  const Model& model() const { return model_; }
  const RealVector<double, D>& force() const { return force_; }
  double viscosity() const { return viscosity_from_tau(parameters_.tau); }
  long time() const { return time_; }
  void set_time(long t) { time_ = t; }

 private:
  void check_dimensions(const Geometry& geometry) const {
    if (geometry.dimensions() != D)
      throw std::invalid_argument(std::string("lbm: a ") + VS::name + " simulation needs a " + std::to_string(D) +
                                  "-dimensional lattice");
  }

  void check_force_field() const {
    if (!has_force_field()) throw std::logic_error("lbm: force_field(): no force field is set (call set_force first)");
  }
  const VectorField& force_field_or_zero() const {
    if (!force_field_) force_field_.emplace(f_.geometry());  // zero at every site
    return *force_field_;
  }

  // The backend the deferred steps (set_force, set_curved_walls) are
  // compiled for: one per simulation, so that a step never runs on a
  // backend other than the one asked for.
  template <class Backend>
  void choose_deferred_backend(const char* where) {
    if (deferred_backend_ && std::string_view(deferred_backend_) != Backend::name)
      throw std::logic_error(std::string("lbm: ") + where + "<" + Backend::name + ">: this simulation's other " +
                             "deferred steps run on " + deferred_backend_ + "; name one backend for both");
    deferred_backend_ = Backend::name;
  }
  template <class Backend>
  void check_deferred_backend() const {
    if (std::string_view(deferred_backend_) != Backend::name)
      throw std::logic_error(std::string("lbm: step<") + Backend::name + ">: this simulation's force field or curved " +
                             "walls were set for the " + deferred_backend_ + " backend (set_force<Backend> and " +
                             "set_curved_walls<Backend> choose it)");
  }

  // One update with the walls this simulation has (none or half-way; curved
  // walls have their own deferred step) and its forcing: the one place where
  // run-time choices pick a compiled statement. FieldForce: the force is
  // body_force(), read per site (the steps set_force compiles); otherwise
  // the uniform force, a constant, read only when not zero.
  template <class Backend, class Pattern, bool FieldForce = false>
  void update(PopulationField& f, PopulationField* next) {
    if (boundary_) update<Backend, Pattern, FieldForce>(f, next, HalfWayWalls<Boundary>{*boundary_});
    else update<Backend, Pattern, FieldForce>(f, next, NoWalls{});
  }
  template <class Backend, class Pattern, bool FieldForce = false, class Walls>
  void update(PopulationField& f, PopulationField* next, const Walls& walls) {
    if constexpr (FieldForce) {
      lbm::update<VS, Pattern, Backend>(f, next, FlowCollision<Model, true>{model_}, body_force(), walls);
    } else {
      if (forced_) lbm::update<VS, Pattern, Backend>(f, next, FlowCollision<Model, true>{model_}, force_, walls);
      else lbm::update<VS, Pattern, Backend>(f, next, FlowCollision<Model, false>{model_}, force_, walls);
    }
  }

  // The three kinds of step: two lattices with the walls above, in place,
  // and two lattices with curved walls.
  template <class Backend, bool FieldForce = false>
  static void two_lattice_step(Simulation& s) {
    s.f_.two_lattice_step([&](auto pattern, PopulationField& f, PopulationField* next) {
      s.template update<Backend, decltype(pattern), FieldForce>(f, next);
    });
  }
  template <class Backend, class Deferred, bool FieldForce = false>
  static void in_place_step(Simulation& s) {
    s.f_.template in_place_step<Backend>([&](auto pattern, PopulationField& f, PopulationField* next) {
      s.template update<Backend, decltype(pattern), FieldForce>(f, next);
    });
  }
  template <class Backend, class Deferred, bool FieldForce = false>
  static void curved_step(Simulation& s) {
    s.f_.two_lattice_step([&](auto pattern, PopulationField& f, PopulationField* next) {
      s.template update<Backend, decltype(pattern), FieldForce>(
          f, next, CurvedWalls<Boundary, WallLinkField<VS, Real, Width>>{*s.boundary_, *s.links_});
    });
  }

  // A whole step with the force field, whichever scheme and walls the
  // simulation has; set_force compiles it (and so every field-forced
  // statement) only where it is called.
  template <class Backend, class Deferred>
  static void field_forced_step(Simulation& s) {
    if (s.in_place()) in_place_step<Backend, Deferred, true>(s);
    else if (s.curved_step_) curved_step<Backend, Deferred, true>(s);
    else two_lattice_step<Backend, true>(s);
  }

  PopulationStore<VS, Real, Width> f_;
  void (*in_place_step_)(Simulation&) = nullptr;
  std::optional<Boundary> boundary_;
  std::optional<WallLinkField<VS, Real, Width>> links_;
  void (*curved_step_)(Simulation&) = nullptr;
  Parameters parameters_;
  Model model_;
  RealVector<double, D> force_{};  // the uniform part
  bool forced_ = false;            // the uniform part is not zero
  // The force field (set_force), or zeros for velocity() without one;
  // mutable: velocity() allocates the zeros on first use.
  mutable std::optional<VectorField> force_field_;
  void (*field_forced_step_)(Simulation&) = nullptr;  // set by set_force
  const char* deferred_backend_ = nullptr;          // the backend of the two above
  long time_ = 0;
};

// The members with statements are defined outside the class, so not inline:
// a build can compile them once for its usual simulations
// (solvers/lbm/flow/precompiled_instances.hpp).
template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
Simulation<VS, Real, Model, Width>::Simulation(const Geometry& geometry, const Parameters& p) : f_(geometry) {
  check_dimensions(geometry);
  set_parameters(p);
  initialise(1.0);
}

template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
void Simulation<VS, Real, Model, Width>::initialise(double rho) {
  ScalarField r(f_.geometry());
  VectorField u(f_.geometry());
  r = rho;
  u = zero;
  initialise(r, u);
}

template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
void Simulation<VS, Real, Model, Width>::step() {
  step<backend::Default>();
}

template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
void Simulation<VS, Real, Model, Width>::run(long steps) {
  run<backend::Default>(steps);
}

template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
double Simulation<VS, Real, Model, Width>::mass() const {
  return sum(density());
}

template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
auto Simulation<VS, Real, Model, Width>::total_momentum() const -> std::array<double, D> {
  const auto j = sum(momentum<VS>(populations()));
  std::array<double, D> out;
  for (int d = 0; d < D; ++d) out[d] = j.v[d];
  return out;
}

template <class VS, class Real, ParameterisedCollisionModel Model, class Width>
double Simulation<VS, Real, Model, Width>::max_speed() const {
  // Without a force field the uniform force is a constant here: velocity()
  // would read (and first allocate) a field of zeros for the same bits.
  const auto largest = [&](const auto& u) {
    if (boundary_) return std::sqrt(maxval(where(element<0>(*boundary_), 0.0, localNorm2(u))));
    return std::sqrt(maxval(localNorm2(u)));
  };
  if (has_force_field()) return largest(velocity());
  return largest(lbm::velocity<VS>(populations(), force_));
}

#if defined(LATTE_PRECOMPILED_LBM)
LATTE_LBM_D2Q9_INSTANCE class Simulation<D2Q9, double, Bgk>;
LATTE_LBM_D2Q9_INSTANCE class Simulation<D2Q9, double, Trt>;
LATTE_LBM_D3Q19_INSTANCE class Simulation<D3Q19, double, Bgk>;
LATTE_LBM_D3Q19_INSTANCE class Simulation<D3Q19, double, Trt>;
#endif

}  // namespace latte::lbm
