// bench_lbm's coupled steps (--model thermal, --model shan-chen): a flow
// coupled to a second field, D2Q9 and D3Q19, double and single, the flow
// with two lattices or in place. One timed call is one coupled step (two
// in place, the AA pair), every statement of it:
//
//   thermal (solvers/lbm/thermal/boussinesq.hpp coupled_step): the flow's step
//     with the buoyancy force field; the temperature's step (D2Q5 with
//     D2Q9, D3Q7 with D3Q19; in place when the flow is) reading the flow's
//     velocity; the force field from the new temperature. Three
//     statements.
//   shan-chen (solvers/lbm/multiphase/shan_chen.hpp ShanChenCoupling::step): psi of
//     the density the collision will see; the interaction force from the Q
//     shifted psi values; the flow's step with that force field. Three
//     statements.
//
// The byte model is derived from the statements (each distinct field read
// once per site and the destination written once, bench/derived_model.hpp),
// so fraction_of_stream says how close the whole coupled step comes to
// moving its minimal traffic at the STREAM rate; bytes_per_site_model
// says how much that is beside the isothermal step's 2 Q reals.

#include <cmath>
#include <stdexcept>
#include <string>

#include "bench/bench_lbm_sets.hpp"
#include "solvers/lbm/multiphase/shan_chen.hpp"
#include "solvers/lbm/thermal/boussinesq.hpp"
#include "solvers/lbm/thermal/thermal.hpp"

