#pragma once
// Spin operations on spinor-valued expressions (basis and conventions in
// lattice/tensors/gamma.hpp): spin_project<mu, s>(psi) = the half spinor of
// (1 + s gamma_mu) psi, spin_reconstruct<mu, s>(h) = the full spinor back,
// gamma<mu>(psi) and gamma5(psi).

#include <utility>

#include "dsl/expr/map.hpp"
#include "lattice/tensors/gamma.hpp"

namespace latte {
namespace functors {
template <int Mu, int Sign> struct SpinProject {
  static constexpr const char* name = "proj";
  template <class A> LATTE_INLINE auto operator()(const A& psi) const { return spin_project<Mu, Sign>(psi); }
};
template <int Mu, int Sign> struct SpinReconstruct {
  static constexpr const char* name = "recon";
  template <class A> LATTE_INLINE auto operator()(const A& h) const { return spin_reconstruct<Mu, Sign>(h); }
};
template <int Mu> struct Gamma {
  static constexpr const char* name = Mu == 4 ? "gamma5" : "gamma";
  template <class A> LATTE_INLINE auto operator()(const A& psi) const { return gamma_times<Mu>(psi); }
};
}  // namespace functors

template <int Mu, int Sign, class A> requires FieldOperand<std::remove_cvref_t<A>>
auto spin_project(A&& psi) { return map<functors::SpinProject<Mu, Sign>>(std::forward<A>(psi)); }
template <int Mu, int Sign, class A> requires FieldOperand<std::remove_cvref_t<A>>
auto spin_reconstruct(A&& h) { return map<functors::SpinReconstruct<Mu, Sign>>(std::forward<A>(h)); }
template <int Mu, class A> requires FieldOperand<std::remove_cvref_t<A>>
auto gamma(A&& psi) { return map<functors::Gamma<Mu>>(std::forward<A>(psi)); }
template <class A> requires FieldOperand<std::remove_cvref_t<A>>
auto gamma5(A&& psi) { return map<functors::Gamma<4>>(std::forward<A>(psi)); }

}  // namespace latte
