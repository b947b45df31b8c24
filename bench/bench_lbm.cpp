// Lattice-Boltzmann MLUPS: one fused stream-collide step (two-lattice pull
// scheme, solvers/lbm/stream_collide.hpp) on a periodic box far larger than
// cache, D2Q9 and D3Q19, double and single, judged against STREAM triad.
//
// Models, derived by the library from the step's expression
// (bench/derived_model.hpp). Traffic per cell update, F = sizeof(real): every population read
// once and written once, 2 x Q x F bytes (D3Q19 double: 304 B; D2Q9 double:
// 144 B). Neighbours' populations are counted once (perfect reuse along the
// sweep). With write-allocate the hardware moves 3 x Q x F unless stores
// bypass the cache; that figure is reported beside, but fraction_of_stream
// uses the 2 x Q x F model, the same way STREAM triad counts 24 B/element.
// Flops are the collision's arithmetic as its code does it (counted, not
// estimated: dsl/flop_count.hpp).
// How figures are taken (best of N, STREAM interleaved) is in bench/session.hpp.

#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/derived_model.hpp"
#include "bench/halo_traffic.hpp"
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "examples/command_line.hpp"
#include "solvers/lbm/simulation.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;

struct Options {
  std::vector<int> d2q9{2048, 2048};
  std::vector<int> d3q19{128, 128, 128};
  std::string precision = "both";
  std::string sets = "both";
  std::string model = "bgk";
  bench::SessionOptions session;
};

template <class VS, class Model, class Real>
void run_lbm(const std::vector<int>& extents, bench::Session& session) {
  const Geometry geometry = bench::scaled_geometry(extents, session.options().scaling);
  Parameters p;
  p.tau = 0.8;
  Simulation<VS, Real, Model> sim(geometry, p);
  {
    // A perturbed fluid, so the collision does real work on every site.
    typename decltype(sim)::ScalarField rho(geometry);
    typename decltype(sim)::VectorField u(geometry);
    ParallelRng rng(17);
    rng.uniform(rho, 0.98, 1.02);
    rng.uniform(u, -0.05, 0.05);
    sim.initialise(rho, u);
  }
  const bench::DerivedModel model = bench::derived_model(session, [&] { sim.step(); });
  const double mass0 = sim.mass();
  const bench::Timing timing = session.time([&] { sim.step(); });
  const double drift = std::abs(sim.mass() - mass0) / mass0;
  if (!(drift < (sizeof(Real) == 8 ? 1e-10 : 1e-3)))
    throw std::runtime_error(std::string(VS::name) + ": mass not conserved during the benchmark, drift " +
                             std::to_string(drift));

  const double sites = static_cast<double>(geometry.volume());
  bench::Result result;
  result.bench = std::string("lbm_") + (VS::d == 2 ? "d2q9" : "d3q19") + "_" + (Model::name[0] == 'B' ? "bgk" : "trt");
  result.precision = bench::precision_name<Real>();
  result.lattice = geometry.dims();
  bench::apply_model(result, model, sites);
  result.extra["mlups"] = sites / timing.seconds * 1e-6;
  result.extra["bytes_per_site_with_write_allocate"] = 3 * VS::q * sizeof(Real);
  result.extra["traffic_model"] = "derived: 2 x Q x sizeof(real) per cell update (two-lattice pull, read f once, write f_next once)";
  result.extra["field_megabytes"] = 2.0 * static_cast<double>(sim.populations().bytes()) * 1e-6;
  result.extra["nsimd"] = decltype(sim)::PopulationField::nsimd;
  result.extra["relative_mass_drift"] = drift;
  // Halos: each moving population streams across the faces (edges, corners)
  // its velocity crosses, one real per site.
  double halo_model = 0;
  static_for<VS::q>([&](auto i) { halo_model += bench::halo_sites(geometry, along_velocity<VS, i, -1>()) * sizeof(Real); });
  bench::record_halo_traffic(result, session, geometry, halo_model, timing, [&] { sim.step(); });
  session.record(result, timing);
}

template <class Model>
void run_all(const Options& opt, bench::Session& session) {
  const bool dbl = opt.precision != "single", sgl = opt.precision != "double";
  if (opt.sets != "d3q19") {
    if (dbl) run_lbm<D2Q9, Model, double>(opt.d2q9, session);
    if (sgl) run_lbm<D2Q9, Model, float>(opt.d2q9, session);
  }
  if (opt.sets != "d2q9") {
    if (dbl) run_lbm<D3Q19, Model, double>(opt.d3q19, session);
    if (sgl) run_lbm<D3Q19, Model, float>(opt.d3q19, session);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: --process-grid, and every rank measures
  Options opt;
  programs::CommandLine cli{"Latte benchmark: lattice-Boltzmann stream-collide MLUPS against STREAM triad"};
  cli.option("--d2q9", opt.d2q9, "D2Q9 lattice extents").expected(2).show_default();
  cli.option("--d3q19", opt.d3q19, "D3Q19 lattice extents").expected(3).show_default();
  cli.option("-p,--precision", opt.precision, "double, single or both")
      .one_of({"double", "single", "both"})
      .show_default();
  cli.option("--sets", opt.sets, "d2q9, d3q19 or both").one_of({"d2q9", "d3q19", "both"}).show_default();
  cli.option("--model", opt.model, "collision: bgk or trt").one_of({"bgk", "trt"}).show_default();
  bench::add_session_options(cli, opt.session);
  if (auto status = cli.parse(argc, argv)) return *status;

  try {
    bench::Session session(opt.session);
    if (opt.model == "bgk") run_all<Bgk>(opt, session);
    else run_all<Trt>(opt, session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_lbm: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
