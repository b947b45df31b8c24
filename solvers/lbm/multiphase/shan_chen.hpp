#pragma once
// The single-component Shan–Chen pseudopotential model (Shan & Chen 1993):
// a non-ideal fluid whose molecules attract through a pseudopotential
// psi(rho), so that it separates into liquid and vapour below a critical
// coupling or temperature.
//
// Conventions (lattice units: spacing, time step and c = 1; c_s^2 = 1/3,
// solvers/lbm/collision/velocity_sets.hpp):
//   interaction force  F(x) = -G psi(x) sum_i w_i psi(x + c_i) c_i
//   with the velocity set's own weights w_i. G < 0 attracts. Since
//   sum_i w_i c_i c_i = c_s^2 I, a Taylor expansion gives
//   F = -G c_s^2 psi grad psi + O(grad^3) = -(G c_s^2 / 2) grad psi^2, so
//   the bulk pressure of the model is
//     p(rho) = c_s^2 rho + (G c_s^2 / 2) psi(rho)^2     (= rho/3 + G psi^2/6).
// The force enters the flow as the simulation's per-site body force
// (Simulation::set_force, Guo forcing), so one multiphase step is
//   1. psi(x) from the density the next collision sees,
//   2. F(x) into the force field (one fused statement over shifted psi),
//   3. the flow step,
// which ShanChenCoupling::step below performs.
//
// Pseudopotentials (each a functor object on any leaf type, with the
// coupling G it belongs to inside the model, ShanChen below):
//   ExponentialPseudopotential   psi = rho0 (1 - exp(-rho / rho0)), the
//       original one; phase separation for G < G_c = -4 / rho0 (the
//       spinodal of p(rho) meets the critical point at rho = rho0 ln 2).
//   CarnahanStarlingPseudopotential   Yuan & Schaefer (2006): psi chosen so
//       that p(rho) above is the Carnahan–Starling pressure p_CS(rho):
//       psi = sqrt(2 (p_CS(rho) - c_s^2 rho) / (G c_s^2)), real where
//       p_CS < c_s^2 rho: with a, b, R = 1, 4, 1 up to rho = 0.425 at T_c,
//       0.459 at T = 0.08, 0.512 at T = 0.06, beyond the coexisting
//       liquid (0.28 at 0.85 T_c); deeper in the compressed liquid it is
//       NaN. G only fixes the sign: G = -1.
//
// Coexistence: the densities of a flat interface follow an equal-area rule
// that depends on the force and the forcing scheme, not Maxwell's (the
// model has no free energy); with the plain force and Guo's forcing, as
// here, equal areas in ln psi, int (p0 - p) psi' / psi drho = 0.
//
// Thermodynamic consistency (Kupershtokh, Medvedev & Karpov 2009): the
// force mixes the plain form with the non-local psi^2 form,
//   F(x) = -G [(1 - 2A) psi(x) sum_i w_i psi(x + c_i) c_i
//              + A sum_i w_i psi(x + c_i)^2 c_i],
// A = ShanChen::mixing. Both forms expand to -(G c_s^2 / 2) grad psi^2,
// so the bulk pressure above holds for every A; they differ at third
// order, and A moves the coexistence:
//   int (p0 - p) psi' / psi^(1 + epsilon) drho = 0,  epsilon = -4 A.
// Derivation, for a flat interface along y on D2Q9 at tau = 1 (the force
// is the difference of a flux through the links, F(y) = -(Q(y + 1/2) -
// Q(y - 1/2)), with Q(y + 1/2) = (G / 6) [(1 - 2A) psi(y) psi(y + 1)
// + A (psi(y)^2 + psi(y + 1)^2)]; at rest, tau = 1 and Guo's forcing, the
// populations crossing a link carry the flux (rho(y) + rho(y + 1)) / 6
// + (F(y) - F(y + 1)) / 4, so the sum of the two fluxes is the same on
// every link). Averaged over a site's two links and Taylor-expanded to
// second order, with the leading balance rho' / 3 = F cancelling the
// F' and rho'' terms, the constant is the pressure tensor
//   P_yy = p(rho) + (G / 12) (psi psi'' + 2 A psi'^2)
// (Shan 2008's discrete pressure tensor, extended to A). Writing
// psi'^2 = Y(psi), psi psi'' + a psi'^2 = (psi^(1 - 2a) / 2)
// d(psi^(2a) Y)/dpsi, and Y = 0 in both bulk phases give equal areas in
// psi^(2a - 1) dpsi with a = 2A: the rule above.
// Maxwell's rule is equal areas in drho / rho^2; psi' / psi^(1 + epsilon)
// is proportional to 1 / rho^2 only for psi ~ rho^(1 / epsilon), so one
// epsilon serves a range of conditions approximately: the epsilon whose
// rule gives Maxwell's densities is 0.90 for the original psi at G = -5 and
// -4.5 (A = -0.225), and 1.64-1.66 for Carnahan–Starling at 0.85-0.9 T_c
// (A = -0.41). The lattice's own higher-order terms shift the best values
// slightly; measured on flat interfaces (tests/test_lbm_shan_chen.cpp,
// D2Q9, tau = 1), the values adopted, maxwell_mixing in each
// pseudopotential, put both densities within 0.5 % of Maxwell's:
//   original psi, A = -0.21: G = -4.5 and -5 (at G = -5.5 the vapour is
//     5 % high: the interface is then too sharp for the expansion);
//   Carnahan–Starling, A = -0.40: T = 0.75 to 0.9 T_c (at 0.7 T_c the
//     vapour is 3.4 % high).
// shan_chen_exponential_maxwell and shan_chen_carnahan_starling_maxwell
// build such models.

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "dsl/latte.hpp"
#include "solvers/lbm/collision/equilibrium.hpp"
#include "solvers/lbm/collision/macroscopic.hpp"
#include "solvers/lbm/collision/velocity_sets.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/multiphase/shan_chen_wetting.hpp"
#include "solvers/lbm/streaming/stream_collide.hpp"

