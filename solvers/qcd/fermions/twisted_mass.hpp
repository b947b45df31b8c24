#pragma once
// Twisted-mass Wilson and Wilson-clover quarks (Frezzotti, Grassi, Sint &
// Weisz, JHEP 0108 (2001) 058): the doublet (u, d) with
//   M(mu) = 4 + m + i mu gamma_5 tau_3 - 1/2 Dslash      (+ the clover term),
// written flavour by flavour: TwistedMass<Base> is one flavour of the
// doublet, tau_3 = +1,
//   M(mu) = M + i mu gamma_5,      the other flavour M(-mu) = gamma_5 M(mu)^+ gamma_5,
// over a Base action whose diagonal commutes with gamma_5 (Wilson's 4 + m;
// clover's T, block diagonal in the chiral halves of the DeGrand-Rossi basis,
// where gamma_5 = diag(1, 1, -1, -1)).
//
// Conventions:
// - mu is in lattice units, the coefficient of i gamma_5 in M as written
//   above (Latte's normalisation, diagonal 4 + m). tmLQCD normalises its
//   operator as 2 kappa M (diagonal 1); its input parameter 2KappaMu is
//   2 kappa mu with this mu, and its "mu" (the twisted quark mass) is this mu.
// - The two flavours' determinant: det(M(mu) M(-mu)) = det(M(mu)^+ M(mu)),
//   so TwoFlavourMonomial<TwistedMass<Base>> (one pseudofermion) is the
//   doublet in hybrid Monte Carlo. On the whole lattice
//   M(mu)^+ M(mu) = M^+ M + mu^2 (gamma_5-hermiticity); on the even sites
//   Mhat(mu)^+ Mhat(mu) is not Mhat^+ Mhat + mu^2, and nothing assumes it is.
// - The diagonal D + Sign i mu gamma_5 (D = A = 4 + m, or T) has the inverse
//   (D - Sign i mu gamma_5) (D^2 + mu^2)^-1 (D hermitian and commuting with
//   gamma_5). Wilson: a number and gamma_5; clover: (T^2 + mu^2)^-1 stored per
//   site as a hermitian 6x6 block per chiral half (the inverse itself is
//   not hermitian, so the clover's hermitian storage keeps its two
//   hermitian factors instead), computed once per gauge field.
// - The twist does not depend on the links: the forces are the base's
//   (add_hopping_force, add_diagonal_force unchanged). The even-odd factor
//   det Moo of a clover pseudofermion becomes prod_x det(T^2 + mu^2)^(1/2)
//   per flavour: CloverDeterminantMonomial with mu
//   (solvers/qcd/update/clover_determinant_monomial.hpp).
// - Not a ConstantDiagonal: the Schur complement applies Moo^-1 as a field
//   product (one site-local multiplication); Wilson without twist keeps its
//   folded form and its bits.

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/fermion_action.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"

