#pragma once
// The Cabibbo-Marinari updates of one link as site functors (Phys. Lett. B
// 119 (1982) 387): the link U with the sum Sigma of its staples is moved
// by an element of each SU(2) subgroup of SU(3) in turn, (0,1), (1,2),
// (0,2), each drawn (heatbath) or reflected (overrelaxation) for the
// weight exp((beta/3) Re tr(U Sigma^+)) of the Wilson action
// (solvers/qcd/update/su2_heatbath.hpp says how). W = U Sigma^+ is carried along
// as W -> g W, so Sigma is read once.
//
// Every update ends with reunitarisation (Gram-Schmidt, su3::reunitarise):
// the products of SU(2) elements drift from SU(3) by rounding, some 1e-16
// per update in double, and thousands of sweeps would let it grow; on an
// SU(3) matrix it changes only the last bits and costs some 60 flops of a
// link update's thousand, so it is always applied.

#include "lattice/tensors/site_types.hpp"
#include "solvers/qcd/update/su2_heatbath.hpp"

namespace latte {

namespace quenched {
inline constexpr int uniforms_per_link = su3::su2_subgroups * uniforms_per_draw;
}

// The uniform numbers one link's heatbath reads: uniforms_per_draw for each subgroup.
template <class R> using HeatbathUniforms = RealVector<R, quenched::uniforms_per_link>;

namespace functors {

struct CabibboMarinariHeatbath {
  static constexpr const char* name = "cabibbo_marinari_heatbath";
  double beta = 0.0;
  template <class R>
  LATTE_INLINE su3::Matrix<R> operator()(const su3::Matrix<R>& u, const su3::Matrix<R>& staples,
                                         const RealVector<R, quenched::uniforms_per_link>& uniforms) const {
    const R two_thirds_beta = R(2.0 / 3.0 * beta);
    su3::Matrix<R> link = u;
    su3::Matrix<R> w = u * adj(staples);
    for (int k = 0; k < su3::su2_subgroups; ++k) {
      const su3::Quaternion<R> g = quenched::heatbath_element(w, k, two_thirds_beta, uniforms, k * quenched::uniforms_per_draw);
      link = su3::su2_multiply(g, k, link);
      w = su3::su2_multiply(g, k, w);
    }
    return su3::reunitarise(link);
  }
};

struct CabibboMarinariOverrelaxation {
  static constexpr const char* name = "cabibbo_marinari_overrelaxation";
  template <class R>
  LATTE_INLINE su3::Matrix<R> operator()(const su3::Matrix<R>& u, const su3::Matrix<R>& staples) const {
    su3::Matrix<R> link = u;
    su3::Matrix<R> w = u * adj(staples);
    for (int k = 0; k < su3::su2_subgroups; ++k) {
      const su3::Quaternion<R> g = quenched::overrelaxation_element(w, k);
      link = su3::su2_multiply(g, k, link);
      w = su3::su2_multiply(g, k, w);
    }
    return su3::reunitarise(link);
  }
};

}  // namespace functors
}  // namespace latte