namespace latte::lbm {

// psi = rho0 (1 - exp(-rho / rho0)): close to rho in the vapour, bounded by
// rho0 in the liquid, so the attraction saturates and the liquid stays
// stable. rho0 = 1 is the usual choice.
struct ExponentialPseudopotential {
  static constexpr const char* name = "exponential";
  // Kupershtokh's A that brings coexistence to Maxwell's rule (see the top
  // of this file): within 0.5 % for G = -4.5 to -5.
  static constexpr double maxwell_mixing = -0.21;
  double rho0 = 1.0;
  template <class V>
  LATTE_INLINE V operator()(const V& rho) const {
    using std::exp;
    return V(rho0) * (V(1.0) - exp(-rho * V(1.0 / rho0)));
  }
};

// The Carnahan–Starling equation of state of hard spheres with a van der
// Waals attraction:
//   p(rho) = rho R T (1 + eta + eta^2 - eta^3) / (1 - eta)^3 - a rho^2,
//   eta = b rho / 4.
// a: attraction, b: excluded volume, R: the gas constant, T: temperature,
// all in lattice units. Yuan & Schaefer's a = 1, b = 4, R = 1 gives
// T_c = 0.0943 and rho_c = 0.1304 (liquid densities near 0.3). Smaller a
// and b (a = 1/49, b = 2/21) rescale the densities up by 4/b; the density
// ratio depends only on T / T_c.
struct CarnahanStarling {
  double a = 1.0;
  double b = 4.0;
  double gas_constant = 1.0;
  double temperature = 0.085;
  template <class V>
  LATTE_INLINE V pressure(const V& rho) const {
    const V eta = V(0.25 * b) * rho;
    const V one_minus = V(1.0) - eta;
    const V hard_spheres = (V(1.0) + eta + eta * eta - eta * eta * eta) / (one_minus * one_minus * one_minus);
    return rho * V(gas_constant * temperature) * hard_spheres - V(a) * rho * rho;
  }
  // The critical point of this equation of state, where dp/drho and
  // d2p/drho2 vanish together: packing eta_c = 0.1304440, with
  // T_c = 0.3773307 a / (b R) and rho_c = 4 eta_c / b.
  static constexpr double critical_packing = 0.13044395;
  static constexpr double critical_temperature_factor = 0.37733072;  // T_c b R / a
  double critical_temperature() const { return critical_temperature_factor * a / (b * gas_constant); }
  double critical_density() const { return 4.0 * critical_packing / b; }
};

// Yuan & Schaefer's pseudopotential for the Carnahan–Starling pressure,
// for a coupling G < 0 (see the top of this file).
struct CarnahanStarlingPseudopotential {
  static constexpr const char* name = "Carnahan-Starling";
  // Kupershtokh's A that brings coexistence to Maxwell's rule (see the top
  // of this file): within 0.5 % for T = 0.75 to 0.9 T_c.
  static constexpr double maxwell_mixing = -0.40;
  CarnahanStarling eos;
  double coupling = -1.0;  // G: the same value as the model's (ShanChen::coupling)
  template <class V>
  LATTE_INLINE V operator()(const V& rho) const {
    using std::sqrt;
    return sqrt(V(2.0 / (coupling * cs2)) * (eos.pressure(rho) - V(cs2) * rho));
  }
};

// A Shan–Chen model: the pseudopotential and the coupling G of the force.
template <class Pseudopotential>
struct ShanChen {
  Pseudopotential pseudopotential;
  double coupling;  // G (negative: attraction)
  // A of Kupershtokh's force (functors::ShanChenForce): the share of the
  // non-local form psi(x + c_i)^2 in the force. 0, the default, is the
  // plain Shan–Chen force; any A keeps the bulk pressure below and moves
  // the coexistence densities (epsilon = -4 A, see the top of this file).
  double mixing = 0.0;