namespace latte {

template <class BaseParameters>
struct TwistedMassParameters {
  BaseParameters base;
  double mu = 0;
  std::string describe() const { return base.describe() + ", mu = " + std::to_string(mu); }
};

namespace clover {

// Entry (i, j) of a packed hermitian block.
template <class T> LATTE_INLINE Complex<T> entry(const CloverBlock<T>& h, int i, int j) {
  if (i == j) return {h.v[i], T(0.0)};
  return i > j ? lower(h, i, j) : conj(lower(h, j, i));
}
// a b for hermitian a, b that commute (so that a b is hermitian): the lower
// triangle of the product, packed.
template <class T>
__attribute__((noinline)) inline LATTE_HOST_DEVICE CloverBlock<T> commuting_product(const CloverBlock<T>& a,
                                                                                     const CloverBlock<T>& b) {
  CloverBlock<T> p;
  for (int i = 0; i < block_rows; ++i)
    for (int j = 0; j <= i; ++j) {
      Complex<T> sum{T(0.0), T(0.0)};
      for (int k = 0; k < block_rows; ++k) sum = multiply_add(entry(a, i, k), entry(b, k, j), sum);
      if (i == j) p.v[i] = sum.re;
      else set_lower(p, i, j, sum);
    }
  return p;
}

}  // namespace clover

namespace functors {

// T^2 + mu^2, both blocks.
struct CloverSquarePlus {
  static constexpr const char* name = "clover_square_plus";
  double mu_squared = 0;
  template <class S> LATTE_INLINE S operator()(const S& term) const {
    using T = real_of_t<S>;
    S q;
    for (int b = 0; b < 2; ++b) {
      q.v[b] = clover::commuting_product(term.v[b], term.v[b]);
      for (int i = 0; i < clover::block_rows; ++i) q.v[b].v[i] = q.v[b].v[i] + T(mu_squared);
    }
    return q;
  }
};

// a b of two sites whose blocks commute (T and (T^2 + mu^2)^-1).
struct CloverCommutingProduct {
  static constexpr const char* name = "clover_commuting_product";
  template <class S> LATTE_INLINE S operator()(const S& a, const S& b) const {
    S p;
    for (int k = 0; k < 2; ++k) p.v[k] = clover::commuting_product(a.v[k], b.v[k]);
    return p;
  }
};

}  // namespace functors

// How the base's diagonal D gives the twisted inverse
// (D - Sign i mu gamma_5)(D^2 + mu^2)^-1: one specialisation per base.
template <class BaseBlocks> class TwistedDiagonalInverse;

template <class R, class W>
class TwistedDiagonalInverse<WilsonEvenOddAction<R, W>> {
 public:
  static constexpr double flops_per_site = 3 * 24;
  TwistedDiagonalInverse(const WilsonEvenOddAction<R, W>& base, double mu)
      : a_(base.constant_diagonal()), mu_(mu), norm_(a_ * a_ + mu * mu) {}
  template <int Sign, class F> auto apply(const WilsonEvenOddAction<R, W>&, Parity, const F& psi) const {
    return (a_ / norm_) * psi - (Sign * mu_ / norm_) * timesI(gamma5(psi));
  }

 private:
  double a_, mu_, norm_;
};

template <class R, class W>
class TwistedDiagonalInverse<CloverEvenOddAction<R, W>> {
 public:
  using Half = typename CloverEvenOddAction<R, W>::Half;
  static constexpr double flops_per_site = 2 * CloverTerm<R, W>::flops_per_site + 3 * 24;
  TwistedDiagonalInverse(const CloverEvenOddAction<R, W>& base, double mu)
      : mu_(mu),
        square_inverse_{Half(base.even_geometry(), Uninitialized{}), Half(base.odd_geometry(), Uninitialized{})} {
    for (Parity parity : {Parity::even, Parity::odd})
      square_inverse_[index(parity)] =
          map(functors::CloverInverse{}, map(functors::CloverSquarePlus{mu * mu}, base.term(parity)));
  }
  // (T^2 + mu^2)^-1 on one checkerboard.
  const Half& square_inverse(Parity parity) const { return square_inverse_[index(parity)]; }
  // base: the blocks whose T this was made from.
  template <int Sign, class F> auto apply(const CloverEvenOddAction<R, W>& base, Parity parity, const F& psi) const {
    return clover_times(square_inverse_[index(parity)],
                        clover_times(base.term(parity), psi) - (Sign * mu_) * timesI(gamma5(psi)));
  }

 private:
  static int index(Parity parity) { return parity == Parity::odd ? 1 : 0; }
  double mu_;
  Half square_inverse_[2];
};

template <class BaseBlocks> class TwistedMassEvenOdd;

// One flavour of the twisted doublet on the whole lattice
// (solvers/qcd/fermions/fermion_action.hpp: FermionAction, DynamicalFermionAction).
template <class Base>
class TwistedMass {
 public:
  using real_type = typename Base::real_type;
  using width_type = typename Base::width_type;
  using Gauge = GaugeField<real_type, width_type>;
  using Parameters = TwistedMassParameters<typename Base::Parameters>;
  using EvenOddAction = TwistedMassEvenOdd<typename Base::EvenOddAction>;
  static constexpr const char* name = "twisted mass";
  static constexpr double flops_per_site = Base::flops_per_site + 48;  // + Sign mu i gamma_5 psi
  static constexpr const char* profile_name = "twisted-mass M";
  static constexpr const char* adjoint_profile_name = "twisted-mass M^+";

