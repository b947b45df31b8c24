#pragma once
// The even-odd (red-black) Schur complement of any action with even-odd
// blocks (solvers/qcd/fermions/fermion_action.hpp), written once.
//
// Eliminating the odd sites of M x = b leaves, on the even ones,
//   Mhat = Mee - Meo Moo^-1 Moe,                        Mhat x_e = bhat_e,
//   bhat_e = b_e - Meo Moo^-1 b_o,                      x_o = Moo^-1 (b_o - Moe x_e),
// and Mhat^+ = Mee^+ - (Moe)^+ (Moo^+)^-1 (Meo)^+: the same formula with the
// blocks of M^+ (Sign = -1). This is the form Grid calls SchurDiagMooee
// (Grid keeps the odd sites; this project keeps the even ones, as its Wilson
// solves always have). Of the possible forms it is the one where
//   - |b - M x| = |bhat_e - Mhat x_e| exactly once the odd sites are
//     reconstructed, so the solver's tolerance carries over to the whole
//     system by a known factor (solvers/qcd/solves/even_odd_solve.hpp);
//   - only Moo^-1 is needed, once per application, on the odd sites: no
//     inverse on the even sites, where Mee applies as it is;
//   - for a constant diagonal A it is A - kappa^2 / A H_eo H_oe, Wilson's
//     Schur complement as it always was.
// (The forms 1 - Mee^-1 Meo Moo^-1 Moe, better conditioned for clover, are
// Mee^-1 Mhat; they lose the first property.)
//
// One application of Mhat is two statements with one odd-site intermediate:
//   odd = Moo^-1 H_oe in,   out = Mee in - kappa^2 H_eo odd
// and for a constant diagonal A (ConstantDiagonal), the inverse folded in:
//   odd = H_oe in,          out = A in - (kappa^2 / A) H_eo odd.
// Flops per even site: two hopping terms, Mee, Moo^-1 (when not folded),
// the coefficient's product and the difference (2 x 24): Wilson
// 2 x 1320 + 24 + 48 = 2712.

#include <concepts>
#include <map>
#include <memory>
#include <utility>

#include "solvers/qcd/fermions/fermion_action.hpp"

namespace latte {

template <EvenOddFermionAction Action>
class EvenOddOperator {
 public:
  using action_type = Action;
  using real_type = typename Action::real_type;
  using width_type = typename Action::width_type;
  using Field = Lattice<Spinor<real_type>, width_type>;  // spinors on one checkerboard
  template <int N> using MultiField = Lattice<MultiSpinor<real_type, N>, width_type>;  // N right-hand sides on it
  static constexpr bool diagonal_is_constant = ConstantDiagonal<Action>;
  static constexpr double flops_per_site = 2 * Action::hopping_flops_per_site +
                                           (diagonal_is_constant ? 1 : 2) * Action::diagonal_flops_per_site + 2 * 24;

  explicit EvenOddOperator(Action action);

  const Action& action() const { return action_; }
  // The fields Mhat acts on live on the even checkerboard.
  const Geometry& geometry() const { return action_.even_geometry(); }
  const Geometry& odd_geometry() const { return action_.odd_geometry(); }

  // The blocks of M (Sign = +1) or of M^+ (Sign = -1) as expressions:
  // Meo<-1> psi_o = (M^+)_eo psi_o = (Moe)^+ psi_o, MeeInv<-1> = (Mee^+)^-1.
  template <int Sign = +1, class F> auto Mee(const F& even) const {
    return action_.template diagonal<Sign>(Parity::even, even);
  }
  template <int Sign = +1, class F> auto Moo(const F& odd) const {
    return action_.template diagonal<Sign>(Parity::odd, odd);
  }
  template <int Sign = +1, class F> auto MeeInv(const F& even) const {
    return action_.template diagonal_inverse<Sign>(Parity::even, even);
  }
  template <int Sign = +1, class F> auto MooInv(const F& odd) const {
    return action_.template diagonal_inverse<Sign>(Parity::odd, odd);
  }
  template <int Sign = +1, class F> auto Meo(const F& odd) const {
    return action_.hopping_coefficient() * action_.template hopping_to_even<Sign>(odd);
  }
  template <int Sign = +1, class F> auto Moe(const F& even) const {
    return action_.hopping_coefficient() * action_.template hopping_to_odd<Sign>(even);
  }