  // The bulk pressure p = c_s^2 rho + (G c_s^2 / 2) psi(rho)^2 of a
  // uniform fluid of density rho: the model's equation of state (the
  // Carnahan–Starling pressure itself for the Yuan–Schaefer psi).
  template <class V>
  LATTE_INLINE V pressure(const V& rho) const {
    const V psi = pseudopotential(rho);
    return V(cs2) * rho + V(0.5 * coupling * cs2) * psi * psi;
  }
};

// The original model: psi = rho0 (1 - exp(-rho / rho0)) with coupling G.
inline ShanChen<ExponentialPseudopotential> shan_chen_exponential(double coupling, double rho0 = 1.0) {
  if (!(rho0 > 0)) throw std::invalid_argument("lbm: Shan-Chen: rho0 must be positive, got " + std::to_string(rho0));
  return {ExponentialPseudopotential{rho0}, coupling, 0.0};
}

// Carnahan–Starling through Yuan–Schaefer. G only fixes the sign of the
// attraction (psi scales as 1 / sqrt|G|, the force as G psi psi), so any
// negative value gives the same flow; -1 is customary.
inline ShanChen<CarnahanStarlingPseudopotential> shan_chen_carnahan_starling(const CarnahanStarling& eos,
                                                                              double coupling = -1.0) {
  if (!(coupling < 0))
    throw std::invalid_argument("lbm: Shan-Chen Carnahan-Starling: the coupling G must be negative (psi^2 = 2 (p - "
                                "c_s^2 rho) / (G c_s^2) with p < c_s^2 rho), got " +
                                std::to_string(coupling));
  if (!(eos.a > 0 && eos.b > 0 && eos.gas_constant > 0 && eos.temperature > 0))
    throw std::invalid_argument("lbm: Carnahan-Starling: a, b, R and T must be positive");
  return {CarnahanStarlingPseudopotential{eos, coupling}, coupling, 0.0};
}

// The same models with Kupershtokh's force at the pseudopotential's
// maxwell_mixing: coexistence by Maxwell's rule over the range given there.
inline ShanChen<ExponentialPseudopotential> shan_chen_exponential_maxwell(double coupling, double rho0 = 1.0) {
  auto model = shan_chen_exponential(coupling, rho0);
  model.mixing = ExponentialPseudopotential::maxwell_mixing;
  return model;
}
inline ShanChen<CarnahanStarlingPseudopotential> shan_chen_carnahan_starling_maxwell(const CarnahanStarling& eos,
                                                                                      double coupling = -1.0) {
  auto model = shan_chen_carnahan_starling(eos, coupling);
  model.mixing = CarnahanStarlingPseudopotential::maxwell_mixing;
  return model;
}

namespace functors {

template <class Pseudopotential>
struct PseudopotentialOf {
  static constexpr const char* name = "pseudopotential";
  Pseudopotential pseudopotential;
  template <class V>
  LATTE_INLINE V operator()(const V& rho) const {
    return pseudopotential(rho);
  }
};

template <class Pseudopotential>
struct ShanChenPressure {
  static constexpr const char* name = "shan_chen_pressure";
  ShanChen<Pseudopotential> model;
  template <class V>
  LATTE_INLINE V operator()(const V& rho) const {
    return model.pressure(rho);
  }
};

// F = -G [(1 - 2A) psi(x) sum_i w_i psi(x + c_i) c_i
//         + A sum_i w_i psi(x + c_i)^2 c_i]
// from the Q values psi(x + c_i) (entry 0, c_0 = 0, is psi(x) itself);
// A = mixing (0: the plain force; see ShanChen::mixing). The sums over i
// unroll over the compile-time velocities, so only the non-zero c_id
// enter, as additions and subtractions of w_i psi_i (and w_i psi_i^2).
// The squares come from the same Q reads: no second field.
template <class VS>
struct ShanChenForce {
  static constexpr const char* name = "shan_chen_force";
  double coupling;
  double mixing = 0.0;
  template <class Neighbours>
  LATTE_INLINE auto operator()(const Neighbours& psi) const {
    using V = std::remove_cvref_t<decltype(psi.v[0])>;
    RealVector<V, VS::d> sum;
    for (int d = 0; d < VS::d; ++d) sum.v[d] = V(0.0);
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int I = decltype(i)::value;
      if constexpr (!is_rest_velocity<VS, I>()) {
        constexpr double weight = VS::w[I];  // constants: device code cannot read the host tables
        const V weighted = V(weight) * psi.v[I];
        static_for<VS::d>([&](auto d) LATTE_LAMBDA {
          constexpr int D = decltype(d)::value;
          constexpr int c = VS::c[I][D];
          if constexpr (c > 0) sum.v[D] = sum.v[D] + weighted;
          else if constexpr (c < 0) sum.v[D] = sum.v[D] - weighted;
        });
      }
    });
    // The plain force (A = 0) is evaluated exactly as it always was, so
    // its results keep their bits; the branch is uniform over the lattice.
    if (mixing == 0.0) {
      const V scale = V(-coupling) * psi.v[0];
      for (int d = 0; d < VS::d; ++d) sum.v[d] = scale * sum.v[d];
      return sum;
    }
    RealVector<V, VS::d> squares;
    for (int d = 0; d < VS::d; ++d) squares.v[d] = V(0.0);
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      constexpr int I = decltype(i)::value;
      if constexpr (!is_rest_velocity<VS, I>()) {
        constexpr double weight = VS::w[I];
        const V weighted = V(weight) * psi.v[I] * psi.v[I];
        static_for<VS::d>([&](auto d) LATTE_LAMBDA {
          constexpr int D = decltype(d)::value;
          constexpr int c = VS::c[I][D];
          if constexpr (c > 0) squares.v[D] = squares.v[D] + weighted;
          else if constexpr (c < 0) squares.v[D] = squares.v[D] - weighted;
        });
      }
    });
    const V scale = V(-coupling * (1.0 - 2.0 * mixing)) * psi.v[0];
    const V square_scale = V(-coupling * mixing);
    for (int d = 0; d < VS::d; ++d) sum.v[d] = scale * sum.v[d] + square_scale * squares.v[d];
    return sum;
  }
};

}  // namespace functors

