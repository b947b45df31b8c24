#pragma once
// The 2-D Taylor-Green vortex on a periodic n x n lattice, k = 2 pi / n:
//   u = u0 (-cos kx sin ky, sin kx cos ky) exp(-2 nu k^2 t),
//   p = p0 - rho0 u0^2 / 4 (cos 2kx + cos 2ky) exp(-4 nu k^2 t),
// an exact solution of the incompressible Navier-Stokes equations. The
// lattice starts from the equilibrium with this velocity and the matching
// density (p = c_s^2 rho), so no pressure wave is launched. The mode shape is
// filled on the host (the DSL has no cos); the amplitude is then measured
// by a DSL reduction, the projection of u on the mode.

#include <cmath>
#include <numbers>

#include "lattice/layout/site_walk.hpp"
#include "solvers/lbm/flow/simulation.hpp"

namespace latte::lbm {

template <class Sim>
class TaylorGreen {
 public:
  using ScalarField = typename Sim::ScalarField;
  using VectorField = typename Sim::VectorField;

  explicit TaylorGreen(const Geometry& g) : mode_(g), k_(2 * std::numbers::pi / g.dims()[0]) {
    if (g.dimensions() != 2 || g.dims()[0] != g.dims()[1])
      throw std::invalid_argument("lbm: the Taylor-Green vortex needs a square 2-D lattice");
    const auto view = mode_.host_view(Access::write);
    using R = typename Sim::real_type;
    for_each_site(mode_.layout(), [&](std::int64_t o, int l, const Coordinate& c) {
      RealVector<R, 2> m;
      m.v[0] = static_cast<R>(-std::cos(k_ * c[0]) * std::sin(k_ * c[1]));
      m.v[1] = static_cast<R>(std::sin(k_ * c[0]) * std::cos(k_ * c[1]));
      view.store(LaneSite<R>{o, l}, m);
    });
    mode_norm2_ = norm2(mode_);
  }

  // f = f^eq(rho, u0 * mode) with the Taylor-Green density, rho0 = 1.
  void initialise(Sim& sim, double u0) const {
    const Geometry& g = mode_.geometry();
    ScalarField rho(g);
    const auto view = rho.host_view(Access::write);
    using R = typename Sim::real_type;
    for_each_site(rho.layout(), [&](std::int64_t o, int l, const Coordinate& c) {
      const double cos2 = std::cos(2 * k_ * c[0]) + std::cos(2 * k_ * c[1]);
      view.store(LaneSite<R>{o, l}, static_cast<R>(1.0 - 3.0 * u0 * u0 / 4.0 * cos2));  // rho = p / c_s^2
    });
    VectorField u(g);
    u = u0 * mode_;
    sim.initialise(rho, u);
  }

  // The projection of the current velocity on the mode: u0 exp(-2 nu k^2 t).
  double amplitude(const Sim& sim) const { return sum(localInnerProduct(mode_, sim.velocity())) / mode_norm2_; }

  double wave_number() const { return k_; }
  const VectorField& mode() const { return mode_; }

 private:
  VectorField mode_;
  double k_;
  double mode_norm2_ = 0;
};

}  // namespace latte::lbm
