#pragma once
// Landau and Coulomb gauge fixing (gauge_condition.hpp), by SU(2)-subgroup
// overrelaxation on the checkerboards (overrelaxation_step.hpp):
//
//   GaugeFixing<double> fixing(U.geometry(), GaugeCondition::landau, {1e-12});
//   const GaugeFixingReport report = fixing.fix(U);       // U is now in Landau gauge
//   gauge_transform(S, fixing.transformation(), source);   // a propagator made on the old U
//
//   auto [G, report] = fix_gauge(U, GaugeCondition::coulomb);  // the same, in one call
//
// fix(U) transforms U in place and leaves in transformation() the G with
// U_fixed = G applied to U (gauge_transformation.hpp), accumulated as
// G <- g G at every step.
//
// One sweep is two half-sweeps, the even sites and then the odd ones. The
// transformation g of a half-sweep is 1 on the other parity, and the sites
// of one parity are not neighbours, so all of them move at once: at a site
// x of the parity, g(x) from K(x) (one statement, into a half field), then
// every link and G in one statement of five destinations (assign_all):
//   U_mu(x) <- g(x) U_mu(x)                      x of the parity,
//   U_mu(y) <- U_mu(y) g(y + mu)^+               y of the other parity,
//   G(x)    <- g(x) G(x).
// Every link is transformed, the time links of Coulomb too; only K and
// theta leave them out. For Coulomb, g is 1 on the timeslices that have
// converged (a per-site mask, 1 or 0, set by one statement when a timeslice
// converges), so they keep their links.
//
// The same bits on any rank count, process grid, thread count and SIMD
// width: the site step uses + - * / sqrt only, every site is computed by
// the same code from the same values, and theta and F are reproducible sums
// (and slice sums), so the same sweeps are made and the same timeslices
// stop at the same sweep everywhere.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "dsl/expr/checkerboard.hpp"
#include "dsl/latte.hpp"
#include "lattice/fields/coordinate_field.hpp"
#include "lattice/fields/root_output.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge_fixing/gauge_condition.hpp"
#include "solvers/qcd/gauge_fixing/gauge_fixing_report.hpp"
#include "solvers/qcd/gauge_fixing/gauge_transformation.hpp"
#include "solvers/qcd/gauge_fixing/overrelaxation_step.hpp"

namespace latte {

namespace functors {
// The mask of the moving timeslices with timeslice `slice` stopped.
struct StopTimeslice {
  static constexpr const char* name = "stop_timeslice";
  double slice = 0;
  template <class R> LATTE_INLINE R operator()(const R& active, const R& time) const {
    const R d = time - R(slice);
    return su3::detail::choose(d * d < R(0.25), R(0), active);
  }
};
}  // namespace functors

namespace gauge_fixing {

// omega = 0 asks for the overrelaxation that is optimal for the slowest
// mode near the maximum, where the fixing is red-black successive
// overrelaxation of the lattice Laplacian in the condition's D directions:
// its Jacobi factor at the longest extent L is rho = 1 - (1 - cos(2 pi / L)) / D
// and the optimum omega = 2 / (1 + sqrt(1 - rho^2)) (Young), under which
// that mode shrinks by omega - 1 per sweep instead of rho^2: 1.20 on 4^4,
// 1.45 on 8^4, 1.67 on 16^4, 1.82 on 32^4 (Landau). Measured on smooth
// 16^4 fields: 224 sweeps at omega = 1, 60 at 1.6, 40 at 1.7, 64 at 1.8,
// 132 at 1.9.
inline double automatic_omega(const Coordinate& dims, GaugeCondition condition) {
  const int directions = condition_directions(condition);
  int longest = 1;
  for (int mu = 0; mu < directions; ++mu) longest = std::max(longest, dims[mu]);
  const double pi = 3.14159265358979323846;
  const double rho = 1.0 - (1.0 - std::cos(2.0 * pi / longest)) / directions;
  return std::min(2.0 / (1.0 + std::sqrt(1.0 - rho * rho)), 1.95);
}

}  // namespace gauge_fixing

template <class R, class W = DefaultWidth>
class GaugeFixing {
 public:
  using Links = Lattice<ColourMatrix<R>, W>;

