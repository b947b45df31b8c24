#pragma once
// The Wilson-clover (Sheikholeslami-Wohlert) operator
//   M = 4 + m - 1/2 Dslash + (c_sw/4) sum_{mu,nu} i sigma_{mu nu} F_{mu nu}
//     = T - 1/2 Dslash,      T = 4 + m + c_sw sum_{mu<nu} (i/2) sigma_{mu nu} F_{mu nu},
// with Dslash and its sign as for Wilson (solvers/qcd/wilson_dirac.hpp) and
// T the site-diagonal clover term (solvers/qcd/clover_term.hpp: conventions,
// storage and inverse). T is hermitian and commutes with gamma_5, so
// M^+ = T - 1/2 Dslash^+ = gamma_5 M gamma_5. c_sw = 0, or a gauge field with
// F = 0, gives the Wilson operator.
//
// The actions below supply what the generic operators, Schur complement and
// solves take (solvers/qcd/fermion_action.hpp); the hopping term is Wilson's.
//
// Flops (per site and right-hand side):
//   T psi                    504 (clover_term.hpp)
//   M psi                    1320 (Dslash) + 504 (T psi) + 2 x 24 (1/2 x, and
//                            the difference) = 1872
//   Mhat psi (per even site) 2 x 1320 (two hopping terms) + 504 (Mee) + 504
//                            (Moo^-1) + 2 x 24 (kappa^2 x, the difference) = 3696
// against Wilson's 1392 and 2712.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solvers/qcd/clover_term.hpp"
#include "solvers/qcd/even_odd_operator.hpp"
#include "solvers/qcd/even_odd_solve.hpp"
#include "solvers/qcd/wilson_dirac.hpp"
#include "solvers/qcd/wilson_even_odd.hpp"
#include "solvers/qcd/wilson_solve_mixed.hpp"

namespace latte {

// T psi as an expression (psi may be a batch of right-hand sides); with the
// stored inverse, T^-1 psi.
template <class Term, class Psi> auto clover_times(const Term& term, const Psi& psi) {
  return map(functors::CloverTimes{}, term, psi);
}

inline std::vector<double> clover_parameters(double mass, double c_sw) { return {mass, c_sw}; }
inline std::string clover_description(double mass, double c_sw) {
  return "m = " + std::to_string(mass) + ", c_sw = " + std::to_string(c_sw);
}

// The clover action on the whole lattice. It keeps a reference to the gauge
// field and shares the clover term it was given.
template <class R, class W = DefaultWidth>
class CloverAction {
 public:
  using real_type = R;
  using width_type = W;
  using Gauge = GaugeField<R, W>;
  static constexpr double flops_per_site = 1872;
  static constexpr const char* profile_name = "clover M";
  static constexpr const char* adjoint_profile_name = "clover M^+";

  CloverAction(const Gauge& U, std::shared_ptr<const CloverTerm<R, W>> term) : U_(&U), term_(std::move(term)) {}

  const Geometry& geometry() const { return U_->geometry(); }
  double mass() const { return term_->mass(); }
  double c_sw() const { return term_->c_sw(); }
  const Gauge& gauge() const { return *U_; }
  const CloverTerm<R, W>& clover_term() const { return *term_; }
  const std::shared_ptr<const CloverTerm<R, W>>& shared_clover_term() const { return term_; }
  std::vector<double> parameters() const { return clover_parameters(mass(), c_sw()); }
  std::string describe() const { return clover_description(mass(), c_sw()); }

  // T is hermitian: the same for M and M^+.
  template <int Sign, class Psi> auto M(const Psi& psi) const {
    return clover_times(term_->term(), psi) - 0.5 * wilson_hopping<Sign>(*U_, psi);
  }

 private:
  const Gauge* U_;
  std::shared_ptr<const CloverTerm<R, W>> term_;
};

// M and M^+ of the clover action on fields and batches of them.
template <class R, class W = DefaultWidth>
class CloverDirac : public FermionOperator<CloverAction<R, W>> {
  using Base = FermionOperator<CloverAction<R, W>>;

 public:
  using Gauge = GaugeField<R, W>;

