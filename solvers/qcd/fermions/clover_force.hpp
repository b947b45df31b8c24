#pragma once
// The force of the clover term: how a term of the action that depends on
// the links through the clover field strength F_{mu nu} moves the momenta.
//
// Every such term (the pseudofermions' Re Y^+ dT X, the log det of the odd
// clover blocks) has a variation of the form
//   dS = sum_x sum_{mu<nu} Re tr(dF_{mu nu}(x) Lambda_{mu nu}(x))
// with a colour matrix Lambda per plane and site (below: "the insertion").
// With F = (Q - Q^+)/8 (solvers/qcd/gauge/clover_field.hpp),
//   Re tr(dF Lambda) = Re tr(dQ L),     L = (Lambda - Lambda^+) / 8,
// and Q_{mu nu}(x) is the sum of the four plaquettes through x, each a
// closed path from x turning the same way (mu, then nu). Varying U_mu(x)
// (dU = w U, dU^+ = -U^+ w), a plaquette that holds U_mu(x) contributes
// Re tr(w ...) with L inserted at the corner where the leaf starts; the
// upper plaquette (corners x, x+mu, x+mu+nu, x+nu) holds U_mu(x) and the
// lower one (corners x-nu, x-nu+mu, x+mu, x) holds U_mu^+(x):
//   O_{mu nu}(x) = U_mu(x) [W L(x) + L(x+mu) W
//                          + U_nu(x+mu) (L(x+mu+nu) U_mu^+(x+nu) + U_mu^+(x+nu) L(x+nu)) U_nu^+(x)]
//                - [L(x) V + V L(x+mu)
//                   + U_nu^+(x-nu) (L(x-nu) U_mu(x-nu) + U_mu(x-nu) L(x-nu+mu)) U_nu(x-nu+mu)] U_mu^+(x),
// W = U_nu(x+mu) U_mu^+(x+nu) U_nu^+(x) the upper staple run backwards and
// V = U_nu^+(x-nu) U_mu(x-nu) U_nu(x-nu+mu) the lower staple
// (solvers/qcd/gauge/gauge_action.hpp), and dS = sum Re tr(w_mu O_mu) with
// O_mu = sum_{nu != mu} O_{mu nu}. For nu < mu the plane is stored as
// (nu, mu): F_{mu nu} = -F_{nu mu}, so L_{mu nu} = -L_{nu mu}. The momentum
// step is then P_mu += (eps / 2) Ta(O_mu) (solvers/qcd/fermions/fermion_force.hpp).
//
// The insertions. With T = 4 + m + sum_{mu<nu} S_{mu nu} (x) F_{mu nu},
// S_{mu nu} = (i c_sw / 2) sigma_{mu nu} = -(c_sw / 2) gamma_mu gamma_nu
// (sigma_{mu nu} = i gamma_mu gamma_nu for mu != nu; solvers/qcd/fermions/clover_term.hpp):
//   pseudofermions, -2 Re(Y^+ dT X):   Lambda = -2 sum_spin X (x) (S^+ Y)^+
//                                             = -c_sw sum_spin X (x) (gamma_mu gamma_nu Y)^+
//   -2 sum_{x odd} log det T(x), -2 tr(T^-1 dT):
//                                      Lambda_{ab} = -2 sum_{s,s'} (T^-1)_{(s a),(s' b)} S_{s' s}

#include <algorithm>
#include <cmath>

#include "dsl/expr/spin.hpp"
#include "dsl/expr/su3_functions.hpp"
#include "dsl/latte.hpp"
#include "solvers/qcd/fermions/clover_term.hpp"
#include "solvers/qcd/fermions/fermion_force.hpp"
#include "solvers/qcd/gauge/clover_field.hpp"
#include "solvers/qcd/gauge/gauge_action.hpp"