  GaugeFixing(const Geometry& geometry, GaugeCondition condition, const GaugeFixingControl& control = {})
      : condition_(condition),
        control_(checked(control)),
        omega_(control.omega != 0 ? control.omega : gauge_fixing::automatic_omega(geometry.dims(), condition)),
        even_(geometry.checkerboard(Parity::even)),
        odd_(geometry.checkerboard(Parity::odd)),
        g_even_(even_),
        g_odd_(odd_),
        G_(geometry),
        density_(geometry) {
    if (condition == GaugeCondition::coulomb) {
      active_.emplace(geometry);
      time_.emplace(geometry);
      fill_coordinate(*time_, gauge_fixing::time_direction);
      *active_ = R(1);
    }
  }

  GaugeCondition condition() const { return condition_; }
  const GaugeFixingControl& control() const { return control_; }
  // The overrelaxation parameter: control().omega, or the lattice's optimum for 0.
  double omega() const { return omega_; }
  // G of the last fix (the identity before): U_fixed = G applied to U.
  const GaugeTransformation<R, W>& transformation() const { return G_; }
  GaugeTransformation<R, W>& transformation() { return G_; }

  // Fixes U in place (above); throws GaugeFixingError if it has not
  // converged after control().max_sweeps sweeps, U and transformation()
  // then at the last iterate.
  template <class Backend = backend::Default> GaugeFixingReport fix(GaugeField<R, W>& U) {
    check_geometry(U);
    const auto start = std::chrono::steady_clock::now();
    G_.set_identity();
    if (active_) *active_ = R(1);
    GaugeFixingReport report;
    report.condition = condition_;
    report.method = control_.method;
    report.omega = omega_;
    const int slices = U.geometry().dims()[gauge_fixing::time_direction];
    std::vector<bool> moving;
    if (condition_ == GaugeCondition::coulomb) {
      moving.assign(static_cast<std::size_t>(slices), true);
      report.slice_sweeps.assign(static_cast<std::size_t>(slices), 0);
    }
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    while (true) {
      // measure, record, stop the converged timeslices
      report.quality = measure<Backend>(U);
      GaugeFixingRecord record{report.sweeps, report.quality.functional, report.quality.theta,
                               report.quality.slice_theta};
      int still_moving = 0;
      bool converged = report.quality.theta <= control_.tolerance;
      if (condition_ == GaugeCondition::coulomb) {
        for (int t = 0; t < slices; ++t) {
          const std::size_t s = static_cast<std::size_t>(t);
          if (!moving[s]) continue;
          report.slice_sweeps[s] = report.sweeps;
          if (report.quality.slice_theta[s] <= control_.tolerance) {
            moving[s] = false;
            assign<Backend>(*active_, map(functors::StopTimeslice{static_cast<double>(t)}, *active_, *time_),
                            AssignSet{});
          } else {
            ++still_moving;
          }
        }
        converged = still_moving == 0;
      }
      report.history.push_back(record);
      if (control_.progress) {
        const std::string line = gauge_fixing::progress_line(report, record, still_moving);
        write_on_root([&] { *control_.progress << line << std::flush; });
      }
      if (std::isnan(report.quality.theta)) {
        report.seconds = seconds();
        throw GaugeFixingError(gauge_fixing::no_convergence(report, control_, "NaN in theta"), report);
      }
      if (converged) break;
      if (report.sweeps >= control_.max_sweeps) {
        report.seconds = seconds();
        throw GaugeFixingError(gauge_fixing::no_convergence(report, control_, "no convergence"), report);
      }
      const int n = std::min(control_.check_every, control_.max_sweeps - report.sweeps);
      for (int i = 0; i < n; ++i) sweep<Backend>(U);
      report.sweeps += n;
    }
    report.converged = true;
    report.seconds = seconds();
    return report;
  }

  // One sweep of the moving timeslices (all of Landau's sites): even sites, then odd.
  template <class Backend = backend::Default> void sweep(GaugeField<R, W>& U) {
    check_geometry(U);
    gauge_fixing::with_directions(condition_, [&](auto directions) {
      constexpr int D = decltype(directions)::value;
      half_sweep<Backend, D>(U, Parity::even);
      half_sweep<Backend, D>(U, Parity::odd);
    });
  }

