#pragma once
// Even-odd (red-black) preconditioning of the Wilson operator.
//
// Ordering the sites by parity, M = (4 + m) - 1/2 Dslash becomes
//       M = [ A           -1/2 D_eo ]      A = 4 + m,
//           [ -1/2 D_oe   A         ]      D_eo: the hopping term from odd to even sites
// (the hopping term only joins neighbours, which have opposite parities).
// Eliminating the odd sites leaves the Schur complement on the even ones,
//   Mhat = A - 1/(4A) D_eo D_oe,
//   Mhat x_e = b_e + 1/(2A) D_eo b_o,       x_o = (b_o + 1/2 D_oe x_e) / A,
// and since (D_eo)^+ = (Dslash^+)_oe, Mhat^+ = A - 1/(4A) (Dslash^+)_eo (Dslash^+)_oe.
// Mhat is better conditioned than M: CG on Mhat^+ Mhat needs fewer
// iterations, each over half the sites. The residual of the whole system is
// that of the Schur system, |b - M x| = |bhat_e - Mhat x_e|, exactly: the odd
// rows are solved exactly by the reconstruction.
//
// The operator keeps the links split by parity (a second copy of the gauge
// field in memory) so that every statement reads contiguous half fields.
// Flops per even site of Mhat: two hopping terms (each 1320 per site of its
// parity) and A in - c h (3 x 24): 2712.

#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "solvers/qcd/wilson_dirac.hpp"
#include "solvers/qcd/wilson_solve.hpp"

namespace latte {

template <class R, class W = DefaultWidth>
class WilsonEvenOdd {
 public:
  using Field = Lattice<Spinor<R>, W>;  // spinors on one checkerboard
  template <int N> using MultiField = Lattice<MultiSpinor<R, N>, W>;  // N right-hand sides on it
  using Links = Lattice<ColourMatrix<R>, W>;
  using LinksByDirection = std::array<Links, 4>;
  static constexpr double flops_per_site = 2 * 1320 + 72;

  WilsonEvenOdd(const GaugeField<R, W>& U, double mass);

  // The fields Mhat acts on live on the even checkerboard.
  const Geometry& geometry() const { return even_; }
  const Geometry& odd_geometry() const { return odd_; }
  double mass() const { return mass_; }
  double diagonal() const { return 4.0 + mass_; }

  // The hopping term between checkerboards, as expressions: from odd sites
  // to even ones and back. Sign = +1: Dslash, -1: Dslash^+.
  // The field may be a batch of right-hand sides (MultiField).
  template <int Sign, class F> auto hopping_to_even(const F& odd_field) const {
    return wilson_hopping<Sign>(U_even_, U_odd_, odd_field);
  }
  template <int Sign, class F> auto hopping_to_odd(const F& even_field) const {
    return wilson_hopping<Sign>(U_odd_, U_even_, even_field);
  }

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

 private:
  template <int Sign, class F> void apply_signed(F& out, const F& in, F& odd) const;
  template <class F, class Norm> auto apply_and_norms(F& out, const F& in, F& odd, const Norm& norm) const;
  // The odd-site intermediate of a batch of N, made on first use and kept:
  // an iteration of a solver allocates nothing.
  template <int N> MultiField<N>& odd_scratch() const {
    std::shared_ptr<void>& slot = batch_scratch_[N];
    if (!slot) slot = std::make_shared<Lattice<MultiSpinor<R, N>, W>>(odd_);
    return *static_cast<Lattice<MultiSpinor<R, N>, W>*>(slot.get());
  }
  static LinksByDirection pick_links(const GaugeField<R, W>& U, Parity parity, const Geometry& half);

