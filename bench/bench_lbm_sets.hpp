#pragma once
// bench_lbm's measurement of one velocity set (bench_lbm.cpp says what is
// measured and how). Each velocity set is compiled in a file of its own
// (bench_lbm_d2q9.cpp, bench_lbm_d3q19.cpp, bench_lbm_d3q27.cpp): its
// kernels are the largest of the benchmarks, and one translation unit for
// all three was the last and longest step of a build.

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/derived_model.hpp"
#include "bench/halo_traffic.hpp"
// The yardstick is CPU code (SIMD vectors): not on the cuda backend.
#if !defined(LATTE_BACKEND_CUDA)
#include "bench/lbm_access_pattern.hpp"
#endif
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "solvers/lbm/flow/simulation.hpp"

namespace latte::bench::lbm_bench {

using namespace latte::lbm;

struct Options {
  std::vector<int> d2q9{2048, 2048};
  std::vector<int> d3q19{128, 128, 128};
  std::vector<int> d3q27{128, 128, 128};
  std::string precision = "both";
  std::string sets = "all";
  std::string streaming = "both";
  std::string model = "bgk";
  SessionOptions session;
};

// The lines of one velocity set (bench_lbm_<set>.cpp) for the options' model.
void run_d2q9(const Options& opt, Session& session);
void run_d3q19(const Options& opt, Session& session);
void run_d3q27(const Options& opt, Session& session);
// The coupled steps, --model thermal or shan-chen (bench_lbm_coupled.cpp).
void run_coupled(const Options& opt, Session& session);

template <class VS, class Model, class Real, class... Scheme>
void run_lbm(const std::vector<int>& extents, Session& session, Scheme... scheme) {
  const Geometry geometry = scaled_geometry(extents, session.options().scaling);
  Parameters p;
  p.tau = 0.8;
  Simulation<VS, Real, Model> sim(geometry, p, scheme...);
  const bool in_place = sim.in_place();
  const int steps_per_call = in_place ? 2 : 1;
  const auto kernel = [&] {
    for (int s = 0; s < steps_per_call; ++s) sim.step();
  };
  {
    // A perturbed fluid, so the collision does real work on every site.
    typename decltype(sim)::ScalarField rho(geometry);
    typename decltype(sim)::VectorField u(geometry);
    ParallelRng rng(17);
    rng.uniform(rho, 0.98, 1.02);
    rng.uniform(u, -0.05, 0.05);
    sim.initialise(rho, u);
  }
  // In place, mass() puts the field in natural order and the next step
  // reorders it: that first call is neither modelled nor timed.
  const double mass0 = sim.mass();
  kernel();
  const DerivedModel model = derived_model(session, kernel);
  const Timing timing = session.time(kernel);
  const double drift = std::abs(sim.mass() - mass0) / mass0;
  if (!(drift < (sizeof(Real) == 8 ? 1e-10 : 1e-3)))
    throw std::runtime_error(std::string(VS::name) + ": mass not conserved during the benchmark, drift " +
                             std::to_string(drift));

  const double sites = static_cast<double>(geometry.volume());
  const double updates = sites * steps_per_call;
  Result result;
  result.bench = std::string("lbm_") + VS::name + "_" + (Model::name[0] == 'B' ? "bgk" : "trt") +
                 (in_place ? "_in_place" : "");
  for (char& c : result.bench) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  result.precision = precision_name<Real>();
  result.lattice = geometry.dims();
  apply_model(result, model, updates);
  result.extra["mlups"] = updates / timing.seconds * 1e-6;
  result.extra["streaming"] = in_place ? "in_place" : "two_lattice";
  result.extra["steps_per_call"] = steps_per_call;
  result.extra["bytes_per_site_with_write_allocate"] = (in_place ? 2 : 3) * VS::q * sizeof(Real);
  result.extra["traffic_model"] =
      in_place ? "derived: 2 x Q x sizeof(real) per cell update (in place: each population read once and written once)"
               : "derived: 2 x Q x sizeof(real) per cell update (two-lattice pull, read f once, write f_next once)";
  // Memory per cell: the population fields only (allocated, not modelled:
  // the fields' bytes over the cells).
  const double population_fields = in_place ? 1 : 2;
  result.extra["population_bytes_per_cell"] =
      population_fields * static_cast<double>(sim.populations().bytes()) / static_cast<double>(sim.populations().outer_volume() * decltype(sim)::PopulationField::nsimd);
  result.extra["field_megabytes"] = population_fields * static_cast<double>(sim.populations().bytes()) * 1e-6;
  result.extra["nsimd"] = decltype(sim)::PopulationField::nsimd;
  result.extra["relative_mass_drift"] = drift;
  // Halos: each moving population streams across the faces (edges, corners)
  // its velocity crosses, one real per site.
  double halo_model = 0;
  // In place, the push step sends them there and back, the local step none.
  static_for<VS::q>([&](auto i) { halo_model += halo_sites(geometry, along_velocity<VS, i, -1>()) * sizeof(Real); });
  record_halo_traffic(result, session, geometry, halo_model * steps_per_call, timing, kernel);
#if defined(LATTE_BACKEND_CUDA)
  session.record(result, timing);
#else
  // The yardstick (plain CPU loops, one rank's lattice only): the same pair
  // of steps' memory traffic without the collision, in a field of its own.
  if (!in_place || geometry.decomposition().any_communication()) {
    session.record(result, timing);
    return;
  }
  typename decltype(sim)::PopulationField moved(geometry);
  const InPlaceAccessPattern<VS, decltype(moved)> pattern(moved);
  const Timing pair = session.time([&] {
    pattern.push_step();
    pattern.local_step();
  });
  const Timing push = session.time([&] { pattern.push_step(); });
  const Timing local = session.time([&] { pattern.local_step(); });
  result.extra["dsl_time_over_access_pattern"] = timing.seconds / pair.seconds;
  session.record(result, timing);
  result.extra.erase("dsl_time_over_access_pattern");
  forget_halo_traffic(result);
  result.extra.erase("relative_mass_drift");
  result.bench += "_access_pattern_yardstick";
  result.backend = "plain-omp";
  result.extra["mlups"] = updates / pair.seconds * 1e-6;
  // Each step alone, as a fraction of the interleaved triad: which of the
  // two steps the pattern makes slow.
  const double bytes_per_step = model.bytes / steps_per_call;
  if (push.stream_triad_gbytes_per_s > 0 && local.stream_triad_gbytes_per_s > 0) {
    result.extra["push_step_fraction_of_stream"] =
        bytes_per_step / push.seconds * 1e-9 / push.stream_triad_gbytes_per_s;
    result.extra["local_step_fraction_of_stream"] =
        bytes_per_step / local.seconds * 1e-9 / local.stream_triad_gbytes_per_s;
  }
  session.record(result, pair);
#endif
}

template <class VS, class Model>
void run_set(const Options& opt, const std::vector<int>& extents, Session& session) {
  const bool dbl = opt.precision != "single", sgl = opt.precision != "double";
  const bool two = opt.streaming != "in-place", one = opt.streaming != "two-lattice";
  if (dbl && two) run_lbm<VS, Model, double>(extents, session);
  if (dbl && one) run_lbm<VS, Model, double>(extents, session, in_place_streaming);
  if (sgl && two) run_lbm<VS, Model, float>(extents, session);
  if (sgl && one) run_lbm<VS, Model, float>(extents, session, in_place_streaming);
}

// The lines of velocity set VS, for the options' collision model.
template <class VS>
void run_velocity_set(const Options& opt, const std::vector<int>& extents, Session& session) {
  if (opt.model == "bgk") run_set<VS, Bgk>(opt, extents, session);
  else run_set<VS, Trt>(opt, extents, session);
}

}  // namespace latte::bench::lbm_bench