  // F and theta of U now (gauge_condition.hpp).
  template <class Backend = backend::Default> GaugeFixingQuality measure(const GaugeField<R, W>& U) {
    return gauge_fixing::measure<Backend>(U, condition_, density_);
  }

 private:
  static const GaugeFixingControl& checked(const GaugeFixingControl& control) {
    gauge_fixing::check_control(control);
    return control;
  }
  void check_geometry(const GaugeField<R, W>& U) const {
    if (!U[0].layout().same_as(G_.matrices().layout()))
      throw GeometryMismatch("Latte: gauge fixing made for the lattice " + to_string(G_.geometry().dims()) +
                             " was given a gauge field on " + to_string(U.geometry().dims()) +
                             " (or another decomposition)");
  }

  template <class Backend, int D> void half_sweep(GaugeField<R, W>& U, Parity parity) {
    Links& g = parity == Parity::even ? g_even_ : g_odd_;
    const auto K = gauge_fixing::neighbour_sum<D>(U);
    if (active_)
      assign<Backend>(g, map(functors::MaskedGaugeFixingOverrelaxation{omega_}, pick(parity, K), pick(parity, *active_)),
                      AssignSet{});
    else
      assign<Backend>(g, map(functors::GaugeFixingOverrelaxation{omega_}, pick(parity, K)), AssignSet{});
    Links& G = G_.matrices();
    if (parity == Parity::even)
      assign_all<Backend>(std::tie(U[0], U[1], U[2], U[3], G), moved_from_even(g, U[0], 0), moved_from_even(g, U[1], 1),
                 moved_from_even(g, U[2], 2), moved_from_even(g, U[3], 3),
                 merge(map(functors::TransformFromLeft{}, g, pick(Parity::even, G)), pick(Parity::odd, G)));
    else
      assign_all<Backend>(std::tie(U[0], U[1], U[2], U[3], G), moved_from_odd(g, U[0], 0), moved_from_odd(g, U[1], 1),
                 moved_from_odd(g, U[2], 2), moved_from_odd(g, U[3], 3),
                 merge(pick(Parity::even, G), map(functors::TransformFromLeft{}, g, pick(Parity::odd, G))));
  }
  // U_mu transformed by g on the even sites (1 on the odd ones), and the same with g on the odd sites.
  static auto moved_from_even(const Links& g, const Links& u, int mu) {
    return merge(map(functors::TransformFromLeft{}, g, pick(Parity::even, u)),
                 map(functors::TransformFromRight{}, pick(Parity::odd, u), shift(g, mu, +1)));
  }
  static auto moved_from_odd(const Links& g, const Links& u, int mu) {
    return merge(map(functors::TransformFromRight{}, pick(Parity::even, u), shift(g, mu, +1)),
                 map(functors::TransformFromLeft{}, g, pick(Parity::odd, u)));
  }

  GaugeCondition condition_;
  GaugeFixingControl control_;
  double omega_;
  Geometry even_, odd_;
  Links g_even_, g_odd_;           // the step's g on the sites of one parity
  GaugeTransformation<R, W> G_;    // accumulated
  std::optional<Lattice<R, W>> active_, time_;  // Coulomb: 1 on the moving timeslices; x_3
  Lattice<R, W> density_;          // scratch of the timeslice sums
};

// The fixed gauge's transformation and the report of fix_gauge.
template <class R, class W>
struct GaugeFixed {
  GaugeTransformation<R, W> transformation;
  GaugeFixingReport report;
};

// U fixed in place; returns G (U_fixed = G applied to U) and the report.
// On failure (GaugeFixingError) U is at the last iterate; keep a
// GaugeFixing to have its G too.
template <class R, class W>
GaugeFixed<R, W> fix_gauge(GaugeField<R, W>& U, GaugeCondition condition, const GaugeFixingControl& control = {}) {
  GaugeFixing<R, W> fixing(U.geometry(), condition, control);
  GaugeFixingReport report = fixing.fix(U);
  return {std::move(fixing.transformation()), std::move(report)};
}

}  // namespace latte
