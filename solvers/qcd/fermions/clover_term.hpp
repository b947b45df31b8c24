#pragma once
// The site-diagonal part of the Wilson-clover (Sheikholeslami-Wohlert)
// operator, T = (4 + m) + c_sw sum_{mu<nu} (i/2) sigma_{mu nu} F_{mu nu},
// stored per site in compact form, with its inverse.
//
// Conventions (the operator as a whole: solvers/qcd/fermions/clover_action.hpp):
//   sigma_{mu nu} = (i/2) [gamma_mu, gamma_nu], hermitian, in the gamma basis
//     of lattice/tensors/gamma.hpp;
//   F_{mu nu} = (Q_{mu nu} - Q_{mu nu}^+) / 8, the anti-hermitian clover-leaf
//     average of solvers/qcd/gauge/clover_field.hpp, its trace kept;
//   (c_sw/4) sum_{mu,nu} i sigma F = c_sw sum_{mu<nu} (i/2) sigma F, since
//     sigma and F are both antisymmetric in (mu, nu). i F is hermitian, so T is.
//
// The chiral blocks. In this gamma basis gamma_mu = [[0, A_mu], [A_mu^+, 0]],
// so gamma_mu gamma_nu = diag(A_mu A_nu^+, A_mu^+ A_nu) and every sigma_{mu nu}
// is block diagonal in the spin components as stored: no change of basis is
// needed (the basis change is the identity; gamma_5 = diag(1, 1, -1, -1)
// already). Block chi = +1 holds spins 0, 1 and block chi = -1 spins 2, 3.
// With A_x = i s_x, A_y = -i s_y, A_z = i s_z, A_t = 1 (s_k the Pauli
// matrices), the 2x2 blocks are
//   sigma_xy = s_z, sigma_xz = s_y, sigma_yz = s_x       (both blocks)
//   sigma_xt = -chi s_x, sigma_yt = chi s_y, sigma_zt = -chi s_z,
// so with G_{mu nu} = (i c_sw / 2) F_{mu nu} (hermitian 3x3) each block is
//   T_chi = (4 + m) + s_x (x) X + s_y (x) Y + s_z (x) Z
//         = [[4 + m + Z, X - i Y], [X + i Y, 4 + m - Z]]   (rows: spin, colour)
//   X = G_yz - chi G_xt,  Y = G_xz + chi G_yt,  Z = G_xy - chi G_zt.
// The test of this file builds sigma from the gamma matrices and checks it.
//
// Storage: each block is a hermitian 6x6 matrix on (spin s within the block,
// colour c), row a = 3 s + c, held in 36 reals: the 6 real diagonal entries,
// then the 15 complex entries below the diagonal, (i, j) with i > j at
// 6 + 2 (i (i - 1) / 2 + j) (real, imaginary part). A site is two blocks:
// 72 reals, against 144 for the dense 12x12 matrix.
//
// The inverse is computed once per gauge field, block by block, from the
// factorisation T = L D L^+ (L unit lower triangular, D real diagonal): a
// hermitian positive-definite block has every pivot D_k > 0, and the inverse
// L^-+ D^-1 L^-1 is stored in the same form, so that applying it costs what
// applying T does. A pivot <= 0 (c_sw large against 4 + m on a rough field)
// is an error that names the site, its parity, the block and the pivot.
//
// Flops per site of T psi (counted the usual way, lattice/tensors/complex.hpp): per
// block, 6 real x complex products (12) and 30 complex multiply-adds (240,
// each off-diagonal entry used as itself and conjugated): 252; a site 504.

#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dsl/expr/precision_cast.hpp"
#include "dsl/latte.hpp"
#include "lattice/fields/peek_poke.hpp"
#include "solvers/qcd/gauge/clover_field.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"