  Geometry even_, odd_;
  LinksByDirection U_even_, U_odd_;
  double mass_;
  mutable Field odd_scratch_;
  mutable std::map<int, std::shared_ptr<void>> batch_scratch_;
};

// Defined outside the class, so not inline: see WilsonDirac.
template <class R, class W>
WilsonEvenOdd<R, W>::WilsonEvenOdd(const GaugeField<R, W>& U, double mass)
    : even_(U.geometry().checkerboard(Parity::even)),
      odd_(U.geometry().checkerboard(Parity::odd)),
      U_even_(pick_links(U, Parity::even, even_)),
      U_odd_(pick_links(U, Parity::odd, odd_)),
      mass_(mass),
      odd_scratch_(odd_) {}

template <class R, class W>
void WilsonEvenOdd<R, W>::apply(Field& out, const Field& in) const {
  apply_signed<+1>(out, in, odd_scratch_);
}
template <class R, class W>
void WilsonEvenOdd<R, W>::apply_dagger(Field& out, const Field& in) const {
  apply_signed<-1>(out, in, odd_scratch_);
}
template <class R, class W>
double WilsonEvenOdd<R, W>::apply_and_norm2(Field& out, const Field& in) const {
  return apply_and_norms(out, in, odd_scratch_, localNorm2(out));
}
template <class R, class W>
template <class F, class Norm>
auto WilsonEvenOdd<R, W>::apply_and_norms(F& out, const F& in, F& odd, const Norm& norm) const {
  const profile::Region region("even-odd Mhat");
  odd = hopping_to_odd<+1>(in);
  return assign_and_sum(out, diagonal() * in - (0.25 / diagonal()) * hopping_to_even<+1>(odd), norm);
}
template <class R, class W>
template <int Sign, class F>
void WilsonEvenOdd<R, W>::apply_signed(F& out, const F& in, F& odd) const {
  const profile::Region region(Sign > 0 ? "even-odd Mhat" : "even-odd Mhat^+");
  odd = hopping_to_odd<Sign>(in);
  out = diagonal() * in - (0.25 / diagonal()) * hopping_to_even<Sign>(odd);
}
template <class R, class W>
auto WilsonEvenOdd<R, W>::pick_links(const GaugeField<R, W>& U, Parity parity, const Geometry& half)
    -> LinksByDirection {
  LinksByDirection links{Links(half, Uninitialized{}), Links(half, Uninitialized{}), Links(half, Uninitialized{}),
                         Links(half, Uninitialized{})};
  for (int mu = 0; mu < 4; ++mu) links[mu] = pick(parity, U[mu]);
  return links;
}

// Solve M x = b (fields on the whole lattice) through the even-odd Schur
// complement `schur` of M (same gauge field and mass): prepare the even-site
// system Mhat x_e = bhat_e, hand it to solve_even(x_e, bhat_e, control) with
// the tolerance rescaled from |b| to |bhat_e|, reconstruct the odd sites and
// recompute |b - M x| / |b| with M. x is also the initial guess. `name`
// opens the error messages. The fields may be batches of right-hand sides
// (Site = MultiSpinor): the rescaled tolerance is then the tightest over
// them, and every |b_k - M x_k| / |b_k| is checked.
template <class R, class W, class Site, class EvenSolve>
SolverReport solve_through_schur_complement(const WilsonEvenOdd<R, W>& schur, const WilsonDirac<R, W>& M,
                                            Lattice<Site, W>& x, const Lattice<Site, W>& b,
                                            const SolverControl& control, const std::string& name,
                                            EvenSolve&& solve_even) {
  using Field = Lattice<Site, W>;
  if (b.geometry().checkerboarded() || x.geometry().checkerboarded())
    throw GeometryMismatch(name + ": x and b must be fields on the whole lattice; got " + x.layout().describe() +
                           " and " + b.layout().describe());
  if (schur.mass() != M.mass() || !schur.geometry().layout(Field::nsimd).checkerboard(Parity::all).same_as(b.layout()))
    throw GeometryMismatch(name + ": the Schur operator (m = " + std::to_string(schur.mass()) + ", " +
                           schur.geometry().layout(Field::nsimd).describe() + ") does not belong to M (m = " +
                           std::to_string(M.mass()) + ") on " + b.layout().describe());
  const auto start = std::chrono::steady_clock::now();
  const double A = schur.diagonal();

  Field b_odd(schur.odd_geometry(), Uninitialized{});
  b_odd = pick(Parity::odd, b);
  Field rhs(schur.geometry(), Uninitialized{}), x_even(schur.geometry(), Uninitialized{});
  rhs = pick(Parity::even, b) + (0.5 / A) * schur.template hopping_to_even<+1>(b_odd);
  x_even = pick(Parity::even, x);

  // |b - M x| = |rhs - Mhat x_e|: scale the tolerance from |b| to |rhs|.
  const std::vector<double> b_norms = rhs_norms(b), rhs_norm = rhs_norms(rhs);
  double scale = 0;
  bool first = true;
  for (std::size_t k = 0; k < b_norms.size(); ++k) {
    if (!std::isfinite(b_norms[k]))
      throw SolverError(name + ": the right-hand side contains NaN or infinity", SolverReport{});
    if (rhs_norm[k] > 0) scale = first ? b_norms[k] / rhs_norm[k] : std::min(scale, b_norms[k] / rhs_norm[k]);
    if (rhs_norm[k] > 0) first = false;
  }
  SolverControl reduced = control;
  if (!first) reduced.tolerance = control.tolerance * scale;
  SolverReport report = solve_even(x_even, rhs, reduced);

  Field x_odd(schur.odd_geometry(), Uninitialized{});
  x_odd = (1.0 / A) * (b_odd + 0.5 * schur.template hopping_to_odd<+1>(x_even));
  x = merge(x_even, x_odd);
  const std::vector<double> residuals = relative_residuals(M, x, b);
  report.true_residual = 0;
  for (double e : residuals) report.true_residual = std::max(report.true_residual, e);
  if (batch_size_v<Site> > 0) report.rhs_true_residuals = residuals;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report.true_residual > control.tolerance) {
    report.unconverged.clear();
    for (std::size_t k = 0; k < residuals.size(); ++k)
      if (residuals[k] > control.tolerance) report.unconverged.push_back(static_cast<int>(k));
    throw SolverError(name + ": |b - M x| / |b| = " + std::to_string(report.true_residual) +
                          " above the tolerance " + std::to_string(control.tolerance) +
                          " after reconstructing the odd sites",
                      report);
  }
  return report;
}