namespace latte {

// The insertions L_{mu nu} of the six planes mu < nu: the container of F.
template <class R, class W = DefaultWidth> using CloverInsertion = CloverField<R, W>;

// O_{mu nu} above for the insertion L of the ordered plane (mu, nu). W and
// V are each used twice: bound once per site (let).
template <class Links, class L>
auto clover_insertion_path(const Links& U, const L& lambda, int mu, int nu) {
  return let(adj(upper_staple(U, mu, nu)), [&](const auto& W) {
    return let(lower_staple(U, mu, nu), [&](const auto& V) {
      return U[mu] * (W * lambda + shift(lambda, mu, +1) * W +
                      shift(U[nu], mu, +1) * shift(shift(lambda, mu, +1) * adj(U[mu]) + adj(U[mu]) * lambda, nu, +1) *
                          adj(U[nu])) -
             (lambda * V + V * shift(lambda, mu, +1) +
              shift(adj(U[nu]) * (lambda * U[mu] + U[mu] * shift(lambda, mu, +1)) * shift(U[nu], mu, +1), nu, -1)) *
                 adj(U[mu]);
    });
  });
}

// P_mu += coefficient Ta(O_mu) for every direction (coefficient = eps / 2
// for the momentum step): twelve statements, one per ordered plane, all
// of one expression type.
template <class R, class W>
void add_clover_force(const GaugeField<R, W>& U, const CloverInsertion<R, W>& lambda, GaugeField<R, W>& P,
                      double coefficient) {
  const profile::Region region("fermion force: clover term");
  for (int mu = 0; mu < spacetime_dimensions; ++mu)
    for (int nu = 0; nu < spacetime_dimensions; ++nu) {
      if (nu == mu) continue;
      const double sign = mu < nu ? coefficient : -coefficient;
      P[mu] += sign * traceless_antihermitian(
                          clover_insertion_path(U, lambda(std::min(mu, nu), std::max(mu, nu)), mu, nu));
    }
}

namespace clover_force_detail {

template <int Mu, int Nu, class R, class W, class Psi>
void spinor_plane(CloverInsertion<R, W>& lambda, const Psi& X, const Psi& Y, double c_sw) {
  lambda(Mu, Nu) = let((-c_sw) * spin_outer(X, gamma<Mu>(gamma<Nu>(Y))),
                       [](const auto& q) { return 0.125 * (q - adj(q)); });
}

}  // namespace clover_force_detail

// L_{mu nu} of the pseudofermion term -2 Re(Y^+ dT X), X and Y on the whole lattice.
template <class R, class W, class Psi>
void clover_insertion_from_spinors(CloverInsertion<R, W>& lambda, const Psi& X, const Psi& Y, double c_sw) {
  const profile::Region region("fermion force: clover insertion");
  clover_force_detail::spinor_plane<0, 1>(lambda, X, Y, c_sw);
  clover_force_detail::spinor_plane<0, 2>(lambda, X, Y, c_sw);
  clover_force_detail::spinor_plane<0, 3>(lambda, X, Y, c_sw);
  clover_force_detail::spinor_plane<1, 2>(lambda, X, Y, c_sw);
  clover_force_detail::spinor_plane<1, 3>(lambda, X, Y, c_sw);
  clover_force_detail::spinor_plane<2, 3>(lambda, X, Y, c_sw);
}

namespace functors {

// Lambda_{ab} = sum_{s,s'} (T^-1)_{(s a),(s' b)} C_{s' s} from a site's
// stored inverse (two chiral blocks, solvers/qcd/fermions/clover_term.hpp) and a spin
// matrix C that is block diagonal like T: C = -2 S_{mu nu} for the log det.
// C's blocks are held per block b as c[b][j][i] = C_{2b+j, 2b+i}.
struct CloverTraceInsertion {
  static constexpr const char* name = "clover_trace_insertion";
  double c_re[2][2][2];
  double c_im[2][2][2];
  template <class S>
  LATTE_INLINE auto operator()(const S& inverse) const {
    using T = real_of_t<S>;
    ColourMatrix<T> out;
    for (int a = 0; a < colours; ++a)
      for (int b = 0; b < colours; ++b) out(a, b) = Complex<T>(T(0.0), T(0.0));
    for (int block = 0; block < 2; ++block) {
      const CloverBlock<T>& h = inverse.v[block];
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          // Braces: with parentheses nvcc reads T(c_re[block][j][i]) as a
          // parameter declaration (the most vexing parse).
          const Complex<T> c{static_cast<T>(c_re[block][j][i]), static_cast<T>(c_im[block][j][i])};
          for (int a = 0; a < colours; ++a)
            for (int b = 0; b < colours; ++b) {
              const int row = colours * i + a, column = colours * j + b;
              Complex<T> entry;
              if (row == column) entry = Complex<T>(h.v[row], T(0.0));
              else if (row > column) entry = clover::lower(h, row, column);
              else entry = conj(clover::lower(h, column, row));
              out(a, b) = multiply_add(entry, c, out(a, b));
            }
        }
    }
    return out;
  }
};

// log det T(x) = sum of the logs of the pivots of both blocks' L D L^+.
struct CloverLogDeterminant {
  static constexpr const char* name = "clover_log_det";
  template <class S>
  LATTE_INLINE auto operator()(const S& term) const {
    using T = real_of_t<S>;
    using std::log;
    T d[clover::block_rows], total(0.0);
    CloverBlock<T> l;
    for (int b = 0; b < 2; ++b) {
      clover::factorise(term.v[b], d, l);
      for (int k = 0; k < clover::block_rows; ++k) total = total + log(d[k]);
    }
    return total;
  }
};

}  // namespace functors

