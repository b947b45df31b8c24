#pragma once
// Even-odd (red-black) preconditioning of the Wilson operator: the Wilson
// action's even-odd blocks, through the Schur complement written once for
// every action (solvers/qcd/fermions/even_odd_operator.hpp, solvers/qcd/solves/even_odd_solve.hpp).
//
// Ordering the sites by parity, M = (4 + m) - 1/2 Dslash becomes
//       M = [ A           -1/2 D_eo ]      A = 4 + m,
//           [ -1/2 D_oe   A         ]      D_eo: the hopping term from odd to even sites
// (the hopping term only joins neighbours, which have opposite parities):
// a constant diagonal A and kappa = -1/2. The Schur complement is then
//   Mhat = A - 1/(4A) D_eo D_oe,
//   Mhat x_e = b_e + 1/(2A) D_eo b_o,       x_o = (b_o + 1/2 D_oe x_e) / A,
// and since (D_eo)^+ = (Dslash^+)_oe, Mhat^+ = A - 1/(4A) (Dslash^+)_eo (Dslash^+)_oe.
// Mhat is better conditioned than M: CG on Mhat^+ Mhat needs fewer
// iterations, each over half the sites.
//
// The action keeps the links split by parity (a second copy of the gauge
// field in memory) so that every statement reads contiguous half fields;
// they carry the fermion boundary phases (solvers/qcd/fermions/boundary_links.hpp),
// so the blocks need nothing else to honour the boundary.
// Flops per even site of Mhat: two hopping terms (each 1320 per site of its
// parity) and A in - c h (3 x 24): 2712.
//
// The force. The hopping term's force (solvers/qcd/fermions/fermion_force.hpp)
// is one statement per direction over the whole lattice, on the whole-
// lattice links with the phases. The blocks keep those links as well as the
// halves: they share them with the whole-lattice action they are made from
// (BoundaryLinks: the same phased copy, or the gauge field itself when
// periodic), so there is no second copy while the action lives, and the
// force is the four statements it always was. Rebuilding the whole links
// from the halves at every force would add a copy per step; running the
// outer products parity by parity would be other statements. (Blocks made
// alone, from a gauge field, keep their phased copy for as long as they
// live.) A diagonal 4 + m does not depend on the links: no diagonal force.

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/fermions/fermion_force.hpp"
#include "solvers/qcd/fermions/wilson_dirac.hpp"

namespace latte {

// The Wilson action's even-odd blocks (solvers/qcd/fermions/fermion_action.hpp).
template <class R, class W = DefaultWidth>
class WilsonEvenOddAction {
 public:
  using real_type = R;
  using width_type = W;
  using Links = Lattice<ColourMatrix<R>, W>;
  using LinksByDirection = std::array<Links, 4>;
  static constexpr double hopping_flops_per_site = 1320;
  static constexpr double diagonal_flops_per_site = 24;

  // The blocks of the whole-lattice action (sharing its links).
  explicit WilsonEvenOddAction(const WilsonAction<R, W>& action)
      : WilsonEvenOddAction(action.boundary_links(), action.mass()) {}
  // Made alone: U must outlive the blocks, as it must outlive M.
  WilsonEvenOddAction(const GaugeField<R, W>& U, double mass,
                      const FermionBoundary& boundary = FermionBoundary::periodic())
      : WilsonEvenOddAction(BoundaryLinks<R, W>(U, boundary), mass) {}
  WilsonEvenOddAction(GaugeField<R, W>&&, double, const FermionBoundary& = FermionBoundary::periodic()) = delete;
  // On links already made (the clover blocks' hopping term).
  WilsonEvenOddAction(BoundaryLinks<R, W> links, double mass)
      : links_(std::move(links)),
        even_(links_.links().geometry().checkerboard(Parity::even)),
        odd_(links_.links().geometry().checkerboard(Parity::odd)),
        U_even_(pick_links(links_.links(), Parity::even, even_)),
        U_odd_(pick_links(links_.links(), Parity::odd, odd_)),
        mass_(mass) {}

  const Geometry& even_geometry() const { return even_; }
  const Geometry& odd_geometry() const { return odd_; }
  double mass() const { return mass_; }
  const FermionBoundary& boundary() const { return links_.boundary(); }
  // The whole-lattice gauge field and links the halves were split from.
  const BoundaryLinks<R, W>& boundary_links() const { return links_; }
  double constant_diagonal() const { return 4.0 + mass_; }
  double hopping_coefficient() const { return -0.5; }
  std::vector<double> parameters() const { return wilson_parameters(mass_, boundary()); }
  std::string describe() const { return wilson_description(mass_, boundary()); }

