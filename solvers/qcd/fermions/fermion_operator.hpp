#pragma once
// The whole-lattice operator of any action (solvers/qcd/fermions/fermion_action.hpp):
// M and M^+ applied as one statement each, on a spinor field or a batch of
// right-hand sides, and M fused with the norm of its result (CG's
// <p, M^+ M p> = |M p|^2). This is what the solvers take as M
// (solvers/qcd/solves/wilson_solve.hpp: solve_wilson, relative_residuals; the
// even-odd solves' final residual).

#include <concepts>
#include <utility>

#include "solvers/qcd/fermions/fermion_action.hpp"

namespace latte {

template <FermionAction Action>
class FermionOperator {
 public:
  using action_type = Action;
  using real_type = typename Action::real_type;
  using width_type = typename Action::width_type;
  using Field = Lattice<Spinor<real_type>, width_type>;
  // N right-hand sides at once: every link is read once per site for all N.
  template <int N> using MultiField = Lattice<MultiSpinor<real_type, N>, width_type>;
  static constexpr double flops_per_site = Action::flops_per_site;  // per right-hand side

  explicit FermionOperator(Action action) : action_(std::move(action)) {}

  const Action& action() const { return action_; }
  const Geometry& geometry() const { return action_.geometry(); }

  // M psi and M^+ psi as expressions.
  template <class F> auto M(const F& psi) const { return action_.template M<+1>(psi); }
  template <class F> auto Mdag(const F& psi) const { return action_.template M<-1>(psi); }

  void apply(Field& out, const Field& in) const;
  void apply_dagger(Field& out, const Field& in) const;
  // out = M in, returning |out|^2 from the same pass.
  double apply_and_norm2(Field& out, const Field& in) const;

  // The same on a batch of N right-hand sides, one fused pass each; the
  // fused norm is that of every right-hand side separately.
  template <int N> void apply(MultiField<N>& out, const MultiField<N>& in) const { apply_signed<+1>(out, in); }
  template <int N> void apply_dagger(MultiField<N>& out, const MultiField<N>& in) const { apply_signed<-1>(out, in); }
  template <int N> Batch<double, N> apply_and_norm2(MultiField<N>& out, const MultiField<N>& in) const {
    return apply_and_norms(out, in, rhs_norm2(out));
  }

 private:
  // One statement each, for a single field and for batches alike.
  template <int Sign, class F> void apply_signed(F& out, const F& in) const {
    const profile::Region region(Sign > 0 ? Action::profile_name : Action::adjoint_profile_name);
    out = action_.template M<Sign>(in);
  }
  template <class F, class Norm> auto apply_and_norms(F& out, const F& in, const Norm& norm) const {
    const profile::Region region(Action::profile_name);
    return assign_and_sum(out, action_.template M<+1>(in), norm);
  }

  Action action_;
};

// The statements are defined outside the class, so that they are not inline:
// a build can compile them once for its usual actions and precisions and let
// every other file use that copy (solvers/qcd/fermions/precompiled_instances.hpp).
template <FermionAction Action>
void FermionOperator<Action>::apply(Field& out, const Field& in) const {
  apply_signed<+1>(out, in);
}
template <FermionAction Action>
void FermionOperator<Action>::apply_dagger(Field& out, const Field& in) const {
  apply_signed<-1>(out, in);
}
template <FermionAction Action>
double FermionOperator<Action>::apply_and_norm2(Field& out, const Field& in) const {
  return apply_and_norms(out, in, localNorm2(out));
}

// A FermionOperator or a class derived from one (WilsonDirac).
template <class T>
concept WholeLatticeOperator = std::derived_from<T, FermionOperator<typename T::action_type>>;

}  // namespace latte