namespace latte {

// One hermitian 6x6 chiral block and the two blocks of a site.
template <class R> using CloverBlock = RealVector<R, 36>;
template <class R> using CloverSite = Vec<CloverBlock<R>, 2, GenericIndex>;

// A block of T with a pivot <= 0 in its L D L^+ factorisation: T is not
// positive definite there, and its inverse is not taken.
struct CloverTermNotPositiveDefinite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace clover {

inline constexpr int block_rows = 6;
// Where the entry (i, j), i > j, of a block starts.
LATTE_HOST_DEVICE constexpr int below_diagonal(int i, int j) { return block_rows + 2 * (i * (i - 1) / 2 + j); }

template <class T>
LATTE_INLINE Complex<T> lower(const CloverBlock<T>& h, int i, int j) {
  const int k = below_diagonal(i, j);
  return {h.v[k], h.v[k + 1]};
}
template <class T>
LATTE_INLINE void set_lower(CloverBlock<T>& h, int i, int j, const Complex<T>& z) {
  const int k = below_diagonal(i, j);
  h.v[k] = z.re;
  h.v[k + 1] = z.im;
}

// y = h x for one block: a plain loop, not unrolled by templates.
template <class T>
LATTE_INLINE void block_times(const CloverBlock<T>& h, const Complex<T>* x, Complex<T>* y) {
  for (int i = 0; i < block_rows; ++i) y[i] = h.v[i] * x[i];
  for (int i = 1; i < block_rows; ++i)
    for (int j = 0; j < i; ++j) {
      const Complex<T> l = lower(h, i, j);
      y[i] = multiply_add(l, x[j], y[i]);
      y[j] = conj_multiply_add(l, x[i], y[j]);
    }
}

// T psi for one spinor: block b acts on spins 2b, 2b + 1.
// This and the factorisation below are compiled once per leaf type and
// called, not forced inline (LATTE_INLINE) into every statement that applies
// T or T^-1: inlined, each of the operator's statements, in both its vector
// and per-lane forms, repeated the 6x6 arithmetic and cost its compile time;
// a call per site is little against its 504 flops.
template <class T>
__attribute__((noinline)) inline LATTE_HOST_DEVICE Spinor<T> site_times(const CloverSite<T>& term, const Spinor<T>& psi) {
  Spinor<T> out;
  for (int b = 0; b < 2; ++b) {
    Complex<T> x[block_rows], y[block_rows];
    for (int s = 0; s < 2; ++s)
      for (int c = 0; c < colours; ++c) x[colours * s + c] = psi.v[2 * b + s].v[c];
    block_times(term.v[b], x, y);
    for (int s = 0; s < 2; ++s)
      for (int c = 0; c < colours; ++c) out.v[2 * b + s].v[c] = y[colours * s + c];
  }
  return out;
}

// The L D L^+ factorisation of a block: pivots d[k] and the entries of L
// below the diagonal, in the block's own packing (its diagonal unused).
// No pivoting: a positive-definite block needs none.
template <class T>
__attribute__((noinline)) inline LATTE_HOST_DEVICE void factorise(const CloverBlock<T>& h, T* d, CloverBlock<T>& l) {
  for (int j = 0; j < block_rows; ++j) {
    T pivot = h.v[j];
    for (int k = 0; k < j; ++k) pivot = pivot - localNorm2(lower(l, j, k)) * d[k];
    d[j] = pivot;
    const T inverse_pivot = T(1.0) / pivot;
    for (int i = j + 1; i < block_rows; ++i) {
      Complex<T> sum = lower(h, i, j);
      for (int k = 0; k < j; ++k) sum = sum - lower(l, i, k) * conj(lower(l, j, k)) * d[k];
      set_lower(l, i, j, sum * inverse_pivot);
    }
  }
}

// h^-1 = L^-+ D^-1 L^-1 from the factorisation: W = L^-1 by forward
// substitution, then (h^-1)_ij = sum_{k >= i} conj(W_ki) W_kj / d_k for i >= j.
template <class T>
__attribute__((noinline)) inline LATTE_HOST_DEVICE CloverBlock<T> block_inverse(const CloverBlock<T>& h) {
  T d[block_rows];
  CloverBlock<T> l, w, inverse;
  factorise(h, d, l);
  // W is unit lower triangular: W_ij = -sum_{j <= k < i} L_ik W_kj (W_jj = 1).
  for (int j = 0; j < block_rows; ++j)
    for (int i = j + 1; i < block_rows; ++i) {
      Complex<T> sum = -lower(l, i, j);
      for (int k = j + 1; k < i; ++k) sum = sum - lower(l, i, k) * lower(w, k, j);
      set_lower(w, i, j, sum);
    }
  T inverse_d[block_rows];
  for (int k = 0; k < block_rows; ++k) inverse_d[k] = T(1.0) / d[k];
  for (int i = 0; i < block_rows; ++i) {
    T diagonal = inverse_d[i];
    for (int k = i + 1; k < block_rows; ++k) diagonal = diagonal + localNorm2(lower(w, k, i)) * inverse_d[k];
    inverse.v[i] = diagonal;
    for (int j = 0; j < i; ++j) {
      Complex<T> sum = lower(w, i, j) * inverse_d[i];
      for (int k = i + 1; k < block_rows; ++k) sum = sum + conj(lower(w, k, i)) * lower(w, k, j) * inverse_d[k];
      set_lower(inverse, i, j, sum);
    }
  }
  return inverse;
}

}  // namespace clover

namespace functors {

// T from the six planes F_{mu nu}, mu < nu, in the order of CloverField
// ((0,1) (0,2) (0,3) (1,2) (1,3) (2,3)), with diagonal = 4 + m.
struct CloverTermFromField {
  static constexpr const char* name = "clover_term";
  double diagonal = 4;
  double c_sw = 0;
  template <class M>
  LATTE_INLINE auto operator()(const M& f_xy, const M& f_xz, const M& f_xt, const M& f_yz, const M& f_yt,
                               const M& f_zt) const {
    using T = real_of_t<M>;
    using Z = Complex<T>;
    const T half_c(0.5 * c_sw), a(diagonal);
    CloverSite<T> site;
    for (int b = 0; b < 2; ++b) {
      const bool plus = b == 0;  // chi = +1: spins 0, 1
      CloverBlock<T>& h = site.v[b];
      // G = i (c_sw / 2) F; with P, Q, S the combinations of F below,
      // X = i h P, Y = i h Q, Z = i h S (h = c_sw / 2).
      for (int r = 0; r < colours; ++r)
        for (int c = 0; c <= r; ++c) {
          const Z p = plus ? f_yz(r, c) - f_xt(r, c) : f_yz(r, c) + f_xt(r, c);
          const Z q = plus ? f_xz(r, c) + f_yt(r, c) : f_xz(r, c) - f_yt(r, c);
          const Z s = plus ? f_xy(r, c) - f_zt(r, c) : f_xy(r, c) + f_zt(r, c);
          const Z z = half_c * timesI(s);
          if (r == c) {  // S is anti-hermitian: Z(r, r) = -h Im S(r, r), real
            h.v[r] = a + z.re;
            h.v[colours + r] = a - z.re;
          } else {
            clover::set_lower(h, r, c, z);
            clover::set_lower(h, colours + r, colours + c, -z);
          }
          // (X + i Y)(r, c) = i h (P + i Q)(r, c), and for r != c also (c, r).
          clover::set_lower(h, colours + r, c, half_c * timesI(p + timesI(q)));
          if (r != c) {
            const Z p_t = plus ? f_yz(c, r) - f_xt(c, r) : f_yz(c, r) + f_xt(c, r);
            const Z q_t = plus ? f_xz(c, r) + f_yt(c, r) : f_xz(c, r) - f_yt(c, r);
            clover::set_lower(h, colours + c, r, half_c * timesI(p_t + timesI(q_t)));
          }
        }
    }
    return site;
  }
};

// T psi (or T^-1 psi with the inverse stored): each spinor of a batch alike.
struct CloverTimes {
  static constexpr const char* name = "clover_times";
  template <class S, class P>
  LATTE_INLINE P operator()(const S& term, const P& psi) const {
    if constexpr (batch_size_v<P> > 0) {
      P out;
      for (int k = 0; k < P::size; ++k) out.v[k] = clover::site_times(term, psi.v[k]);
      return out;
    } else {
      return clover::site_times(term, psi);
    }
  }
};

// The inverse of both blocks.
struct CloverInverse {
  static constexpr const char* name = "clover_inverse";
  template <class S>
  LATTE_INLINE S operator()(const S& term) const {
    S inverse;
    for (int b = 0; b < 2; ++b) inverse.v[b] = clover::block_inverse(term.v[b]);
    return inverse;
  }
};

// The smallest pivot of the site's two factorisations (NaN stays NaN).
struct CloverSmallestPivot {
  static constexpr const char* name = "clover_smallest_pivot";
  template <class S>
  LATTE_INLINE auto operator()(const S& term) const {
    using T = real_of_t<S>;
    using std::min;
    T d[clover::block_rows], smallest(1e300);
    CloverBlock<T> l;
    for (int b = 0; b < 2; ++b) {
      clover::factorise(term.v[b], d, l);
      for (int k = 0; k < clover::block_rows; ++k) smallest = min(smallest, d[k]) + T(0.0) * d[k];
    }
    return smallest;
  }
};

}  // namespace functors

// T and T^-1 on the whole lattice, for one gauge field, mass and c_sw.
template <class R, class W = DefaultWidth>
class CloverTerm {
 public:
  using real_type = R;
  using width_type = W;
  using Field = Lattice<CloverSite<R>, W>;
  static constexpr double flops_per_site = 504;  // T psi, per right-hand side

