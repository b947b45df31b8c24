#pragma once
// The Wilson Dirac operator, written as one DSL expression.
//
// Conventions (gamma basis in lattice/tensors/gamma.hpp, lattice units a = 1):
//   Dslash psi(x) = sum_mu (1 - gamma_mu) U_mu(x) psi(x + mu^)
//                        + (1 + gamma_mu) U_mu^+(x - mu^) psi(x - mu^)
//   M = (4 + m) - 1/2 Dslash,     M^+ = gamma_5 M gamma_5
// i.e. the hopping term enters with a minus sign and the free operator is
//   M(p) = m + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu.
// Dslash^+ swaps the projectors: (1 + gamma_mu) forward, (1 - gamma_mu)
// backward. The fermion boundary conditions (periodic by default,
// antiperiodic in time or any U(1) twist) enter through the links the
// operator reads: solvers/qcd/fermions/fermion_boundary.hpp has the convention,
// solvers/qcd/fermions/boundary_links.hpp the phased links.
//
// Each direction projects psi to a half spinor, shifts it (forward: after
// nothing; backward: after multiplying by U^+ at the neighbour, so U(x - mu)
// is read where it lives), multiplies by the link and reconstructs; the sum
// over the 8 terms is one fused pass over the lattice.
// Flops per site: Dslash 8 x (12 + 2 x 66) + 7 x 24 = 1320;
// M adds 3 x 24 for (4 + m) psi - 1/2 Dslash psi: 1392.

#include <concepts>
#include <string>
#include <utility>
#include <vector>

#include "dsl/latte.hpp"
#include "solvers/qcd/fermions/boundary_links.hpp"
#include "solvers/qcd/fermions/fermion_boundary.hpp"
#include "solvers/qcd/fermions/fermion_operator.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/fermions/precompiled_instances.hpp"

namespace latte {

// The two hopping terms of direction Mu. Sign = +1 for Dslash, -1 for Dslash^+.
// U_here holds the links at the sites the result lives on, U_there those at
// psi's sites: the same field on the whole lattice, the two checkerboards of
// it in the even-odd form (solvers/qcd/fermions/wilson_even_odd.hpp).
template <int Mu, int Sign, class Link, class Psi>
auto wilson_hop(const Link& U_here, const Link& U_there, const Psi& psi) {
  return spin_reconstruct<Mu, -Sign>(U_here * shift(spin_project<Mu, -Sign>(psi), Mu, +1)) +
         spin_reconstruct<Mu, +Sign>(shift(adj(U_there) * spin_project<Mu, +Sign>(psi), Mu, -1));
}

template <int Sign, class Links, class Psi>
auto wilson_hopping(const Links& U_here, const Links& U_there, const Psi& psi) {
  return wilson_hop<0, Sign>(U_here[0], U_there[0], psi) + wilson_hop<1, Sign>(U_here[1], U_there[1], psi) +
         wilson_hop<2, Sign>(U_here[2], U_there[2], psi) + wilson_hop<3, Sign>(U_here[3], U_there[3], psi);
}

template <int Sign, class R, class W, class Psi>
auto wilson_hopping(const GaugeField<R, W>& U, const Psi& psi) {
  return wilson_hopping<Sign>(U, U, psi);
}

// The numbers that define a Wilson operator besides its links, and their
// text ("m = 0.100000", with the boundary unless periodic).
inline std::vector<double> wilson_parameters(double mass, const FermionBoundary& boundary) {
  return {mass, boundary.theta[0], boundary.theta[1], boundary.theta[2], boundary.theta[3]};
}
inline std::string wilson_description(double mass, const FermionBoundary& boundary) {
  const std::string text = "m = " + std::to_string(mass);
  return boundary.is_periodic() ? text : text + ", " + boundary.describe();
}

// The Wilson action's parameters, from which it is made on any gauge field
// (hybrid Monte Carlo makes it again at every step).
struct WilsonParameters {
  double mass = 0;
  FermionBoundary boundary = FermionBoundary::periodic();
  std::string describe() const { return wilson_description(mass, boundary); }
};

template <class R, class W> class WilsonEvenOddAction;

// The Wilson action on the whole lattice (solvers/qcd/fermions/fermion_action.hpp):
// M psi as one expression. It keeps a reference to the gauge field, and for
// a boundary other than periodic a copy of it with the boundary phases (the
// links its statements read; shared by the action's copies and its even-odd
// blocks). That copy is made when the action is built, as the even-odd
// operator's links are: build the operator after setting the gauge field,
// and again after changing it (a periodic operator reads the field itself).
template <class R, class W = DefaultWidth>
class WilsonAction {
 public:
  using real_type = R;
  using width_type = W;
  using Gauge = GaugeField<R, W>;
  using Parameters = WilsonParameters;
  using EvenOddAction = WilsonEvenOddAction<R, W>;
  static constexpr const char* name = "Wilson";
  static constexpr double flops_per_site = 1392;  // per right-hand side
  static constexpr const char* profile_name = "Wilson M";
  static constexpr const char* adjoint_profile_name = "Wilson M^+";

