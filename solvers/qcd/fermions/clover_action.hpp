#pragma once
// The Wilson-clover (Sheikholeslami-Wohlert) operator
//   M = 4 + m - 1/2 Dslash + (c_sw/4) sum_{mu,nu} i sigma_{mu nu} F_{mu nu}
//     = T - 1/2 Dslash,      T = 4 + m + c_sw sum_{mu<nu} (i/2) sigma_{mu nu} F_{mu nu},
// with Dslash and its sign as for Wilson (solvers/qcd/fermions/wilson_dirac.hpp) and
// T the site-diagonal clover term (solvers/qcd/fermions/clover_term.hpp: conventions,
// storage and inverse). T is hermitian and commutes with gamma_5, so
// M^+ = T - 1/2 Dslash^+ = gamma_5 M gamma_5. c_sw = 0, or a gauge field with
// F = 0, gives the Wilson operator.
//
// The fermion boundary (solvers/qcd/fermions/fermion_boundary.hpp; periodic by
// default) enters the hopping term only, through the phased links Wilson's
// operators read (solvers/qcd/fermions/boundary_links.hpp). T is computed from the
// gauge field as given, without the phases: every term of F_{mu nu} is a
// closed loop (a plaquette), and a loop that crosses the boundary forward
// in mu crosses it backward too, so e^{i pi theta_mu} and its conjugate
// cancel in it. The phased links would give the same T up to the rounding
// of the phases' products (tests/test_clover.cpp checks it); the unphased
// ones need no copy, and one clover term serves every boundary.
//
// The actions below supply what the generic operators, Schur complement and
// solves take (solvers/qcd/fermions/fermion_action.hpp); the hopping term is Wilson's.
//
// Flops (per site and right-hand side):
//   T psi                    504 (clover_term.hpp)
//   M psi                    1320 (Dslash) + 504 (T psi) + 2 x 24 (1/2 x, and
//                            the difference) = 1872
//   Mhat psi (per even site) 2 x 1320 (two hopping terms) + 504 (Mee) + 504
//                            (Moo^-1) + 2 x 24 (kappa^2 x, the difference) = 3696
// against Wilson's 1392 and 2712.

#include <concepts>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solvers/qcd/fermions/clover_force.hpp"
#include "solvers/qcd/fermions/clover_term.hpp"
#include "solvers/qcd/fermions/even_odd_operator.hpp"
#include "solvers/qcd/fermions/wilson_dirac.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"

namespace latte {

// T psi as an expression (psi may be a batch of right-hand sides); with the
// stored inverse, T^-1 psi.
template <class Term, class Psi> auto clover_times(const Term& term, const Psi& psi) {
  return map(functors::CloverTimes{}, term, psi);
}

// The numbers that define a clover operator besides its fields (the mass,
// c_sw and the four boundary angles: a Schur operator of another boundary
// does not belong to M), and their text, with the boundary unless periodic.
inline std::vector<double> clover_parameters(double mass, double c_sw, const FermionBoundary& boundary) {
  return {mass, c_sw, boundary.theta[0], boundary.theta[1], boundary.theta[2], boundary.theta[3]};
}
inline std::string clover_description(double mass, double c_sw, const FermionBoundary& boundary) {
  const std::string text = "m = " + std::to_string(mass) + ", c_sw = " + std::to_string(c_sw);
  return boundary.is_periodic() ? text : text + ", " + boundary.describe();
}

// The clover action's parameters, from which it is made on any gauge field
// (hybrid Monte Carlo makes it, and its clover term, again at every step).
struct CloverParameters {
  double mass = 0;
  double c_sw = 0;
  FermionBoundary boundary = FermionBoundary::periodic();
  std::string describe() const { return clover_description(mass, c_sw, boundary); }
};

template <class R, class W> class CloverEvenOddAction;

// The clover action on the whole lattice. It keeps a reference to the gauge
// field, shares the clover term it was given and, for a boundary other than
// periodic, holds the phased copy of the links its hopping term reads (made
// when the action is built, as for WilsonAction; shared with its even-odd
// blocks).
template <class R, class W = DefaultWidth>
class CloverAction {
 public:
  using real_type = R;
  using width_type = W;
  using Gauge = GaugeField<R, W>;
  using Parameters = CloverParameters;
  using EvenOddAction = CloverEvenOddAction<R, W>;
  static constexpr const char* name = "Wilson-clover";
  static constexpr double flops_per_site = 1872;
  static constexpr const char* profile_name = "clover M";
  static constexpr const char* adjoint_profile_name = "clover M^+";

  CloverAction(const Gauge& U, std::shared_ptr<const CloverTerm<R, W>> term,
               const FermionBoundary& boundary = FermionBoundary::periodic())
      : links_(U, boundary), term_(std::move(term)) {}
  // Computes the clover term of U (throws CloverTermNotPositiveDefinite
  // where it has no inverse).
  CloverAction(const Gauge& U, const CloverParameters& parameters)
      : CloverAction(U, std::make_shared<const CloverTerm<R, W>>(U, parameters.mass, parameters.c_sw),
                     parameters.boundary) {}
  // On links and a clover term already made (the single-precision twin's).
  CloverAction(BoundaryLinks<R, W> links, std::shared_ptr<const CloverTerm<R, W>> term)
      : links_(std::move(links)), term_(std::move(term)) {}
  CloverAction(Gauge&&, std::shared_ptr<const CloverTerm<R, W>>, const FermionBoundary& = FermionBoundary::periodic()) =
      delete;
  CloverAction(Gauge&&, const CloverParameters&) = delete;

