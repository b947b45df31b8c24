#pragma once
// The clover term's own monomial: -2 sum_{x odd} log det T(x), the share of
// two flavours' det(M^+ M) that an even-odd preconditioned clover
// pseudofermion leaves out (det M = det Moo det Mhat with Moo = T_o;
// solvers/qcd/update/pseudofermion_monomial.hpp). It is not part of the
// pseudofermion: it needs no solve, its force (the clover term, its inverse
// and twelve insertion statements) costs several gauge forces, and it may
// sit on its own time scale. A clover chain adds it beside
// TwoFlavourMonomial<CloverAction<R, W>>, made from the same
// CloverParameters; a Wilson chain needs none (Moo = 4 + m is a constant),
// nor does an unpreconditioned pseudofermion.
//
// Force: with T^-1 on the odd sites, d(-2 log det T) = -2 tr(T^-1 dT),
// inserted into the clover leaves (solvers/qcd/fermions/clover_force.hpp:
// clover_insertion_from_log_det), P += (eps / 2) Ta(O).

#include <string>

#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/clover_force.hpp"
#include "solvers/qcd/update/hmc_monomial.hpp"

namespace latte {

template <class R = double, class W = DefaultWidth>
class CloverDeterminantMonomial final : public Monomial<R, W> {
 public:
  // The boundary of the parameters plays no part: T is computed from the
  // gauge field without the boundary phases (solvers/qcd/fermions/clover_action.hpp).
  explicit CloverDeterminantMonomial(const CloverParameters& parameters)
      : mass_(parameters.mass), c_sw_(parameters.c_sw) {}

  std::string describe() const override {
    return "clover log det on odd sites, m = " + std::to_string(mass_) + ", c_sw = " + std::to_string(c_sw_);
  }
  double action(const GaugeField<R, W>& U) override {
    const CloverTerm<R, W> term(U, mass_, c_sw_);
    return -2.0 * sum(map(functors::CloverLogDeterminant{}, pick(Parity::odd, term.term())));
  }
  void kick(const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) override {
    const CloverTerm<R, W> term(U, mass_, c_sw_);
    Lattice<CloverSite<R>, W> odd_inverse(U.geometry().checkerboard(Parity::odd), Uninitialized{});
    odd_inverse = pick(Parity::odd, term.inverse());
    CloverInsertion<R, W> lambda(U.geometry());
    clover_insertion_from_log_det(lambda, odd_inverse, c_sw_, -2.0);
    add_clover_force(U, lambda, P, 0.5 * eps);
  }

 private:
  double mass_, c_sw_;
};

}  // namespace latte
