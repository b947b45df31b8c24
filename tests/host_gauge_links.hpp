#pragma once
// Every link of a gauge field copied to the host in long double, with
// paths multiplied out link by link: the independent references of the
// flow, clover and smearing tests (nothing shared with the library's
// expressions but peek).

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "solvers/qcd/gauge/gauge_field.hpp"
#include "su3_reference.hpp"
#include "test_support.hpp"

namespace latte::testing {

struct HostGaugeLinks {
  Coordinate dims;
  std::vector<MatrixL> links;

  template <class R, class W> explicit HostGaugeLinks(const GaugeField<R, W>& U) : dims(U.geometry().dims()) {
    links.resize(static_cast<std::size_t>(product(dims)) * 4);
    for_each_coordinate(U.geometry(), [&](const Coordinate& x) {
      for (int mu = 0; mu < 4; ++mu) link(x, mu) = to_long(peek(U[mu], x));
    });
  }
  std::int64_t volume() const { return product(dims); }
  std::size_t index(const Coordinate& x) const {
    std::size_t i = 0;
    for (int d = 3; d >= 0; --d) i = i * dims[d] + x[d];
    return i;
  }
  MatrixL& link(const Coordinate& x, int mu) { return links[index(x) * 4 + mu]; }
  const MatrixL& link(const Coordinate& x, int mu) const { return links[index(x) * 4 + mu]; }
  Coordinate step(Coordinate x, int mu, int n) const {
    x[mu] = ((x[mu] + n) % dims[mu] + dims[mu]) % dims[mu];
    return x;
  }
  // The product of links along a path of steps +-(mu + 1) from x.
  MatrixL path(Coordinate x, std::initializer_list<int> steps) const {
    MatrixL p = unit();
    for (int s : steps) {
      const int mu = (s > 0 ? s : -s) - 1;
      if (s > 0) {
        p = times(p, link(x, mu));
        x = step(x, mu, +1);
      } else {
        x = step(x, mu, -1);
        p = times(p, dagger(link(x, mu)));
      }
    }
    return p;
  }
  // The staple sum of U_mu(x) over the planes (mu, nu) of the listed nu:
  // paths x -> x+nu -> x+nu+mu -> x+mu and x -> x-nu -> x-nu+mu -> x+mu.
  MatrixL staples(const Coordinate& x, int mu, std::initializer_list<int> nus) const {
    MatrixL s{};
    for (int nu : nus) {
      const MatrixL up = path(x, {nu + 1, mu + 1, -(nu + 1)});
      const MatrixL down = path(x, {-(nu + 1), mu + 1, nu + 1});
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) s[i][j] += up[i][j] + down[i][j];
    }
    return s;
  }
  // The clover F_{mu nu}(x) = (Q - Q^+)/8, Q the four plaquettes around x
  // in the (mu, nu) plane, each walked counter-clockwise (mu, then nu).
  MatrixL clover(const Coordinate& x, int mu, int nu) const {
    const int m = mu + 1, n = nu + 1;
    const MatrixL leaves[4] = {path(x, {m, n, -m, -n}), path(x, {n, -m, -n, m}), path(x, {-m, -n, m, n}),
                               path(x, {-n, m, n, -m})};
    MatrixL q{};
    for (const MatrixL& leaf : leaves)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) q[i][j] += leaf[i][j];
    MatrixL f;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) f[i][j] = (q[i][j] - std::conj(q[j][i])) / 8.0L;
    return f;
  }
};

}  // namespace latte::testing