  // F_{mu nu} from U's clover leaves, then T and its inverse. Throws
  // CloverTermNotPositiveDefinite where a block has a pivot <= 0.
  CloverTerm(const GaugeField<R, W>& U, double mass, double c_sw)
      : term_(U.geometry(), Uninitialized{}), inverse_(U.geometry(), Uninitialized{}), mass_(mass), c_sw_(c_sw) {
    {
      CloverField<R, W> F(U.geometry());
      F.compute(U);
      term_ = map(functors::CloverTermFromField{4.0 + mass, c_sw}, F(0, 1), F(0, 2), F(0, 3), F(1, 2), F(1, 3),
                  F(2, 3));
    }
    check_positive();
    inverse_ = map(functors::CloverInverse{}, term_);
  }

  // The twin in another precision: both fields rounded from `other`'s (the
  // inverse rounded, not recomputed in the lower precision).
  template <class R2, class W2>
  static CloverTerm rounded_from(const CloverTerm<R2, W2>& other) {
    CloverTerm twin(other.geometry(), other.mass(), other.c_sw());
    twin.term_ = precision_cast<R>(other.term());
    twin.inverse_ = precision_cast<R>(other.inverse());
    return twin;
  }

  const Geometry& geometry() const { return term_.geometry(); }
  const Field& term() const { return term_; }
  const Field& inverse() const { return inverse_; }
  double mass() const { return mass_; }
  double c_sw() const { return c_sw_; }

