#pragma once
// The clover term's own monomial: -f sum_{x odd} log det T(x), the share of
// f flavours' det(M^+ M)^(f/2) that an even-odd preconditioned clover
// pseudofermion leaves out (det M = det Moo det Mhat with Moo = T_o, whose
// determinant is positive: T is hermitian positive;
// solvers/qcd/update/pseudofermion_monomial.hpp). f = 2 beside a
// two-flavour pseudofermion, f = 1 beside a one-flavour rational one
// (solvers/qcd/update/rational_monomial.hpp). It is not part of the
// pseudofermion: it needs no solve, its force (the clover term, its inverse
// and twelve insertion statements) costs several gauge forces, and it may
// sit on its own time scale. A clover chain adds it beside
// TwoFlavourMonomial<CloverAction<R, W>>, made from the same
// CloverParameters; a Wilson chain needs none (Moo = 4 + m is a constant),
// nor does an unpreconditioned pseudofermion.
//
// Twisted mass (solvers/qcd/fermions/twisted_mass.hpp): Moo = T + i mu gamma_5
// per flavour, |det Moo|^2 = det(T^2 + mu^2), so the term is
// -(f/2) sum_{x odd} log det(T^2 + mu^2) (mu = 0: the above), and its force
// -f tr(W dT) with W = T (T^2 + mu^2)^-1 in place of T^-1.
//
// Force: with T^-1 on the odd sites, d(-f log det T) = -f tr(T^-1 dT),
// inserted into the clover leaves (solvers/qcd/fermions/clover_force.hpp:
// clover_insertion_from_log_det), P += (eps / 2) Ta(O).

#include <cstdio>
#include <stdexcept>
#include <string>

#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/clover_force.hpp"
#include "solvers/qcd/fermions/twisted_mass.hpp"
#include "solvers/qcd/update/hmc_monomial.hpp"

namespace latte {

template <class R = double, class W = DefaultWidth>
class CloverDeterminantMonomial final : public Monomial<R, W> {
 public:
  // The boundary of the parameters plays no part: T is computed from the
  // gauge field without the boundary phases (solvers/qcd/fermions/clover_action.hpp).
  explicit CloverDeterminantMonomial(const CloverParameters& parameters, double flavours = 2, double mu = 0)
      : mass_(parameters.mass), c_sw_(parameters.c_sw), flavours_(flavours), mu_(mu) {
    if (!(flavours > 0))
      throw std::invalid_argument("Latte clover log det monomial: the flavours must be positive, not " +
                                  std::to_string(flavours));
  }

  std::string describe() const override {
    std::string text = "clover log det on odd sites, m = " + std::to_string(mass_) + ", c_sw = " + std::to_string(c_sw_);
    if (flavours_ != 2) {
      char count[32];
      std::snprintf(count, sizeof count, ", %g flavour%s", flavours_, flavours_ == 1 ? "" : "s");
      text += count;
    }
    if (mu_ != 0) text += ", twisted mass mu = " + std::to_string(mu_);
    return text;
  }
  double action(const GaugeField<R, W>& U) override {
    const CloverTerm<R, W> term(U, mass_, c_sw_);
    if (mu_ == 0) return -flavours_ * sum(map(functors::CloverLogDeterminant{}, pick(Parity::odd, term.term())));
    return -(0.5 * flavours_) *
           sum(map(functors::CloverLogDeterminant{}, map(functors::CloverSquarePlus{mu_ * mu_}, pick(Parity::odd, term.term()))));
  }
  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    const CloverTerm<R, W> term(U, mass_, c_sw_);
    Lattice<CloverSite<R>, W> odd_inverse(U.geometry().checkerboard(Parity::odd), Uninitialized{});
    if (mu_ == 0) {
      odd_inverse = pick(Parity::odd, term.inverse());
    } else {
      // W = T (T^2 + mu^2)^-1, T and its square commuting.
      Lattice<CloverSite<R>, W> odd_term(odd_inverse.geometry(), Uninitialized{});
      odd_term = pick(Parity::odd, term.term());
      odd_inverse = map(functors::CloverCommutingProduct{}, odd_term,
                        map(functors::CloverInverse{}, map(functors::CloverSquarePlus{mu_ * mu_}, odd_term)));
    }
    CloverInsertion<R, W> lambda(U.geometry());
    clover_insertion_from_log_det(lambda, odd_inverse, c_sw_, -flavours_);
    add_clover_force(U, lambda, P, 0.5 * eps);
  }

 private:
  double mass_, c_sw_, flavours_, mu_;
};

}  // namespace latte