// Even-odd preconditioned CG: CG on the Schur system's normal equations.
template <class R, class W>
SolverReport solve_wilson_even_odd(const WilsonEvenOdd<R, W>& schur, const WilsonDirac<R, W>& M,
                                   Lattice<Spinor<R>, W>& x, const Lattice<Spinor<R>, W>& b,
                                   const SolverControl& control) {
  return solve_through_schur_complement(
      schur, M, x, b, control, "Latte even-odd Wilson solve",
      [&](auto& x_even, const auto& rhs, const SolverControl& reduced) { return solve_wilson(schur, x_even, rhs, reduced); });
}

// The same, building the Schur operator for this one solve (its link copies
// and first-use tables are part of the time reported).
template <class R, class W>
SolverReport solve_wilson_even_odd(const WilsonDirac<R, W>& M, Lattice<Spinor<R>, W>& x,
                                   const Lattice<Spinor<R>, W>& b, const SolverControl& control) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<R, W> schur(M.gauge(), M.mass());
  SolverReport report = solve_wilson_even_odd(schur, M, x, b, control);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// The same for N right-hand sides at once: one Schur operator application
// per iteration for all of them.
template <class R, class W, int N>
SolverReport solve_wilson_even_odd(const WilsonEvenOdd<R, W>& schur, const WilsonDirac<R, W>& M,
                                   Lattice<MultiSpinor<R, N>, W>& x, const Lattice<MultiSpinor<R, N>, W>& b,
                                   const SolverControl& control) {
  return solve_through_schur_complement(
      schur, M, x, b, control, "Latte even-odd Wilson solve",
      [&](auto& x_even, const auto& rhs, const SolverControl& reduced) { return solve_wilson(schur, x_even, rhs, reduced); });
}
template <class R, class W, int N>
SolverReport solve_wilson_even_odd(const WilsonDirac<R, W>& M, Lattice<MultiSpinor<R, N>, W>& x,
                                   const Lattice<MultiSpinor<R, N>, W>& b, const SolverControl& control) {
  const auto start = std::chrono::steady_clock::now();
  const WilsonEvenOdd<R, W> schur(M.gauge(), M.mass());
  SolverReport report = solve_wilson_even_odd(schur, M, x, b, control);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

#if defined(LATTE_PRECOMPILED_QCD)
LATTE_QCD_DOUBLE_INSTANCE class WilsonEvenOdd<double>;
LATTE_QCD_SINGLE_INSTANCE class WilsonEvenOdd<float>;
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson(const WilsonEvenOdd<double>&, Lattice<Spinor<double>>&,
                                                    const Lattice<Spinor<double>>&, const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson(const WilsonEvenOdd<float>&, Lattice<Spinor<float>>&,
                                                    const Lattice<Spinor<float>>&, const SolverControl&);
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonEvenOdd<double>&, const WilsonDirac<double>&,
                                                             Lattice<Spinor<double>>&, const Lattice<Spinor<double>>&,
                                                             const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonEvenOdd<float>&, const WilsonDirac<float>&,
                                                             Lattice<Spinor<float>>&, const Lattice<Spinor<float>>&,
                                                             const SolverControl&);
LATTE_QCD_DOUBLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonDirac<double>&, Lattice<Spinor<double>>&,
                                                             const Lattice<Spinor<double>>&, const SolverControl&);
LATTE_QCD_SINGLE_INSTANCE SolverReport solve_wilson_even_odd(const WilsonDirac<float>&, Lattice<Spinor<float>>&,
                                                             const Lattice<Spinor<float>>&, const SolverControl&);
#endif

}  // namespace latte
