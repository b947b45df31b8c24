// Lattice-Boltzmann MLUPS: the fused stream-collide step on a periodic box
// far larger than cache, D2Q9, D3Q19 and D3Q27, double and single, with two
// lattices (the pull scheme, solvers/lbm/streaming/stream_collide.hpp) and in place
// (the AA pattern, solvers/lbm/streaming/in_place_streaming.hpp), judged against
// STREAM triad. --model thermal and --model shan-chen time the coupled
// steps of a flow with a temperature or with the Shan-Chen force instead
// (bench_lbm_coupled.cpp).
//
// Models, derived by the library from the step's expression
// (bench/derived_model.hpp). Traffic per cell update, F = sizeof(real): every population read
// once and written once, 2 x Q x F bytes (D3Q19 double: 304 B; D2Q9 double:
// 144 B). Neighbours' populations are counted once (perfect reuse along the
// sweep). With two lattices and write-allocate the hardware moves 3 x Q x F
// unless stores bypass the cache; in place every store goes to a line just
// read, so 2 x Q x F is what moves. fraction_of_stream uses the 2 x Q x F
// model for both, the same way STREAM triad counts 24 B/element. In place,
// the steps alternate between a push step and a local step, so a timed call
// is one pair of steps.
// Flops are the collision's arithmetic as its code does it (counted, not
// estimated: dsl/expr/flop_count.hpp).
// In place, a yardstick line follows each in-place line on one rank: the
// same pair of steps' memory traffic without the collision
// (bench/lbm_access_pattern.hpp), with each step alone as a fraction of STREAM.
// How figures are taken (best of N, STREAM interleaved) is in bench/session.hpp.

#include <iostream>
#include <string>

#include "bench/bench_lbm_sets.hpp"
#include "examples/command_line.hpp"

namespace {

using namespace latte;
using latte::bench::lbm_bench::Options;

void run_all(const Options& opt, bench::Session& session) {
  if (opt.model == "thermal" || opt.model == "shan-chen") {  // D2Q9 and D3Q19 only
    bench::lbm_bench::run_coupled(opt, session);
    return;
  }
  const auto wanted = [&](const char* set) {
    return opt.sets == set || opt.sets == "all" || (opt.sets == "both" && std::string(set) != "d3q27");
  };
  if (wanted("d2q9")) bench::lbm_bench::run_d2q9(opt, session);
  if (wanted("d3q19")) bench::lbm_bench::run_d3q19(opt, session);
  if (wanted("d3q27")) bench::lbm_bench::run_d3q27(opt, session);
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
  cli.option("--d3q27", opt.d3q27, "D3Q27 lattice extents").expected(3).show_default();
  cli.option("--sets", opt.sets, "d2q9, d3q19, d3q27, both (d2q9 and d3q19) or all")
      .one_of({"d2q9", "d3q19", "d3q27", "both", "all"})
      .show_default();
  cli.option("--streaming", opt.streaming, "two-lattice, in-place or both")
      .one_of({"two-lattice", "in-place", "both"})
      .show_default();
  cli.option("--model", opt.model,
             "bgk or trt: the isothermal step with that collision; thermal: BGK flow coupled to a temperature "
             "(D2Q5/D3Q7, Boussinesq); shan-chen: BGK flow with the Shan-Chen force (D2Q9 and D3Q19 only)")
      .one_of({"bgk", "trt", "thermal", "shan-chen"})
      .show_default();
  bench::add_session_options(cli, opt.session);
  if (auto status = cli.parse(argc, argv)) return *status;

  try {
    bench::Session session(opt.session);
    run_all(opt, session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_lbm: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
