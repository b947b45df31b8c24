#pragma once
// The Wilson Dirac operator, written as one DSL expression.
//
// Conventions (gamma basis in lattice/gamma.hpp, lattice units a = 1):
//   Dslash psi(x) = sum_mu (1 - gamma_mu) U_mu(x) psi(x + mu^)
//                        + (1 + gamma_mu) U_mu^+(x - mu^) psi(x - mu^)
//   M = (4 + m) - 1/2 Dslash,     M^+ = gamma_5 M gamma_5
// i.e. the hopping term enters with a minus sign and the free operator is
//   M(p) = m + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu.
// Dslash^+ swaps the projectors: (1 + gamma_mu) forward, (1 - gamma_mu)
// backward. Boundary conditions are periodic in all four directions.
//
// Each direction projects psi to a half spinor, shifts it (forward: after
// nothing; backward: after multiplying by U^+ at the neighbour, so U(x - mu)
// is read where it lives), multiplies by the link and reconstructs; the sum
// over the 8 terms is one fused pass over the lattice.
// Flops per site: Dslash 8 x (12 + 2 x 66) + 7 x 24 = 1320;
// M adds 3 x 24 for (4 + m) psi - 1/2 Dslash psi: 1392.

#include "dsl/latte.hpp"
#include "lattice/gauge_field.hpp"
#include "solvers/qcd/precompiled_instances.hpp"

namespace latte {

// The two hopping terms of direction Mu. Sign = +1 for Dslash, -1 for Dslash^+.
// U_here holds the links at the sites the result lives on, U_there those at
// psi's sites: the same field on the whole lattice, the two checkerboards of
// it in the even-odd form (solvers/qcd/wilson_even_odd.hpp).
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

template <class R, class W = DefaultWidth>
class WilsonDirac {
 public:
  using Field = Lattice<Spinor<R>, W>;
  // N right-hand sides at once: every link is read once per site for all N.
  template <int N> using MultiField = Lattice<MultiSpinor<R, N>, W>;
  using Gauge = GaugeField<R, W>;
  static constexpr double dslash_flops_per_site = 1320;
  static constexpr double flops_per_site = 1392;  // per right-hand side

  WilsonDirac(const Gauge& U, double mass) : U_(U), mass_(mass) {}

  const Geometry& geometry() const { return U_.geometry(); }
  double mass() const { return mass_; }
  const Gauge& gauge() const { return U_; }

  void dslash(Field& out, const Field& in) const;
  void dslash_dagger(Field& out, const Field& in) const;
  void apply(Field& out, const Field& in) const;
  void apply_dagger(Field& out, const Field& in) const;
  // out = M in, returning |out|^2 from the same pass.
  double apply_and_norm2(Field& out, const Field& in) const;

  // The same on a batch of N right-hand sides, one fused pass each; the
  // fused norm is that of every right-hand side separately.
  template <int N> void dslash(MultiField<N>& out, const MultiField<N>& in) const { hop<+1>(out, in); }
  template <int N> void dslash_dagger(MultiField<N>& out, const MultiField<N>& in) const { hop<-1>(out, in); }
  template <int N> void apply(MultiField<N>& out, const MultiField<N>& in) const { apply_signed<+1>(out, in); }
  template <int N> void apply_dagger(MultiField<N>& out, const MultiField<N>& in) const { apply_signed<-1>(out, in); }
  template <int N> Batch<double, N> apply_and_norm2(MultiField<N>& out, const MultiField<N>& in) const {
    return apply_and_norms(out, in, rhs_norm2(out));
  }

 private:
  // One statement each, for a single field and for batches alike.
  template <int Sign, class F> void hop(F& out, const F& in) const {
    const profile::Region region(Sign > 0 ? "Wilson Dslash" : "Wilson Dslash^+");
    out = wilson_hopping<Sign>(U_, in);
  }
  template <int Sign, class F> void apply_signed(F& out, const F& in) const {
    const profile::Region region(Sign > 0 ? "Wilson M" : "Wilson M^+");
    out = (4.0 + mass_) * in - 0.5 * wilson_hopping<Sign>(U_, in);
  }
  template <class F, class Norm> auto apply_and_norms(F& out, const F& in, const Norm& norm) const {
    const profile::Region region("Wilson M");
    return assign_and_sum(out, (4.0 + mass_) * in - 0.5 * wilson_hopping<+1>(U_, in), norm);
  }

  const Gauge& U_;
  double mass_;
};

// The statements are defined outside the class, so that they are not inline:
// a build can compile them once for its usual precisions and let every other
// file use that copy (solvers/qcd/precompiled_instances.hpp).
template <class R, class W>
void WilsonDirac<R, W>::dslash(Field& out, const Field& in) const {
  hop<+1>(out, in);
}
template <class R, class W>
void WilsonDirac<R, W>::dslash_dagger(Field& out, const Field& in) const {
  hop<-1>(out, in);
}
template <class R, class W>
void WilsonDirac<R, W>::apply(Field& out, const Field& in) const {
  apply_signed<+1>(out, in);
}
template <class R, class W>
void WilsonDirac<R, W>::apply_dagger(Field& out, const Field& in) const {
  apply_signed<-1>(out, in);
}
template <class R, class W>
double WilsonDirac<R, W>::apply_and_norm2(Field& out, const Field& in) const {
  return apply_and_norms(out, in, localNorm2(out));
}

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE class WilsonDirac<double>;
LATTE_QCD_SINGLE_INSTANCE class WilsonDirac<float>;
#endif

}  // namespace latte