  WilsonAction(const Gauge& U, double mass, const FermionBoundary& boundary = FermionBoundary::periodic())
      : links_(U, boundary), mass_(mass) {}
  WilsonAction(const Gauge& U, const WilsonParameters& parameters)
      : WilsonAction(U, parameters.mass, parameters.boundary) {}
  // On links already made (the single-precision twin's, which own their field).
  WilsonAction(BoundaryLinks<R, W> links, double mass) : links_(std::move(links)), mass_(mass) {}
  WilsonAction(Gauge&&, double, const FermionBoundary& = FermionBoundary::periodic()) = delete;
  WilsonAction(Gauge&&, const WilsonParameters&) = delete;

  const Geometry& geometry() const { return links_.gauge().geometry(); }
  double mass() const { return mass_; }
  // The gauge field as given (periodic, no phases) and the links M reads.
  const Gauge& gauge() const { return links_.gauge(); }
  const Gauge& links() const { return links_.links(); }
  const BoundaryLinks<R, W>& boundary_links() const { return links_; }
  const FermionBoundary& boundary() const { return links_.boundary(); }
  // The mass and the four boundary angles: operators that belong together
  // (M and its Schur complement, the double and single twins) agree on all.
  std::vector<double> parameters() const { return wilson_parameters(mass_, boundary()); }
  std::string describe() const { return wilson_description(mass_, boundary()); }

  template <int Sign, class Psi> auto M(const Psi& psi) const {
    return (4.0 + mass_) * psi - 0.5 * wilson_hopping<Sign>(links(), psi);
  }

  // The single-precision twin (BoundaryLinks::single_precision: the links
  // rounded, then phased), for the mixed-precision solves.
  WilsonAction<float, MatchingSingleWidth<W>> single_precision() const
    requires std::same_as<R, double>
  {
    return {links_.single_precision(), mass_};
  }

 private:
  BoundaryLinks<R, W> links_;
  double mass_;
};

// M, M^+ and Dslash of the Wilson action on fields and batches of them
// (solvers/qcd/fermions/fermion_operator.hpp).
template <class R, class W = DefaultWidth>
class WilsonDirac : public FermionOperator<WilsonAction<R, W>> {
  using Base = FermionOperator<WilsonAction<R, W>>;

 public:
  using typename Base::Field;
  template <int N> using MultiField = typename Base::template MultiField<N>;
  using Gauge = GaugeField<R, W>;
  static constexpr double dslash_flops_per_site = 1320;

  WilsonDirac(const Gauge& U, double mass, const FermionBoundary& boundary = FermionBoundary::periodic())
      : Base(WilsonAction<R, W>(U, mass, boundary)) {}
  // The operator of an action already made (M.action().single_precision(), say).
  explicit WilsonDirac(WilsonAction<R, W> action) : Base(std::move(action)) {}
  WilsonDirac(Gauge&&, double, const FermionBoundary& = FermionBoundary::periodic()) = delete;

  double mass() const { return this->action().mass(); }
  // The gauge field as given; the operator reads links() (with the boundary phases).
  const Gauge& gauge() const { return this->action().gauge(); }
  const Gauge& links() const { return this->action().links(); }
  const FermionBoundary& boundary() const { return this->action().boundary(); }

  void dslash(Field& out, const Field& in) const;
  void dslash_dagger(Field& out, const Field& in) const;
  template <int N> void dslash(MultiField<N>& out, const MultiField<N>& in) const { hop<+1>(out, in); }
  template <int N> void dslash_dagger(MultiField<N>& out, const MultiField<N>& in) const { hop<-1>(out, in); }

 private:
  // One statement each, for a single field and for batches alike.
  template <int Sign, class F> void hop(F& out, const F& in) const {
    const profile::Region region(Sign > 0 ? "Wilson Dslash" : "Wilson Dslash^+");
    out = wilson_hopping<Sign>(links(), in);
  }
};

// The statements are defined outside the class, so that they are not inline:
// a build can compile them once for its usual precisions and let every other
// file use that copy (solvers/qcd/fermions/precompiled_instances.hpp).
template <class R, class W>
void WilsonDirac<R, W>::dslash(Field& out, const Field& in) const {
  hop<+1>(out, in);
}
template <class R, class W>
void WilsonDirac<R, W>::dslash_dagger(Field& out, const Field& in) const {
  hop<-1>(out, in);
}

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE class FermionOperator<WilsonAction<double>>;
LATTE_QCD_SINGLE_INSTANCE class FermionOperator<WilsonAction<float>>;
LATTE_QCD_DOUBLE_INSTANCE class WilsonDirac<double>;
LATTE_QCD_SINGLE_INSTANCE class WilsonDirac<float>;
#endif

}  // namespace latte