 private:
  CloverTerm(const Geometry& geometry, double mass, double c_sw)
      : term_(geometry, Uninitialized{}), inverse_(geometry, Uninitialized{}), mass_(mass), c_sw_(c_sw) {}

  void check_positive() const {
    const double smallest = minval(map(functors::CloverSmallestPivot{}, term_));
    if (smallest > 0) return;
    throw CloverTermNotPositiveDefinite(first_failure());
  }

  // The first site in lexicographic order (x fastest) with a pivot <= 0,
  // the same on every rank: each rank marks its own sites, a minimum over
  // ranks picks the first, and its term is read where it lives.
  std::string first_failure() const {
    const Geometry& geometry = term_.geometry();
    const Coordinate& dims = geometry.dims();
    Lattice<double, W> first(geometry);
    {
      const auto terms = term_.host_view(Access::read);
      const auto marks = first.host_view(Access::write);
      for_each_site(term_.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
        const CloverSite<R> site = terms.load(LaneSite<R>{o, l});
        double index = 1e300;
        for (int b = 0; b < 2; ++b)
          if (failing_pivot(site.v[b]) >= 0) {
            index = 0;
            for (int mu = static_cast<int>(dims.size()) - 1; mu >= 0; --mu) index = index * dims[mu] + x[mu];
          }
        marks.store(LaneSite<double>{o, l}, index);
      });
    }
    auto index = static_cast<std::int64_t>(minval(first));
    Coordinate x(dims.size());
    for (std::size_t mu = 0; mu < dims.size(); ++mu) {
      x[mu] = static_cast<int>(index % dims[mu]);
      index /= dims[mu];
    }
    const CloverSite<R> site = peek(term_, x);
    std::ostringstream message;
    message << "Latte: the clover term 4 + m + c_sw sum (i/2) sigma F (m = " << mass_ << ", c_sw = " << c_sw_
            << ") is not positive definite at site " << to_string(x) << " ("
            << (Geometry::parity(x) == 0 ? "even" : "odd") << " parity)";
    for (int b = 0; b < 2; ++b) {
      const int k = failing_pivot(site.v[b]);
      if (k < 0) continue;
      double d[clover::block_rows];
      CloverBlock<double> l;
      clover::factorise(to_double(site.v[b]), d, l);
      message << ": block " << b << " (spins " << 2 * b << ", " << 2 * b + 1 << ") has pivot " << k << " = " << d[k]
              << " in its L D L^+ factorisation";
      break;
    }
    message << "; its inverse would not be that of a positive-definite matrix (lower c_sw or raise m)";
    return message.str();
  }
  static CloverBlock<double> to_double(const CloverBlock<R>& h) {
    CloverBlock<double> out;
    for (int k = 0; k < 36; ++k) out.v[k] = static_cast<double>(h.v[k]);
    return out;
  }
  // The index of the first pivot <= 0 (or NaN) of a block, -1 if none.
  static int failing_pivot(const CloverBlock<R>& h) {
    double d[clover::block_rows];
    CloverBlock<double> l;
    clover::factorise(to_double(h), d, l);
    for (int k = 0; k < clover::block_rows; ++k)
      if (!(d[k] > 0)) return k;
    return -1;
  }

  Field term_, inverse_;
  double mass_, c_sw_;
};

}  // namespace latte
