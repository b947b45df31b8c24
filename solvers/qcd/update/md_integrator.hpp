#pragma once
// Reversible, area-preserving integrators of the molecular dynamics, on
// nested time scales.
//
// Level 0 is the outermost: its steps kick the momenta with its monomials'
// forces and, between kicks, integrate level 1 over the sub-interval (the
// innermost level moves the links). Cheap, stiff forces (the gauge action)
// go on fine inner levels, expensive smooth ones (pseudofermions) outside
// (Sexton & Weingarten, Nucl. Phys. B380 (1992) 665).
//
// Schemes on one level with n steps of h = tau / n (K: kick, I: inner):
//   leapfrog:  K(h/2) [I(h) K(h)]^(n-1) I(h) K(h/2)          error O(h^2)
//   omelyan:   K(l h) [I(h/2) K((1-2l) h) I(h/2) K(2l h)]... K(l h),
//              l = 0.1931833275037836, Omelyan, Mryglod & Folk's
//              second-order minimum-norm scheme (Comput. Phys. Commun. 151
//              (2003) 272, eq. (31)): the same order, an error coefficient
//              about ten times smaller, for one more force per step.
// Adjacent kicks of consecutive steps are merged. Both are symmetric, so
// integrating forward, flipping the momenta and integrating again returns
// to the start up to rounding.

#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/qcd/update/hmc_monomial.hpp"

namespace latte {

enum class IntegratorScheme { leapfrog, omelyan };

inline IntegratorScheme parse_integrator_scheme(const std::string& name) {
  if (name == "leapfrog") return IntegratorScheme::leapfrog;
  if (name == "omelyan") return IntegratorScheme::omelyan;
  throw std::invalid_argument("Latte: unknown integrator '" + name + "' (leapfrog or omelyan)");
}
inline const char* to_string(IntegratorScheme scheme) {
  return scheme == IntegratorScheme::leapfrog ? "leapfrog" : "omelyan";
}

template <class R, class W = DefaultWidth>
struct IntegratorLevel {
  IntegratorScheme scheme = IntegratorScheme::omelyan;
  int steps = 1;
  std::vector<Monomial<R, W>*> monomials;  // not owned
};

template <class R, class W = DefaultWidth>
class MolecularDynamics {
 public:
  static constexpr double omelyan_lambda = 0.1931833275037836;

  explicit MolecularDynamics(std::vector<IntegratorLevel<R, W>> levels) : levels_(std::move(levels)) {
    if (levels_.empty()) throw std::invalid_argument("Latte: an integrator needs at least one level");
    for (std::size_t i = 0; i < levels_.size(); ++i)
      if (levels_[i].steps < 1)
        throw std::invalid_argument("Latte: integrator level " + std::to_string(i) + " has " +
                                    std::to_string(levels_[i].steps) + " steps; it needs at least one");
    kicks_.assign(levels_.size(), 0);
  }

  // (U, P) -> (U, P) after time tau.
  void integrate(GaugeField<R, W>& U, AlgebraField<R, W>& P, double tau) { evolve(0, U, P, tau); }

  const std::vector<IntegratorLevel<R, W>>& levels() const { return levels_; }
  // Kicks made by each level since construction (each one force per monomial).
  const std::vector<long>& kicks() const { return kicks_; }

 private:
  void kick(std::size_t level, const GaugeField<R, W>& U, AlgebraField<R, W>& P, double eps) {
    for (Monomial<R, W>* monomial : levels_[level].monomials) monomial->kick(U, P, eps);
    ++kicks_[level];
  }
  void inner(std::size_t level, GaugeField<R, W>& U, AlgebraField<R, W>& P, double h) {
    if (level + 1 == levels_.size()) move_links(U, P, h);
    else evolve(level + 1, U, P, h);
  }
  void evolve(std::size_t level, GaugeField<R, W>& U, AlgebraField<R, W>& P, double tau) {
    const int n = levels_[level].steps;
    const double h = tau / n;
    if (levels_[level].scheme == IntegratorScheme::leapfrog) {
      kick(level, U, P, 0.5 * h);
      for (int step = 0; step < n; ++step) {
        inner(level, U, P, h);
        kick(level, U, P, step + 1 == n ? 0.5 * h : h);
      }
    } else {
      const double l = omelyan_lambda;
      kick(level, U, P, l * h);
      for (int step = 0; step < n; ++step) {
        inner(level, U, P, 0.5 * h);
        kick(level, U, P, (1.0 - 2.0 * l) * h);
        inner(level, U, P, 0.5 * h);
        kick(level, U, P, step + 1 == n ? l * h : 2.0 * l * h);
      }
    }
  }

  std::vector<IntegratorLevel<R, W>> levels_;
  std::vector<long> kicks_;
};

}  // namespace latte
