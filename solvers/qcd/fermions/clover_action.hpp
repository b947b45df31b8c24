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

#include <memory>
#include <string>
#include <utility>
#include <vector>

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

// The clover action on the whole lattice. It keeps a reference to the gauge
// field, shares the clover term it was given and, for a boundary other than
// periodic, holds the phased copy of the links its hopping term reads (made
// when the action is built, as for WilsonAction).
template <class R, class W = DefaultWidth>
class CloverAction {
 public:
  using real_type = R;
  using width_type = W;
  using Gauge = GaugeField<R, W>;
  static constexpr double flops_per_site = 1872;
  static constexpr const char* profile_name = "clover M";
  static constexpr const char* adjoint_profile_name = "clover M^+";

  CloverAction(const Gauge& U, std::shared_ptr<const CloverTerm<R, W>> term,
               const FermionBoundary& boundary = FermionBoundary::periodic())
      : U_(&U), links_(U, boundary), term_(std::move(term)), boundary_(boundary) {}

  const Geometry& geometry() const { return U_->geometry(); }
  double mass() const { return term_->mass(); }
  double c_sw() const { return term_->c_sw(); }
  // The gauge field as given (no phases; T is computed from it) and the
  // links the hopping term reads (with the boundary phases).
  const Gauge& gauge() const { return *U_; }
  const Gauge& links() const { return links_.links(); }
  const FermionBoundary& boundary() const { return boundary_; }
  const CloverTerm<R, W>& clover_term() const { return *term_; }
  const std::shared_ptr<const CloverTerm<R, W>>& shared_clover_term() const { return term_; }
  std::vector<double> parameters() const { return clover_parameters(mass(), c_sw(), boundary_); }
  std::string describe() const { return clover_description(mass(), c_sw(), boundary_); }

  // T is hermitian: the same for M and M^+.
  template <int Sign, class Psi> auto M(const Psi& psi) const {
    return clover_times(term_->term(), psi) - 0.5 * wilson_hopping<Sign>(links(), psi);
  }

 private:
  const Gauge* U_;
  BoundaryLinks<R, W> links_;
  std::shared_ptr<const CloverTerm<R, W>> term_;
  FermionBoundary boundary_;
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
template <class R, class W = DefaultWidth>
class CloverEvenOddAction {
 public:
  using real_type = R;
  using width_type = W;
  using Half = Lattice<CloverSite<R>, W>;
  static constexpr double hopping_flops_per_site = WilsonEvenOddAction<R, W>::hopping_flops_per_site;
  static constexpr double diagonal_flops_per_site = CloverTerm<R, W>::flops_per_site;

  CloverEvenOddAction(const GaugeField<R, W>& U, const CloverTerm<R, W>& term,
                      const FermionBoundary& boundary = FermionBoundary::periodic())
      : hopping_(U, term.mass(), boundary),
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
  // M's gauge field, clover term and boundary.
  explicit CloverEvenOdd(const CloverDirac<R, W>& M) : CloverEvenOdd(M.gauge(), M.clover_term(), M.boundary()) {}

  double mass() const { return this->action().mass(); }
  double c_sw() const { return this->action().c_sw(); }
  const FermionBoundary& boundary() const { return this->action().boundary(); }
};

}  // namespace latte