  const Geometry& geometry() const { return links_.gauge().geometry(); }
  double mass() const { return term_->mass(); }
  double c_sw() const { return term_->c_sw(); }
  // The gauge field as given (no phases; T is computed from it) and the
  // links the hopping term reads (with the boundary phases).
  const Gauge& gauge() const { return links_.gauge(); }
  const Gauge& links() const { return links_.links(); }
  const BoundaryLinks<R, W>& boundary_links() const { return links_; }
  const FermionBoundary& boundary() const { return links_.boundary(); }
  const CloverTerm<R, W>& clover_term() const { return *term_; }
  const std::shared_ptr<const CloverTerm<R, W>>& shared_clover_term() const { return term_; }
  std::vector<double> parameters() const { return clover_parameters(mass(), c_sw(), boundary()); }
  std::string describe() const { return clover_description(mass(), c_sw(), boundary()); }

  // T is hermitian: the same for M and M^+.
  template <int Sign, class Psi> auto M(const Psi& psi) const {
    return clover_times(term_->term(), psi) - 0.5 * wilson_hopping<Sign>(links(), psi);
  }

  // The single-precision twin: the links rounded, then phased
  // (BoundaryLinks::single_precision), and T and T^-1 rounded from the
  // double ones (not recomputed in float).
  CloverAction<float, MatchingSingleWidth<W>> single_precision() const
    requires std::same_as<R, double>
  {
    using SingleTerm = CloverTerm<float, MatchingSingleWidth<W>>;
    return {links_.single_precision(), std::make_shared<const SingleTerm>(SingleTerm::rounded_from(*term_))};
  }

 private:
  BoundaryLinks<R, W> links_;
  std::shared_ptr<const CloverTerm<R, W>> term_;
};

// M and M^+ of the clover action on fields and batches of them.
template <class R, class W = DefaultWidth>
class CloverDirac : public FermionOperator<CloverAction<R, W>> {
  using Base = FermionOperator<CloverAction<R, W>>;

 public:
  using Gauge = GaugeField<R, W>;

  // Computes the clover term of U, without the boundary phases (throws
  // CloverTermNotPositiveDefinite where it has no inverse).
  CloverDirac(const Gauge& U, double mass, double c_sw, const FermionBoundary& boundary = FermionBoundary::periodic())
      : Base(CloverAction<R, W>(U, std::make_shared<const CloverTerm<R, W>>(U, mass, c_sw), boundary)) {}
  // With a clover term already computed (its twin in another precision, say).
  CloverDirac(const Gauge& U, std::shared_ptr<const CloverTerm<R, W>> term,
              const FermionBoundary& boundary = FermionBoundary::periodic())
      : Base(CloverAction<R, W>(U, std::move(term), boundary)) {}
  // The operator of an action already made (M.action().single_precision(), say).
  explicit CloverDirac(CloverAction<R, W> action) : Base(std::move(action)) {}
  CloverDirac(Gauge&&, double, double, const FermionBoundary& = FermionBoundary::periodic()) = delete;

  double mass() const { return this->action().mass(); }
  double c_sw() const { return this->action().c_sw(); }
  const FermionBoundary& boundary() const { return this->action().boundary(); }
  // The gauge field as given; the hopping term reads links() (with the phases).
  const Gauge& gauge() const { return this->action().gauge(); }
  const Gauge& links() const { return this->action().links(); }
  const CloverTerm<R, W>& clover_term() const { return this->action().clover_term(); }
  const std::shared_ptr<const CloverTerm<R, W>>& shared_clover_term() const {
    return this->action().shared_clover_term();
  }
};

// The even-odd blocks: Wilson's hopping term between checkerboards (its
// links carry the boundary phases), and the clover term as the diagonal,
// Mee = T_e and Moo^-1 = (T^-1)_o, each a product with a stored per-site
// matrix (computed without the phases). T hermitian: Sign does not change them.
// The forces: the hopping term's is Wilson's (on the whole-lattice links,
// wilson_even_odd.hpp says why they are kept), the diagonal's the insertion
// of -2 Re(Y^+ dT X) into the clover leaves of the gauge field as given
// (solvers/qcd/fermions/clover_force.hpp).
template <class R, class W = DefaultWidth>
class CloverEvenOddAction {
 public:
  using real_type = R;
  using width_type = W;
  using Half = Lattice<CloverSite<R>, W>;
  static constexpr double hopping_flops_per_site = WilsonEvenOddAction<R, W>::hopping_flops_per_site;
  static constexpr double diagonal_flops_per_site = CloverTerm<R, W>::flops_per_site;