namespace latte::bench::lbm_bench {
namespace {

// The fields of a line: the coupled step's name, the flow's streaming, the
// derived model and timing, and the per-cell memory of its fields.
template <class Real>
void record_coupled(Session& session, const Geometry& geometry, const std::string& name, bool in_place,
                    const DerivedModel& model, const Timing& timing, double field_bytes, double drift) {
  const int steps_per_call = in_place ? 2 : 1;
  const double sites = static_cast<double>(geometry.volume());
  const double updates = sites * steps_per_call;
  Result result;
  result.bench = name + (in_place ? "_in_place" : "");
  result.precision = precision_name<Real>();
  result.lattice = geometry.dims();
  apply_model(result, model, updates);
  result.extra["mlups"] = updates / timing.seconds * 1e-6;
  result.extra["streaming"] = in_place ? "in_place" : "two_lattice";
  result.extra["steps_per_call"] = steps_per_call;
  result.extra["statements_per_call"] = model.statements;
  result.extra["field_megabytes"] = field_bytes * 1e-6;
  result.extra["relative_mass_drift"] = drift;
  session.record(result, timing);
}

// Rayleigh-Benard-like: a periodic box heated from a random temperature
// field, gravity along the last axis; the values do not matter for the
// timing, only that every site does the whole arithmetic.
template <class Flow, class Heat, class Real, class... Scheme>
void run_thermal(const std::vector<int>& extents, Session& session, Scheme... scheme) {
  const Geometry geometry = scaled_geometry(extents, session.options().scaling);
  using FlowVS = typename Flow::velocity_set;
  using HeatVS = typename Heat::velocity_set;
  Parameters p;
  p.tau = 0.8;
  Flow flow(geometry, p, scheme...);
  Heat heat(geometry, 0.7, scheme...);  // in place with the flow
  {
    typename Flow::ScalarField t(geometry);
    ParallelRng(21).uniform(t, -0.5, 0.5);
    heat.initialise(t, RealVector<double, FlowVS::d>{});
    flow.initialise(1.0);
  }
  Boussinesq buoyancy;
  buoyancy.expansion = 1e-3;
  buoyancy.gravity[FlowVS::d - 1] = 1e-2;
  set_buoyancy(flow, heat, buoyancy);
  const bool in_place = flow.in_place();
  const auto kernel = [&] {
    for (int s = 0; s < (in_place ? 2 : 1); ++s) coupled_step(flow, heat, buoyancy);
  };
  const double mass0 = flow.mass(), heat0 = heat.total();
  kernel();
  const DerivedModel model = derived_model(session, kernel);
  const Timing timing = session.time(kernel);
  const double drift = std::abs(flow.mass() - mass0) / mass0;
  const double heat_drift = std::abs(heat.total() - heat0) / (std::abs(heat0) + static_cast<double>(geometry.volume()));
  if (!(drift < (sizeof(Real) == 8 ? 1e-10 : 1e-3)) || !(heat_drift < (sizeof(Real) == 8 ? 1e-10 : 1e-3)))
    throw std::runtime_error(std::string("thermal ") + FlowVS::name + ": mass or heat not conserved, drifts " +
                             std::to_string(drift) + ", " + std::to_string(heat_drift));
  const double field_bytes = (in_place ? 1.0 : 2.0) * static_cast<double>(flow.populations().bytes()) +
                             (in_place ? 1.0 : 2.0) * static_cast<double>(heat.populations().bytes()) +
                             static_cast<double>(flow.force_field().bytes());
  std::string name = std::string("lbm_") + FlowVS::name + "_" + HeatVS::name + "_thermal";
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  record_coupled<Real>(session, geometry, name, in_place, model, timing, field_bytes, drift);
}

// A liquid slab in its vapour (exponential psi, G = -5): an interface in
// every column, so psi and the force vary everywhere they are computed.
template <class Flow, class Real, class... Scheme>
void run_shan_chen(const std::vector<int>& extents, Session& session, Scheme... scheme) {
  const Geometry geometry = scaled_geometry(extents, session.options().scaling);
  using VS = typename Flow::velocity_set;
  Parameters p;
  p.tau = 1.0;
  Flow flow(geometry, p, scheme...);
  {
    typename Flow::ScalarField rho(geometry);
    const int n = geometry.dims()[0];
    fill(rho, [n](const Coordinate& x) { return std::abs(x[0] - n / 2) < n / 4 ? 1.9 : 0.16; });
    flow.initialise(rho, RealVector<double, VS::d>{});
  }
  ShanChenCoupling coupled(flow, shan_chen_exponential(-5.0));
  const bool in_place = flow.in_place();
  const auto kernel = [&] {
    for (int s = 0; s < (in_place ? 2 : 1); ++s) coupled.step();
  };
  const double mass0 = flow.mass();
  kernel();
  const DerivedModel model = derived_model(session, kernel);
  const Timing timing = session.time(kernel);
  const double drift = std::abs(flow.mass() - mass0) / mass0;
  if (!(drift < (sizeof(Real) == 8 ? 1e-10 : 1e-3)))
    throw std::runtime_error(std::string("Shan-Chen ") + VS::name + ": mass not conserved, drift " +
                             std::to_string(drift));
  const double field_bytes = (in_place ? 1.0 : 2.0) * static_cast<double>(flow.populations().bytes()) +
                             static_cast<double>(flow.force_field().bytes()) +
                             static_cast<double>(coupled.pseudopotential().bytes());
  std::string name = std::string("lbm_") + VS::name + "_shan_chen";
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  record_coupled<Real>(session, geometry, name, in_place, model, timing, field_bytes, drift);
}

// Every precision and streaming of one flow velocity set VS (its thermal
// set HeatVS) that the options ask for.
template <class VS, class HeatVS, class Real>
void run_precision(const Options& opt, const std::vector<int>& extents, Session& session) {
  using Flow = Simulation<VS, Real, Bgk>;
  using Heat = ThermalSimulation<HeatVS, Real>;
  const bool two = opt.streaming != "in-place", one = opt.streaming != "two-lattice";
  if (opt.model == "thermal") {
    if (two) run_thermal<Flow, Heat, Real>(extents, session);
    if (one) run_thermal<Flow, Heat, Real>(extents, session, in_place_streaming);
  } else {
    if (two) run_shan_chen<Flow, Real>(extents, session);
    if (one) run_shan_chen<Flow, Real>(extents, session, in_place_streaming);
  }
}

template <class VS, class HeatVS>
void run_coupled_set(const Options& opt, const std::vector<int>& extents, Session& session) {
  if (opt.precision != "single") run_precision<VS, HeatVS, double>(opt, extents, session);
  if (opt.precision != "double") run_precision<VS, HeatVS, float>(opt, extents, session);
}

}  // namespace

void run_coupled(const Options& opt, Session& session) {
  const auto wanted = [&](const char* set) {
    return opt.sets == set || opt.sets == "all" || opt.sets == "both";
  };
  if (wanted("d2q9")) run_coupled_set<D2Q9, D2Q5>(opt, opt.d2q9, session);
  if (wanted("d3q19")) run_coupled_set<D3Q19, D3Q7>(opt, opt.d3q19, session);
}

}  // namespace latte::bench::lbm_bench