  // Computes the clover term of U (throws CloverTermNotPositiveDefinite where
  // it has no inverse).
  CloverDirac(const Gauge& U, double mass, double c_sw)
      : Base(CloverAction<R, W>(U, std::make_shared<const CloverTerm<R, W>>(U, mass, c_sw))) {}
  // With a clover term already computed (its twin in another precision, say).
  CloverDirac(const Gauge& U, std::shared_ptr<const CloverTerm<R, W>> term)
      : Base(CloverAction<R, W>(U, std::move(term))) {}

  double mass() const { return this->action().mass(); }
  double c_sw() const { return this->action().c_sw(); }
  const Gauge& gauge() const { return this->action().gauge(); }
  const CloverTerm<R, W>& clover_term() const { return this->action().clover_term(); }
  const std::shared_ptr<const CloverTerm<R, W>>& shared_clover_term() const {
    return this->action().shared_clover_term();
  }
};

// The even-odd blocks: Wilson's hopping term between checkerboards, and the
// clover term as the diagonal, Mee = T_e and Moo^-1 = (T^-1)_o, each a
// product with a stored per-site matrix. T hermitian: Sign does not change them.
template <class R, class W = DefaultWidth>
class CloverEvenOddAction {
 public:
  using real_type = R;
  using width_type = W;
  using Half = Lattice<CloverSite<R>, W>;
  static constexpr double hopping_flops_per_site = WilsonEvenOddAction<R, W>::hopping_flops_per_site;
  static constexpr double diagonal_flops_per_site = CloverTerm<R, W>::flops_per_site;

  CloverEvenOddAction(const GaugeField<R, W>& U, const CloverTerm<R, W>& term)
      : hopping_(U, term.mass()),
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
  double hopping_coefficient() const { return hopping_.hopping_coefficient(); }
  std::vector<double> parameters() const { return clover_parameters(mass(), c_sw()); }
  std::string describe() const { return clover_description(mass(), c_sw()); }

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
  CloverEvenOdd(const GaugeField<R, W>& U, const CloverTerm<R, W>& term)
      : Base(CloverEvenOddAction<R, W>(U, term)) {}
  explicit CloverEvenOdd(const CloverDirac<R, W>& M) : CloverEvenOdd(M.gauge(), M.clover_term()) {}

  double mass() const { return this->action().mass(); }
  double c_sw() const { return this->action().c_sw(); }
};

// Even-odd preconditioned CG for the clover operator.
template <class R, class W, class Site>
SolverReport solve_clover_even_odd(const CloverEvenOdd<R, W>& schur, const CloverDirac<R, W>& M,
                                   Lattice<Site, W>& x, const Lattice<Site, W>& b, const SolverControl& control) {
  return solve_even_odd(schur, M, x, b, control, "Latte even-odd clover solve");
}

// The single-precision twin of a double clover Schur operator: links and
// clover term (and its inverse) rounded from the double ones, on the same
// lanes. It owns its single-precision links.
template <class W>
class SingleCloverEvenOdd {
 public:
  using SingleWidth = MatchingSingleWidth<W>;
  explicit SingleCloverEvenOdd(const CloverDirac<double, W>& M)
      : U_(single_precision_links(M.gauge())),
        term_(CloverTerm<float, SingleWidth>::rounded_from(M.clover_term())),
        schur_(U_, term_) {}
  const CloverEvenOdd<float, SingleWidth>& schur() const { return schur_; }

 private:
  GaugeField<float, SingleWidth> U_;
  CloverTerm<float, SingleWidth> term_;
  CloverEvenOdd<float, SingleWidth> schur_;
};

// Even-odd preconditioning and mixed precision together (defect correction
// on the Schur system with the single twin inside).
template <class W>
SolverReport solve_clover_even_odd_mixed(const CloverEvenOdd<double, W>& schur,
                                         const CloverEvenOdd<float, MatchingSingleWidth<W>>& schur_single,
                                         const CloverDirac<double, W>& M, Lattice<Spinor<double>, W>& x,
                                         const Lattice<Spinor<double>, W>& b, const SolverControl& control,
                                         const MixedPrecisionControl& mixed = {}) {
  return solve_even_odd_mixed(schur, schur_single, M, x, b, control, mixed,
                              "Latte even-odd mixed-precision clover solve");
}

}  // namespace latte
