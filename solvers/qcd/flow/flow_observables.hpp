#pragma once
// The observables measured along the gradient flow: the energy density E
// from the plaquette and from the clover field strength, and the
// topological charge. Every sum over sites is the library's reproducible
// one, so each number has the same bits on any rank count, SIMD width and
// backend.
//
// Conventions (Luescher, JHEP 08 (2010) 071, section 3):
//   E_plaq(x)   = 2 sum_{mu<nu} Re tr(1 - P_{mu nu}(x)),
//   E_clover(x) = -1/2 sum_{mu,nu} tr F_{mu nu} F_{mu nu}(x) = -sum_{mu<nu} tr F F
//                 with F the clover field of solvers/qcd/gauge/clover_field.hpp,
// both a^4 times -1/2 tr G_{mu nu} G_{mu nu} = 1/4 G^a G^a on a smooth field,
// so that at leading order t^2 <E> = 3 (N^2 - 1) g^2 / (128 pi^2). E is the
// average of E(x) over the sites.
//   q(x) = 1/(32 pi^2) eps_{mu nu rho sigma} tr(F^h_{mu nu} F^h_{rho sigma})
// with the hermitian F^h = -i F, eps_{0123} = +1 and directions 0, 1, 2, 3 =
// x, y, z, t. By the antisymmetry of eps and of F the 24 terms are 8 copies
// of three: q = 1/(4 pi^2) tr(F^h_01 F^h_23 - F^h_02 F^h_13 + F^h_03 F^h_12).
// Q = sum_x q(x).

#include "dsl/latte.hpp"
#include "solvers/qcd/gauge/clover_field.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

namespace flow_observables_detail {

// Re tr(A B) of anti-hermitian A: A_ij = -conj(A_ji) gives
// tr(A B) = sum_ij A_ij B_ji = -<A, B>, a third of the work of the product.
// Exact here: a clover plane is anti-hermitian by construction, bit for bit.
template <class A, class B> auto re_trace_of_product_antihermitian(const A& a, const B& b) {
  return -1.0 * real(localInnerProduct(a, b));
}

}  // namespace flow_observables_detail

// E_plaq(x) as an expression.
template <class R, class W> auto plaquette_energy_density(const GaugeField<R, W>& U) {
  return 36.0 - 2.0 * (plaquette_trace(U, 0, 1) + plaquette_trace(U, 0, 2) + plaquette_trace(U, 0, 3) +
                       plaquette_trace(U, 1, 2) + plaquette_trace(U, 1, 3) + plaquette_trace(U, 2, 3));
}

// E_clover(x) = -sum_{mu<nu} tr F_{mu nu}^2 = sum_{mu<nu} |F_{mu nu}|^2 (F anti-hermitian).
template <class R, class W> auto clover_energy_density(const CloverField<R, W>& F) {
  return localNorm2(F(0, 1)) + localNorm2(F(0, 2)) + localNorm2(F(0, 3)) + localNorm2(F(1, 2)) + localNorm2(F(1, 3)) +
         localNorm2(F(2, 3));
}

// q(x): tr(F^h F^h) = -tr(F F), so q = -1/(4 pi^2) Re tr(F01 F23 - F02 F13 + F03 F12).
template <class R, class W> auto topological_charge_density(const CloverField<R, W>& F) {
  using flow_observables_detail::re_trace_of_product_antihermitian;
  constexpr double pi = 3.14159265358979323846;
  return (-1.0 / (4.0 * pi * pi)) * (re_trace_of_product_antihermitian(F(0, 1), F(2, 3)) -
                                     re_trace_of_product_antihermitian(F(0, 2), F(1, 3)) +
                                     re_trace_of_product_antihermitian(F(0, 3), F(1, 2)));
}

// <E_plaq>, the average over sites.
template <class Backend = backend::Default, class R, class W> double plaquette_energy(const GaugeField<R, W>& U) {
  return sum<Backend>(plaquette_energy_density(U)) / static_cast<double>(U.geometry().volume());
}

// <E_clover> of a clover field already computed.
template <class Backend = backend::Default, class R, class W> double clover_energy(const CloverField<R, W>& F) {
  return sum<Backend>(clover_energy_density(F)) / static_cast<double>(F.geometry().volume());
}

// Q = sum_x q(x) of a clover field already computed.
template <class Backend = backend::Default, class R, class W> double topological_charge(const CloverField<R, W>& F) {
  return sum<Backend>(topological_charge_density(F));
}

// What one measurement along the flow reads off the field.
struct FlowMeasurement {
  double t = 0;         // flow time in lattice units (t / a^2)
  double e_plaq = 0;    // <E> from the plaquette
  double e_clover = 0;  // <E> from the clover field strength
  double charge = 0;    // Q, clover definition
};

// E_plaq, E_clover and Q of U, with a clover field as the workspace.
template <class Backend = backend::Default, class R, class W>
FlowMeasurement measure_flow_observables(const GaugeField<R, W>& U, CloverField<R, W>& workspace, double t = 0) {
  workspace.template compute<Backend>(U);
  return {t, plaquette_energy<Backend>(U), clover_energy<Backend>(workspace), topological_charge<Backend>(workspace)};
}

}  // namespace latte