  // The blocks of the whole-lattice action (sharing its links).
  explicit CloverEvenOddAction(const CloverAction<R, W>& action)
      : CloverEvenOddAction(action.boundary_links(), action.clover_term()) {}
  // Made alone: U must outlive the blocks.
  CloverEvenOddAction(const GaugeField<R, W>& U, const CloverTerm<R, W>& term,
                      const FermionBoundary& boundary = FermionBoundary::periodic())
      : CloverEvenOddAction(BoundaryLinks<R, W>(U, boundary), term) {}
  CloverEvenOddAction(GaugeField<R, W>&&, const CloverTerm<R, W>&, const FermionBoundary& = FermionBoundary::periodic()) =
      delete;
  CloverEvenOddAction(BoundaryLinks<R, W> links, const CloverTerm<R, W>& term)
      : hopping_(std::move(links), term.mass()),
        term_{Half(hopping_.even_geometry(), Uninitialized{}), Half(hopping_.odd_geometry(), Uninitialized{})},
        inverse_{Half(hopping_.even_geometry(), Uninitialized{}), Half(hopping_.odd_geometry(), Uninitialized{})},
        c_sw_(term.c_sw()) {
    for (Parity parity : {Parity::even, Parity::odd}) {
      term_[index(parity)] = pick(parity, term.term());
      inverse_[index(parity)] = pick(parity, term.inverse());
    }
  }

  const Geometry& even_geometry() const { return hopping_.even_geometry(); }
  const Geometry& odd_geometry() const { return hopping_.odd_geometry(); }
  double mass() const { return hopping_.mass(); }
  double c_sw() const { return c_sw_; }
  const FermionBoundary& boundary() const { return hopping_.boundary(); }
  double hopping_coefficient() const { return hopping_.hopping_coefficient(); }
  std::vector<double> parameters() const { return clover_parameters(mass(), c_sw(), boundary()); }
  std::string describe() const { return clover_description(mass(), c_sw(), boundary()); }

  template <int Sign, class F> auto hopping_to_even(const F& odd_field) const {
    return hopping_.template hopping_to_even<Sign>(odd_field);
  }
  template <int Sign, class F> auto hopping_to_odd(const F& even_field) const {
    return hopping_.template hopping_to_odd<Sign>(even_field);
  }
  template <int Sign, class F> auto diagonal(Parity parity, const F& psi) const {
    return clover_times(term_[index(parity)], psi);
  }
  template <int Sign, class F> auto diagonal_inverse(Parity parity, const F& psi) const {
    return clover_times(inverse_[index(parity)], psi);
  }
  // The clover term and its inverse on one checkerboard.
  const Half& term(Parity parity) const { return term_[index(parity)]; }
  const Half& inverse(Parity parity) const { return inverse_[index(parity)]; }

  template <class Psi>
  void add_hopping_force(const Psi& X, const Psi& Y, GaugeField<R, W>& P, double coefficient) const {
    hopping_.add_hopping_force(X, Y, P, coefficient);
  }
  // -2 Re(Y^+ dT X): its insertion into the clover leaves, then their force.
  template <class Psi>
  void add_diagonal_force(const Psi& X, const Psi& Y, GaugeField<R, W>& P, double coefficient) const {
    const GaugeField<R, W>& U = hopping_.boundary_links().gauge();
    CloverInsertion<R, W> lambda(U.geometry());
    clover_insertion_from_spinors(lambda, X, Y, c_sw_);
    add_clover_force(U, lambda, P, coefficient);
  }

 private:
  static int index(Parity parity) { return parity == Parity::odd ? 1 : 0; }

  WilsonEvenOddAction<R, W> hopping_;
  Half term_[2], inverse_[2];
  double c_sw_;
};

// The clover Schur complement Mhat = T_e - 1/4 D_eo T_o^-1 D_oe.
template <class R, class W = DefaultWidth>
class CloverEvenOdd : public EvenOddOperator<CloverEvenOddAction<R, W>> {
  using Base = EvenOddOperator<CloverEvenOddAction<R, W>>;

 public:
  CloverEvenOdd(const GaugeField<R, W>& U, const CloverTerm<R, W>& term,
                const FermionBoundary& boundary = FermionBoundary::periodic())
      : Base(CloverEvenOddAction<R, W>(U, term, boundary)) {}
  CloverEvenOdd(GaugeField<R, W>&&, const CloverTerm<R, W>&, const FermionBoundary& = FermionBoundary::periodic()) =
      delete;
  // The Schur complement of an action or operator already made (sharing its
  // links): CloverEvenOdd(M), CloverEvenOdd(M.action().single_precision()).
  explicit CloverEvenOdd(const CloverAction<R, W>& action) : Base(CloverEvenOddAction<R, W>(action)) {}
  explicit CloverEvenOdd(const CloverDirac<R, W>& M) : CloverEvenOdd(M.action()) {}

  double mass() const { return this->action().mass(); }
  double c_sw() const { return this->action().c_sw(); }
  const FermionBoundary& boundary() const { return this->action().boundary(); }
};

}  // namespace latte