  // The hopping term between checkerboards, as expressions: from odd sites
  // to even ones and back. Sign = +1: Dslash, -1: Dslash^+.
  // The field may be a batch of right-hand sides.
  template <int Sign, class F> auto hopping_to_even(const F& odd_field) const {
    return wilson_hopping<Sign>(U_even_, U_odd_, odd_field);
  }
  template <int Sign, class F> auto hopping_to_odd(const F& even_field) const {
    return wilson_hopping<Sign>(U_odd_, U_even_, even_field);
  }
  template <int Sign, class F> auto diagonal(Parity, const F& psi) const { return constant_diagonal() * psi; }
  template <int Sign, class F> auto diagonal_inverse(Parity, const F& psi) const {
    return (1.0 / constant_diagonal()) * psi;
  }

  // -2 kappa Re(Y^+ dH X) = Re(Y^+ dDslash X) with kappa = -1/2: the outer
  // products on the whole-lattice links (above: why they are kept).
  template <class Psi>
  void add_hopping_force(const Psi& X, const Psi& Y, GaugeField<R, W>& P, double coefficient) const {
    latte::add_hopping_force(links_.links(), X, Y, P, coefficient);
  }
  template <class Psi> void add_diagonal_force(const Psi&, const Psi&, GaugeField<R, W>&, double) const {}

 private:
  static LinksByDirection pick_links(const GaugeField<R, W>& U, Parity parity, const Geometry& half) {
    LinksByDirection links{Links(half, Uninitialized{}), Links(half, Uninitialized{}), Links(half, Uninitialized{}),
                           Links(half, Uninitialized{})};
    for (int mu = 0; mu < 4; ++mu) links[mu] = pick(parity, U[mu]);
    return links;
  }

  BoundaryLinks<R, W> links_;
  Geometry even_, odd_;
  LinksByDirection U_even_, U_odd_;
  double mass_;
};

// The Wilson Schur complement Mhat (apply, apply_dagger, apply_and_norm2 on
// even-site fields and batches), with the Wilson names kept.
template <class R, class W = DefaultWidth>
class WilsonEvenOdd : public EvenOddOperator<WilsonEvenOddAction<R, W>> {
  using Base = EvenOddOperator<WilsonEvenOddAction<R, W>>;

 public:
  using Links = typename WilsonEvenOddAction<R, W>::Links;
  using LinksByDirection = typename WilsonEvenOddAction<R, W>::LinksByDirection;

  WilsonEvenOdd(const GaugeField<R, W>& U, double mass, const FermionBoundary& boundary = FermionBoundary::periodic())
      : Base(WilsonEvenOddAction<R, W>(U, mass, boundary)) {}
  WilsonEvenOdd(GaugeField<R, W>&&, double, const FermionBoundary& = FermionBoundary::periodic()) = delete;
  // The Schur complement of an action or operator already made (sharing its
  // links): WilsonEvenOdd(M), WilsonEvenOdd(M.action().single_precision()).
  explicit WilsonEvenOdd(const WilsonAction<R, W>& action) : Base(WilsonEvenOddAction<R, W>(action)) {}
  explicit WilsonEvenOdd(const WilsonDirac<R, W>& M) : WilsonEvenOdd(M.action()) {}

  double mass() const { return this->action().mass(); }
  const FermionBoundary& boundary() const { return this->action().boundary(); }
  double diagonal() const { return this->action().constant_diagonal(); }
  template <int Sign, class F> auto hopping_to_even(const F& odd_field) const {
    return this->action().template hopping_to_even<Sign>(odd_field);
  }
  template <int Sign, class F> auto hopping_to_odd(const F& even_field) const {
    return this->action().template hopping_to_odd<Sign>(even_field);
  }
};

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE class EvenOddOperator<WilsonEvenOddAction<double>>;
LATTE_QCD_SINGLE_INSTANCE class EvenOddOperator<WilsonEvenOddAction<float>>;
LATTE_QCD_DOUBLE_INSTANCE class WilsonEvenOdd<double>;
LATTE_QCD_SINGLE_INSTANCE class WilsonEvenOdd<float>;
#endif

}  // namespace latte