  // out = Mhat in, out = Mhat^+ in.
  void apply(Field& out, const Field& in) const;
  void apply_dagger(Field& out, const Field& in) const;
  // out = Mhat in, returning |out|^2 from the same pass.
  double apply_and_norm2(Field& out, const Field& in) const;

  // The same on a batch of N right-hand sides (each link read once per site
  // for all N); the fused norm is that of every right-hand side.
  template <int N> void apply(MultiField<N>& out, const MultiField<N>& in) const {
    apply_signed<+1>(out, in, odd_scratch<N>());
  }
  template <int N> void apply_dagger(MultiField<N>& out, const MultiField<N>& in) const {
    apply_signed<-1>(out, in, odd_scratch<N>());
  }
  template <int N> Batch<double, N> apply_and_norm2(MultiField<N>& out, const MultiField<N>& in) const {
    return apply_and_norms(out, in, odd_scratch<N>(), rhs_norm2(out));
  }

  // The two halves of Meo Moo^-1 v = c H_eo w, for v on the odd sites about
  // to be hopped to the even ones: w = odd_before_hop(v) (Moo^-1 v, or v
  // itself for a constant diagonal) and c = coefficient_after_hop(kappa)
  // (kappa, or kappa / A). Used by Mhat and by the source of the solve.
  template <int Sign, class E> auto odd_before_hop(const E& v) const {
    if constexpr (diagonal_is_constant) return v;
    else return MooInv<Sign>(v);
  }
  double coefficient_after_hop(double c) const {
    if constexpr (diagonal_is_constant) return c / action_.constant_diagonal();
    else return c;
  }

 private:
  template <int Sign, class F> void apply_signed(F& out, const F& in, F& odd) const;
  template <class F, class Norm> auto apply_and_norms(F& out, const F& in, F& odd, const Norm& norm) const;
  // The odd-site intermediate of a batch of N, made on first use and kept:
  // an iteration of a solver allocates nothing.
  template <int N> MultiField<N>& odd_scratch() const {
    std::shared_ptr<void>& slot = batch_scratch_[N];
    if (!slot) slot = std::make_shared<MultiField<N>>(odd_geometry());
    return *static_cast<MultiField<N>*>(slot.get());
  }
  double kappa_squared() const { return action_.hopping_coefficient() * action_.hopping_coefficient(); }

  Action action_;
  mutable Field odd_scratch_;
  mutable std::map<int, std::shared_ptr<void>> batch_scratch_;
};

// Defined outside the class, so not inline: see FermionOperator.
template <EvenOddFermionAction Action>
EvenOddOperator<Action>::EvenOddOperator(Action action)
    : action_(std::move(action)), odd_scratch_(action_.odd_geometry()) {}

template <EvenOddFermionAction Action>
void EvenOddOperator<Action>::apply(Field& out, const Field& in) const {
  apply_signed<+1>(out, in, odd_scratch_);
}
template <EvenOddFermionAction Action>
void EvenOddOperator<Action>::apply_dagger(Field& out, const Field& in) const {
  apply_signed<-1>(out, in, odd_scratch_);
}
template <EvenOddFermionAction Action>
double EvenOddOperator<Action>::apply_and_norm2(Field& out, const Field& in) const {
  return apply_and_norms(out, in, odd_scratch_, localNorm2(out));
}
template <EvenOddFermionAction Action>
template <class F, class Norm>
auto EvenOddOperator<Action>::apply_and_norms(F& out, const F& in, F& odd, const Norm& norm) const {
  const profile::Region region("even-odd Mhat");
  odd = odd_before_hop<+1>(action_.template hopping_to_odd<+1>(in));
  return assign_and_sum(
      out, Mee<+1>(in) - coefficient_after_hop(kappa_squared()) * action_.template hopping_to_even<+1>(odd), norm);
}
template <EvenOddFermionAction Action>
template <int Sign, class F>
void EvenOddOperator<Action>::apply_signed(F& out, const F& in, F& odd) const {
  const profile::Region region(Sign > 0 ? "even-odd Mhat" : "even-odd Mhat^+");
  odd = odd_before_hop<Sign>(action_.template hopping_to_odd<Sign>(in));
  out = Mee<Sign>(in) - coefficient_after_hop(kappa_squared()) * action_.template hopping_to_even<Sign>(odd);
}

// An EvenOddOperator or a class derived from one (WilsonEvenOdd).
template <class T>
concept SchurOperator = std::derived_from<T, EvenOddOperator<typename T::action_type>>;

}  // namespace latte