// psi(rho) of a density expression or field, as an expression.
template <class Pseudopotential, class Rho>
auto pseudopotential_of(const ShanChen<Pseudopotential>& model, const Rho& rho) {
  return map(functors::PseudopotentialOf<Pseudopotential>{model.pseudopotential}, rho);
}

// The bulk pressure p(rho) of a density expression or field (the model's
// equation of state; inside a drop or far from an interface, where the
// density is uniform, the mechanical pressure).
template <class Pseudopotential, class Rho>
auto bulk_pressure(const ShanChen<Pseudopotential>& model, const Rho& rho) {
  return map(functors::ShanChenPressure<Pseudopotential>{model}, rho);
}

// The interaction force F(x) = -G psi(x) sum_i w_i psi(x + c_i) c_i of a
// psi field, as one fused statement's right-hand side (Q shifted reads of
// psi; across ranks each shift sends psi on its faces).
template <class VS, class Pseudopotential, class Psi>
auto shan_chen_force(const ShanChen<Pseudopotential>& model, const Psi& psi) {
  return map(functors::ShanChenForce<VS>{model.coupling, model.mixing}, values_along_velocities<VS, +1>(psi));
}

// The density the next collision sees, rho(x) = sum_i f_i(x - c_i), from
// the stored post-collision populations of the pull scheme: the force of
// a step must be that of the density it collides (Guo forcing takes
// u = (j + F/2) / rho with the same rho), not the previous step's.
template <class VS, class F>
auto density_after_streaming(const F& f) {
  return density<VS>(streamed_populations<VS>(f));
}