  TwistedMass(const Gauge& U, const Parameters& parameters) : base_(U, parameters.base), mu_(parameters.mu) {}
  TwistedMass(Gauge&&, const Parameters&) = delete;
  TwistedMass(Base base, double mu) : base_(std::move(base)), mu_(mu) {}

  const Geometry& geometry() const { return base_.geometry(); }
  const Base& base() const { return base_; }
  double mu() const { return mu_; }
  std::vector<double> parameters() const {
    std::vector<double> p = base_.parameters();
    p.push_back(mu_);
    return p;
  }
  std::string describe() const { return base_.describe() + ", twisted mass mu = " + std::to_string(mu_); }

  template <int Sign, class Psi> auto M(const Psi& psi) const {
    return base_.template M<Sign>(psi) + (Sign * mu_) * timesI(gamma5(psi));
  }

 private:
  Base base_;
  double mu_;
};

// Its even-odd blocks: the base's hopping term and forces, the twisted diagonal.
template <class BaseBlocks>
class TwistedMassEvenOdd {
 public:
  using real_type = typename BaseBlocks::real_type;
  using width_type = typename BaseBlocks::width_type;
  static constexpr double hopping_flops_per_site = BaseBlocks::hopping_flops_per_site;
  static constexpr double diagonal_flops_per_site =
      BaseBlocks::diagonal_flops_per_site + 48 > TwistedDiagonalInverse<BaseBlocks>::flops_per_site
          ? BaseBlocks::diagonal_flops_per_site + 48
          : TwistedDiagonalInverse<BaseBlocks>::flops_per_site;

  template <class Base>
  explicit TwistedMassEvenOdd(const TwistedMass<Base>& action)
      : base_(action.base()), mu_(action.mu()), inverse_(base_, mu_) {}

  const BaseBlocks& base() const { return base_; }
  double mu() const { return mu_; }
  const TwistedDiagonalInverse<BaseBlocks>& twisted_inverse() const { return inverse_; }
  const Geometry& even_geometry() const { return base_.even_geometry(); }
  const Geometry& odd_geometry() const { return base_.odd_geometry(); }
  double hopping_coefficient() const { return base_.hopping_coefficient(); }
  std::vector<double> parameters() const {
    std::vector<double> p = base_.parameters();
    p.push_back(mu_);
    return p;
  }
  std::string describe() const { return base_.describe() + ", twisted mass mu = " + std::to_string(mu_); }

  template <int Sign, class F> auto hopping_to_even(const F& odd_field) const {
    return base_.template hopping_to_even<Sign>(odd_field);
  }
  template <int Sign, class F> auto hopping_to_odd(const F& even_field) const {
    return base_.template hopping_to_odd<Sign>(even_field);
  }
  template <int Sign, class F> auto diagonal(Parity parity, const F& psi) const {
    return base_.template diagonal<Sign>(parity, psi) + (Sign * mu_) * timesI(gamma5(psi));
  }
  template <int Sign, class F> auto diagonal_inverse(Parity parity, const F& psi) const {
    return inverse_.template apply<Sign>(base_, parity, psi);
  }
  // The twist does not depend on the links: the base's forces.
  template <class Psi>
  void add_hopping_force(const Psi& X, const Psi& Y, GaugeField<real_type, width_type>& P, double c) const {
    base_.add_hopping_force(X, Y, P, c);
  }
  template <class Psi>
  void add_diagonal_force(const Psi& X, const Psi& Y, GaugeField<real_type, width_type>& P, double c) const {
    base_.add_diagonal_force(X, Y, P, c);
  }

 private:
  BaseBlocks base_;
  double mu_;
  TwistedDiagonalInverse<BaseBlocks> inverse_;
};

}  // namespace latte