namespace clover_force_detail {

// The functor for plane (mu, nu) with C = factor * S_{mu nu}, S the spin
// matrix of the clover term: (i c_sw / 2) sigma_{mu nu}, sigma built from
// the gamma matrices of lattice/tensors/gamma.hpp.
template <int Mu, int Nu>
functors::CloverTraceInsertion trace_insertion(double c_sw, double factor) {
  const SpinMatrix<double> g_mu = gamma_matrix<Mu>(), g_nu = gamma_matrix<Nu>();
  functors::CloverTraceInsertion f{};
  for (int block = 0; block < 2; ++block)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const int row = 2 * block + j, column = 2 * block + i;
        ComplexD commutator(0.0, 0.0);
        for (int k = 0; k < 4; ++k)
          commutator += g_mu(row, k) * g_nu(k, column) - g_nu(row, k) * g_mu(k, column);
        // S = (i c_sw / 2) sigma, sigma = (i/2) [g_mu, g_nu]: S = -(c_sw / 4) [g_mu, g_nu].
        const ComplexD s = (-0.25 * c_sw * factor) * commutator;
        f.c_re[block][j][i] = s.re;
        f.c_im[block][j][i] = s.im;
      }
  return f;
}

template <int Mu, int Nu, class R, class W, class Inverse>
void trace_plane(CloverInsertion<R, W>& lambda, const Lattice<ColourMatrix<R>, W>& zero_even, const Inverse& odd_inverse,
                 double c_sw, double factor) {
  lambda(Mu, Nu) = merge(zero_even, let(map(trace_insertion<Mu, Nu>(c_sw, factor), odd_inverse),
                                        [](const auto& q) { return 0.125 * (q - adj(q)); }));
}

}  // namespace clover_force_detail

// L_{mu nu} of factor * sum_{x odd} log det T(x) (factor = -2 for two
// flavours), nothing on the even sites. `odd_inverse` is T^-1 on the odd
// checkerboard.
template <class R, class W>
void clover_insertion_from_log_det(CloverInsertion<R, W>& lambda, const Lattice<CloverSite<R>, W>& odd_inverse,
                                   double c_sw, double factor) {
  const profile::Region region("fermion force: clover log det insertion");
  const Lattice<ColourMatrix<R>, W> zero_even(odd_inverse.geometry().whole().checkerboard(Parity::even));
  using namespace clover_force_detail;
  trace_plane<0, 1>(lambda, zero_even, odd_inverse, c_sw, factor);
  trace_plane<0, 2>(lambda, zero_even, odd_inverse, c_sw, factor);
  trace_plane<0, 3>(lambda, zero_even, odd_inverse, c_sw, factor);
  trace_plane<1, 2>(lambda, zero_even, odd_inverse, c_sw, factor);
  trace_plane<1, 3>(lambda, zero_even, odd_inverse, c_sw, factor);
  trace_plane<2, 3>(lambda, zero_even, odd_inverse, c_sw, factor);
}

// sum_{x of the field's sites} log det T(x), one reproducible reduction.
template <class R, class W> double clover_log_det_sum(const Lattice<CloverSite<R>, W>& term) {
  return sum(map(functors::CloverLogDeterminant{}, term));
}

}  // namespace latte