// Couples a Shan–Chen model to a Simulation: owns the psi field, and on
// step() writes the interaction force into the simulation's force field
// (set_force is called here if the simulation has no field yet) before the
// flow step. The field then holds the interaction force alone, rewritten
// every step: an external force such as gravity goes in
// Parameters::force, which adds to it. A simulation with half-way
// bounce-back walls needs a wetting parameter, the wall's virtual density
// (shan_chen_wetting.hpp); one without walls is periodic fluid and takes
// none. Curved walls are refused.
template <class Sim, class Pseudopotential>
class ShanChenCoupling {
 public:
  using velocity_set = typename Sim::velocity_set;
  using ScalarField = typename Sim::ScalarField;

  ShanChenCoupling(Sim& simulation, const ShanChen<Pseudopotential>& model)
      : simulation_(simulation), model_(model), psi_(simulation.geometry()) {
    if (simulation.boundary())
      throw std::logic_error("lbm: Shan-Chen coupling: the simulation has walls: give their wetting parameter, "
                             "ShanChenCoupling(simulation, model, Wetting{wall_density})");
    start();
  }
  ShanChenCoupling(Sim& simulation, const ShanChen<Pseudopotential>& model, const Wetting& wetting)
      : simulation_(simulation), model_(model), psi_(simulation.geometry()),
        wall_psi_(wall_pseudopotential(model.pseudopotential, wetting)) {
    if (!simulation.boundary())
      throw std::logic_error("lbm: Shan-Chen coupling: a wetting parameter without walls (set_boundary first)");
    if (simulation.curved_walls())
      throw std::logic_error("lbm: Shan-Chen coupling: wetting walls are half-way bounce-back walls; curved walls "
                             "are not supported");
    start();
  }

  // psi and the force from the populations the next step streams and
  // collides: two statements, psi = psi(rho) and F = force(psi). With
  // walls, rho is what the walls send back where a neighbour is solid,
  // psi_wall on solid sites, and the force is zero there.
  void update_force() {
    if (walls_ != (simulation_.boundary() != nullptr))
      throw std::logic_error("lbm: Shan-Chen coupling: walls were set or removed after the coupling was made; make "
                             "the coupling after set_boundary, with Wetting{wall_density} for walls");
    const auto& f = simulation_.populations();
    if (const auto* boundary = simulation_.boundary()) {
      psi_ = pseudopotential_with_walls<velocity_set>(model_.pseudopotential, wall_psi_, f, *boundary);
      simulation_.force_field() =
          zero_on_solid<velocity_set::d>(shan_chen_force<velocity_set>(model_, psi_), *boundary);
    } else {
      psi_ = pseudopotential_of(model_, density_after_streaming<velocity_set>(f));
      simulation_.force_field() = shan_chen_force<velocity_set>(model_, psi_);
    }
  }
  // One multiphase step: the force of the density the step collides, then
  // the flow step. Afterwards the force field still holds the force of the
  // step taken, so simulation.velocity() is (j - F/2) / rho with it.
  void step() {
    update_force();
    simulation_.step();
  }
  void run(long steps) {
    for (long s = 0; s < steps; ++s) step();
  }

  const ShanChen<Pseudopotential>& model() const { return model_; }
  // psi_wall (zero without walls).
  double wall_psi() const { return wall_psi_; }
  // psi of the last step's collision.
  const ScalarField& pseudopotential() const { return psi_; }
  Sim& simulation() { return simulation_; }

 private:
  void start() {
    walls_ = simulation_.boundary() != nullptr;
    if (!simulation_.has_force_field()) simulation_.set_force(typename Sim::VectorField(simulation_.geometry()));
    update_force();
  }

  Sim& simulation_;
  ShanChen<Pseudopotential> model_;
  ScalarField psi_;
  double wall_psi_ = 0.0;
  bool walls_ = false;  // the simulation had walls when the coupling was made
};

}  // namespace latte::lbm
