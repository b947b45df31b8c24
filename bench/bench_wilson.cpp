// Wilson Dslash and one CG iteration, judged against STREAM triad.
//
// Models, derived by the library from the statements' expressions
// (bench/derived_model.hpp), per lattice site, F = sizeof(real):
//   Dslash:        1320 flops; on the whole lattice each link field is read
//                  once, 4 links + 1 input + 1 output spinor = 120 F; the
//                  checkerboarded hopping term reads the links of both
//                  checkerboards, 8 links + 2 spinors = 192 F per site of
//                  the half lattice (the usual figure). Neighbour spinors
//                  count once: perfect reuse.
//   CG iteration:  2 applications of M (120 F, 1392 flops each) plus
//                  x += a p, r -= a Ap (with |r|^2), p = r + b p (72 F each):
//                  456 F and 3024 flops (the figures are checked in tests).
// The DSL Dslash is also compared with a hand-written per-site loop over the
// same data (bench/hand_written_dslash.hpp); the two must agree. The
// checkerboarded hopping term (odd to even sites, even-odd preconditioning)
// is timed on the same models per site of the half lattice. A second
// yardstick reads and writes what Dslash does with no arithmetic
// (bench/dslash_access_pattern.hpp): the ceiling the access pattern sets; a
// third makes the same loads at the site itself (no stencil), which shows
// what the neighbour structure costs beyond the bytes and instructions.
//
// The even-odd Schur operators Mhat, Wilson's and Wilson-clover's, per even
// site (two statements: odd = Moo^-1 H_oe in, out = Mee in - kappa^2 H_eo odd;
// links 18 F, spinors 24 F, a clover site 72 F):
//   Wilson Mhat:   2712 flops; 8 links + in + odd written, then 8 links +
//                  odd + in + out: 408 F;
//   clover Mhat:   3696 flops; the same plus T^-1 on the odd sites and T on
//                  the even ones: 552 F;
//   clover term:   T psi on the whole lattice, per site 504 flops; T + psi
//                  read, the result written: 120 F.

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// The hand-written yardstick is CPU code (SIMD vectors); on the cuda backend
// the device result is checked against the host's per-lane evaluation instead.
#if !defined(LATTE_BACKEND_CUDA)
#include "bench/dslash_access_pattern.hpp"
#include "bench/hand_written_dslash.hpp"
#endif
#include "bench/derived_model.hpp"
#include "bench/halo_traffic.hpp"
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "examples/command_line.hpp"
#include "solvers/qcd/solves/clover_solve.hpp"
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"
#include "solvers/krylov/multi_shift_conjugate_gradient.hpp"
#include "solvers/krylov/spectral_bounds.hpp"
#include "solvers/rational/remez.hpp"

namespace {

using namespace latte;

struct Options {
  std::vector<int> extents{8, 16, 24, 32};
  std::string precision = "both";
  bool dslash = true;
  bool cg = true;
  bool multi_rhs = true;
  bool even_odd = true;
  int solve_extent = 12;
  double solve_tolerance = 1e-8;
  int shift_extent = 12;      // of the multi-shift solve (0: none)
  double shift_mass = -1.0;   // its quark mass (kappa 0.167 on a random field: some 100 iterations)
  bench::SessionOptions session;
};

template <class R>
void run_dslash(const Geometry& geometry, bench::Session& session) {
  GaugeField<R> U(geometry);
  ParallelRng rng(1);
  U.set_random(rng);
  Lattice<Spinor<R>> psi(geometry), chi(geometry), chi_hand(geometry);  // chi_hand: the yardstick's output
  rng.gaussian(psi);
  WilsonDirac<R> M(U, 0.1);
  const double sites = static_cast<double>(geometry.volume());

  const bench::Timing dsl = session.time([&] { M.dslash(chi, psi); });

  bench::Result result;
  result.bench = "wilson_dslash";
  result.precision = bench::precision_name<R>();
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, [&] { M.dslash(chi, psi); }), sites);
  result.extra["nsimd"] = Lattice<Spinor<R>>::nsimd;
  // Halos: each of the 8 hops sends the shifted half spinor (12 reals).
  double halo_model = 0;
  for (int mu = 0; mu < 4; ++mu)
    for (int step : {+1, -1}) halo_model += bench::halo_sites(geometry, unit_displacement(4, mu, step)) * 12 * sizeof(R);
  bench::record_halo_traffic(result, session, geometry, halo_model, dsl, [&] { M.dslash(chi, psi); });
  const double tolerance = 1e-20 * (sizeof(R) == 8 ? 1 : 1e12);
  // The hopping term between checkerboards (odd to even sites), as the
  // even-odd preconditioned operator applies it twice per iteration: the same
  // models per site of the half lattice.
  {
    const WilsonEvenOdd<R> schur(U, 0.1);
    Lattice<Spinor<R>> psi_odd(schur.odd_geometry()), chi_even(schur.geometry()), expected(schur.geometry());
    psi_odd = pick(Parity::odd, psi);
    const bench::Timing half = session.time([&] { chi_even = schur.template hopping_to_even<+1>(psi_odd); });
    expected = pick(Parity::even, chi);
    const double difference = norm2(chi_even - expected), reference = norm2(expected);
    if (!(difference <= tolerance * reference))
      throw std::runtime_error("checkerboarded and whole-lattice Dslash disagree: |a - b|^2 / |a|^2 = " +
                               std::to_string(difference / reference));
    bench::Result half_result = result;
    half_result.bench = "wilson_dslash_even_odd";
    bench::apply_model(
        half_result,
        bench::derived_model(session, [&] { chi_even = schur.template hopping_to_even<+1>(psi_odd); }), sites / 2);
    bench::record_halo_traffic(half_result, session, geometry, halo_model / 2, half,
                               [&] { chi_even = schur.template hopping_to_even<+1>(psi_odd); });
    session.record(half_result, half);
  }
#if defined(LATTE_BACKEND_CUDA)
  // The device result must equal the same statement run per lane on the host.
  Lattice<Spinor<R>> chi_host(geometry);
  assign<backend::Simt>(chi_host, wilson_hopping<+1>(U, psi), AssignSet{});
  const double difference = norm2<backend::Simt>(chi - chi_host), reference = norm2(chi);
  if (!(difference <= tolerance * reference))
    throw std::runtime_error("device and host Dslash disagree: |a - b|^2 / |a|^2 = " +
                             std::to_string(difference / reference));
  session.record(result, dsl);
#else
  // The plain-loop yardsticks know nothing of halos: one rank's lattice only.
  if (geometry.decomposition().any_communication()) {
    session.record(result, dsl);
    return;
  }
  const bench::Timing hand = session.time([&] { bench::hand_written_dslash(chi_hand, U, psi); });
  const double difference = norm2(chi - chi_hand), reference = norm2(chi);
  if (!(difference <= tolerance * reference))
    throw std::runtime_error("DSL and hand-written Dslash disagree: |a - b|^2 / |a|^2 = " +
                             std::to_string(difference / reference));
  result.extra["hand_written_seconds"] = hand.seconds;
  result.extra["dsl_time_over_hand_written"] = dsl.seconds / hand.seconds;
  session.record(result, dsl);
  result.bench = "wilson_dslash_hand_written_yardstick";
  result.backend = "plain-omp";
  result.extra.erase("hand_written_seconds");
  result.extra.erase("dsl_time_over_hand_written");
  bench::forget_halo_traffic(result);
  session.record(result, hand);

  const bench::Timing pattern = session.time([&] { bench::dslash_access_pattern(chi_hand, U, psi); });
  result.bench = "wilson_dslash_access_pattern_yardstick";
  result.extra["dsl_time_over_access_pattern"] = dsl.seconds / pattern.seconds;
  session.record(result, pattern);
  result.extra.erase("dsl_time_over_access_pattern");

  const bench::Timing local = session.time([&] { bench::dslash_access_pattern<false>(chi_hand, U, psi); });
  result.bench = "wilson_dslash_local_access_yardstick";
  result.extra["access_pattern_time_over_local"] = pattern.seconds / local.seconds;
  session.record(result, local);
#endif
}

// The Wilson and clover Schur operators and the clover term's application,
// in the same run (models above), each checked against its definition first.
template <class R>
void run_even_odd_operators(const Geometry& geometry, bench::Session& session) {
  GaugeField<R> U(geometry);
  ParallelRng rng(4);
  U.set_random(rng);
  Lattice<Spinor<R>> psi(geometry), chi(geometry), Mpsi(geometry);
  rng.gaussian(psi);
  constexpr double mass = 0.1, c_sw = 1.0;
  const double sites = static_cast<double>(geometry.volume());
  const double tolerance = sizeof(R) == 8 ? 1e-24 : 1e-10;
  auto line = [&](const char* name, double model_sites, const bench::Timing& timing, auto&& statement) {
    bench::Result result;
    result.bench = name;
    result.precision = bench::precision_name<R>();
    result.lattice = geometry.dims();
    bench::apply_model(result, bench::derived_model(session, statement), model_sites);
    result.extra["nsimd"] = Lattice<Spinor<R>>::nsimd;
    session.record(result, timing);
  };
  const CloverDirac<R> M(U, mass, c_sw);
  {
    const CloverTerm<R>& term = M.clover_term();
    auto apply = [&] { chi = clover_times(term.term(), psi); };
    const bench::Timing timing = session.time(apply);
    // T psi = M psi + 1/2 Dslash psi.
    M.apply(Mpsi, psi);
    Mpsi = Mpsi + 0.5 * wilson_hopping<+1>(U, psi);
    const double difference = norm2(chi - Mpsi), reference = norm2(chi);
    if (!(difference <= tolerance * reference))
      throw std::runtime_error("the clover term disagrees with M + 1/2 Dslash: |a - b|^2 / |a|^2 = " +
                               std::to_string(difference / reference));
    line("clover_term", sites, timing, apply);
  }
  const WilsonEvenOdd<R> wilson(U, mass);
  const CloverEvenOdd<R> clover(M);
  Lattice<Spinor<R>> in(wilson.geometry()), out(wilson.geometry());
  in = pick(Parity::even, psi);
  {
    auto apply = [&] { wilson.apply(out, in); };
    line("wilson_even_odd_schur", sites / 2, session.time(apply), apply);
  }
  {
    auto apply = [&] { clover.apply(out, in); };
    const bench::Timing timing = session.time(apply);
    // Mhat x_e = (M x)_e for x = (x_e, -Moo^-1 Moe x_e), whose odd rows vanish.
    Lattice<Spinor<R>> odd(clover.odd_geometry()), expected(wilson.geometry());
    odd = -1.0 * clover.MooInv(clover.Moe(in));
    Mpsi = merge(in, odd);
    M.apply(chi, Mpsi);
    expected = pick(Parity::even, chi);
    apply();
    const double difference = norm2(out - expected), reference = norm2(expected);
    if (!(difference <= tolerance * reference))
      throw std::runtime_error("the clover Schur operator disagrees with M on (x_e, -Moo^-1 Moe x_e): "
                               "|a - b|^2 / |a|^2 = " + std::to_string(difference / reference));
    line("clover_even_odd_schur", sites / 2, timing, apply);
  }
}

// The Dslash on a batch of N right-hand sides (each link read once per site
// for all N), timed in the same run as the single-field Dslash. Model
// (derived, per site): 1320 N flops; 4 links + N input + N output spinors,
// (72 + 48 N) F. Per right-hand side the time is t_N / N; the line gives
// its ratio to the single-field Dslash, which is the gain per right-hand side.
template <class R, int N>
void run_multi_rhs_dslash(const Geometry& geometry, bench::Session& session, double single_seconds) {
  GaugeField<R> U(geometry);
  ParallelRng rng(1);
  U.set_random(rng);
  Lattice<MultiSpinor<R, N>> psi(geometry), chi(geometry);
  rng.gaussian(psi);
  const WilsonDirac<R> M(U, 0.1);
  const double sites = static_cast<double>(geometry.volume());
  const bench::Timing timing = session.time([&] { M.dslash(chi, psi); });
  bench::Result result;
  result.bench = "wilson_dslash_multi_rhs";
  result.precision = bench::precision_name<R>();
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, [&] { M.dslash(chi, psi); }), sites);
  result.extra["rhs"] = N;
  // One right-hand side's flops over its share of the time: comparable with
  // the single-field line's gflops (and equal to this line's gflops).
  const auto per_rhs = [&](double seconds) {
    result.extra["seconds_per_rhs"] = seconds / N;
    result.extra["gflops_per_rhs"] = result.flops / N / (seconds / N) * 1e-9;
    result.extra["throughput_per_rhs_over_single_rhs"] = single_seconds / (seconds / N);
  };
  per_rhs(timing.seconds);
#if !defined(LATTE_BACKEND_CUDA)
  // Its access pattern with no arithmetic (one rank's lattice only, as for
  // the single field): the ceiling the batch layout and traversal set.
  if (!geometry.decomposition().any_communication()) {
    const bench::Timing pattern = session.time([&] { bench::dslash_access_pattern(chi, U, psi); });
    result.extra["dsl_time_over_access_pattern"] = timing.seconds / pattern.seconds;
    session.record(result, timing);
    result.bench = "wilson_dslash_multi_rhs_access_pattern_yardstick";
    result.backend = "plain-omp";
    result.extra.erase("dsl_time_over_access_pattern");
    per_rhs(pattern.seconds);
    session.record(result, pattern);
    return;
  }
#endif
  session.record(result, timing);
}

template <class R>
void run_multi_rhs_dslashes(const Geometry& geometry, bench::Session& session) {
  GaugeField<R> U(geometry);
  ParallelRng rng(1);
  U.set_random(rng);
  Lattice<Spinor<R>> psi(geometry), chi(geometry);
  rng.gaussian(psi);
  const WilsonDirac<R> M(U, 0.1);
  const double single = session.time([&] { M.dslash(chi, psi); }).seconds;
  run_multi_rhs_dslash<R, 1>(geometry, session, single);
  run_multi_rhs_dslash<R, 4>(geometry, session, single);
  run_multi_rhs_dslash<R, 12>(geometry, session, single);
}

// A 12-column point-source propagator's solve: the 12 right-hand sides
// solved together (one operator application per iteration for all) against
// the same 12 solved one after another, both even-odd preconditioned, to
// the same tolerance on every |b_k - M x_k| / |b_k|. Each is timed twice
// and the faster kept: the first call of either also builds the even-odd
// scratch fields and statement plans, which a run over an ensemble's
// configurations pays once.
template <class R>
void run_multi_rhs_solve(const Geometry& geometry, bench::Session& session, double tolerance) {
  constexpr int N = propagator_columns;
  GaugeField<R> U(geometry);
  ParallelRng rng(3);
  U.set_random(rng);
  const WilsonDirac<R> M(U, 0.1);
  const WilsonEvenOdd<R> schur(U, 0.1);
  Lattice<MultiSpinor<R, N>> b(geometry), x(geometry);
  rng.gaussian(b);
  const SolverControl control{tolerance, 100000, false};
  SolverReport together;
  const bench::Timing batch = session.time([&] {
    x = zero;
    together = solve_wilson_even_odd(schur, M, x, b, control);
  }, 2);
  std::vector<Lattice<Spinor<R>>> columns;
  columns.reserve(N);
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((columns.emplace_back(geometry, Uninitialized{}) = element<static_cast<int>(K)>(b)), ...);
  }(std::make_index_sequence<N>{});
  Lattice<Spinor<R>> x_single(geometry);
  int single_iterations = 0;
  const bench::Timing apart = session.time([&] {
    single_iterations = 0;
    for (const auto& column : columns) {
      x_single = zero;
      single_iterations += solve_wilson_even_odd(schur, M, x_single, column, control).iterations;
    }
  }, 2);
  bench::Result result;
  result.bench = "wilson_solve_12_rhs";
  result.precision = bench::precision_name<R>();
  result.lattice = geometry.dims();
  result.flops = together.flops;  // the solver's own count; no byte model for a whole solve
  result.extra["solver"] = "even-odd CG on Mhat^+ Mhat, 12 right-hand sides together";
  result.extra["tolerance"] = tolerance;
  result.extra["largest_true_residual"] = together.true_residual;
  result.extra["iterations_together"] = together.iterations;
  result.extra["iterations_one_by_one_total"] = single_iterations;
  result.extra["seconds_one_by_one"] = apart.seconds;
  result.extra["speedup_over_one_by_one"] = apart.seconds / batch.seconds;
  session.record(result, batch);
}

// The multi-shift solve of the rational HMC: (Mhat^+ Mhat + sigma_k) x_k = b
// with the shifts the poles of the x^-1/2 approximation on the operator's
// measured spectrum (Lanczos bounds, 2x margin below and 1.1x above, to a
// relative error of 1e-12, as an RHMC action needs), against one-shift CG at the lightest pole to the
// same tolerance. Goals (the RHMC issue): the multi-shift iterations those
// of the lightest shift's own CG (+-2), and its time at most
// (1 + 0.15 n) times that solve's for n shifts. Each timed twice, the faster kept.
template <class R>
void run_multi_shift_solve(const Geometry& geometry, bench::Session& session, double tolerance, double mass) {
  constexpr double rational_tolerance = 1e-12;
  GaugeField<R> U(geometry);
  ParallelRng rng(5);
  U.set_random(rng);
  const WilsonEvenOdd<R> schur(U, mass);
  const NormalOperator<WilsonEvenOdd<R>> A(schur);
  using Field = typename WilsonEvenOdd<R>::Field;
  const Geometry even = geometry.checkerboard(Parity::even);
  // Lanczos converges slowly at the dense lower end of a random field's
  // spectrum: its bound there (smallest - distance) halved is the interval's end.
  const SpectralBounds spectrum = spectral_bounds<Field>(A, even, SpectralBoundsControl{400, 1e-2, 1});
  const RationalApproximation r = remez_approximation_to_tolerance(
      -1, 2, (spectrum.smallest - spectrum.smallest_error) / 2, (spectrum.largest + spectrum.largest_error) * 1.1,
      rational_tolerance);
  Field b(even), x_single(even);
  rng.gaussian(b);
  std::vector<Field> x;
  MultiShiftControl control;
  control.tolerances = {tolerance};
  SolverReport multi;
  const bench::Timing together = session.time([&] { multi = multi_shift_conjugate_gradient(A, r.poles, x, b, control); }, 2);
  const double lightest = *std::min_element(r.poles.begin(), r.poles.end());
  SolverReport single;
  const bench::Timing alone = session.time([&] {
    x_single = zero;
    single = conjugate_gradient(ShiftedOperator<NormalOperator<WilsonEvenOdd<R>>>(A, lightest), x_single, b,
                                SolverControl{tolerance, 100000, false});
  }, 2);
  const int shifts = static_cast<int>(r.poles.size());
  bench::Result result;
  result.bench = "wilson_multi_shift_solve";
  result.precision = bench::precision_name<R>();
  result.lattice = geometry.dims();
  result.flops = multi.flops;  // the solver's own count; no byte model for a whole solve
  result.extra["solver"] = "multi-shift CG on the even-odd Wilson Mhat^+ Mhat, shifts the poles of x^-1/2";
  result.extra["mass"] = mass;
  result.extra["tolerance"] = tolerance;
  result.extra["spectrum"] = std::vector<double>{spectrum.smallest, spectrum.largest};
  result.extra["spectrum_distances"] = std::vector<double>{spectrum.smallest_error, spectrum.largest_error};
  result.extra["interval"] = std::vector<double>{r.lower, r.upper};
  result.extra["lanczos_steps"] = spectrum.steps;
  result.extra["shifts"] = shifts;
  result.extra["rational_error"] = r.error;
  result.extra["iterations_multi_shift"] = multi.iterations;
  result.extra["iterations_lightest_alone"] = single.iterations;
  result.extra["largest_true_residual"] = multi.true_residual;
  result.extra["refinement_iterations"] = multi.refinement_iterations;
  result.extra["seconds_lightest_alone"] = alone.seconds;
  result.extra["time_over_lightest_alone"] = together.seconds / alone.seconds;
  result.extra["goal_time_over_lightest_alone"] = 1 + 0.15 * shifts;
  session.record(result, together);
}

// The time of one CG iteration: the difference between runs stopped after
// 12 and after 2 iterations, so setup and the final residual drop out.
template <class R>
void run_cg_iteration(const Geometry& geometry, bench::Session& session) {
  GaugeField<R> U(geometry);
  ParallelRng rng(2);
  U.set_random(rng);
  WilsonDirac<R> M(U, 0.01);
  Lattice<Spinor<R>> b(geometry), x(geometry);
  rng.gaussian(b);
  const NormalOperator<WilsonDirac<R>> A(M);
  auto run = [&](int iterations) {
    x = zero;
    try {
      conjugate_gradient(A, x, b, SolverControl{1e-30, iterations, false});
    } catch (const SolverError&) {  // stopped by the iteration limit, as intended
    }
  };
  constexpr int few = 2, many = 12;
  const bench::Timing short_run = session.time([&] { run(few); });
  bench::Timing long_run = session.time([&] { run(many); });
  long_run.seconds = (long_run.seconds - short_run.seconds) / (many - few);
  // The model of an iteration: the statements of the long run less the short.
  bench::DerivedModel iteration = bench::derived_model(session, [&] { run(many); });
  const bench::DerivedModel setup = bench::derived_model(session, [&] { run(few); });
  iteration.flops = (iteration.flops - setup.flops) / (many - few);
  iteration.bytes = (iteration.bytes - setup.bytes) / (many - few);

  const double sites = static_cast<double>(geometry.volume());
  bench::Result result;
  result.bench = "cg_iteration";
  result.precision = bench::precision_name<R>();
  result.lattice = geometry.dims();
  bench::apply_model(result, iteration, sites);
  result.extra["operator"] = "M^+ M, Wilson";
  result.extra["process_grid"] = geometry.process_grid();
  session.record(result, long_run);
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: --process-grid, and every rank measures
  Options opt;
  programs::CommandLine cli{"Latte benchmark: Wilson Dslash, CG iteration, even-odd Schur operators (Wilson, clover), judged against STREAM triad"};
  cli.option("-L,--extents", opt.extents,
             "lattice extents L (each lattice is L^4; with --scaling weak, each rank's block)")
      .show_default();
  cli.option("-p,--precision", opt.precision, "double, single or both")
      .one_of({"double", "single", "both"})
      .show_default();
  cli.flag("!--no-dslash", opt.dslash, "skip the Dslash lines (and their yardsticks) of each extent");
  cli.flag("!--no-cg", opt.cg, "skip the CG iteration benchmark");
  cli.flag("!--no-multi-rhs", opt.multi_rhs, "skip the multi-right-hand-side Dslash (N = 1, 4, 12) and solve");
  cli.flag("!--no-even-odd", opt.even_odd,
           "skip the even-odd Schur operators (Wilson, clover) and the clover term's application");
  cli.option("--solve-extent", opt.solve_extent, "L of the L^4 lattice of the 12-right-hand-side solve (0: none)")
      .non_negative()
      .show_default();
  cli.option("--solve-tolerance", opt.solve_tolerance, "tolerance of that solve").positive().show_default();
  cli.option("--shift-extent", opt.shift_extent,
             "L of the L^4 lattice of the multi-shift solve (RHMC's x^-1/2 poles; 0: none)")
      .non_negative()
      .show_default();
  cli.option("--shift-mass", opt.shift_mass, "quark mass of the multi-shift solve").show_default();
  bench::add_session_options(cli, opt.session);
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    bench::Session session(opt.session);
    for (int L : opt.extents) {
      const Geometry geometry = bench::scaled_geometry({L, L, L, L}, opt.session.scaling);
      if (opt.dslash && opt.precision != "single") run_dslash<double>(geometry, session);
      if (opt.dslash && opt.precision != "double") run_dslash<float>(geometry, session);
      if (opt.cg && opt.precision != "single") run_cg_iteration<double>(geometry, session);
      if (opt.cg && opt.precision != "double") run_cg_iteration<float>(geometry, session);
      if (opt.even_odd && opt.precision != "single") run_even_odd_operators<double>(geometry, session);
      if (opt.even_odd && opt.precision != "double") run_even_odd_operators<float>(geometry, session);
      if (opt.multi_rhs && opt.precision != "single") run_multi_rhs_dslashes<double>(geometry, session);
      if (opt.multi_rhs && opt.precision != "double") run_multi_rhs_dslashes<float>(geometry, session);
    }
    if (opt.multi_rhs && opt.solve_extent > 0) {
      const int L = opt.solve_extent;
      const Geometry geometry = bench::scaled_geometry({L, L, L, L}, opt.session.scaling);
      run_multi_rhs_solve<double>(geometry, session, opt.solve_tolerance);
    }
    if (opt.shift_extent > 0) {
      const int L = opt.shift_extent;
      const Geometry geometry = bench::scaled_geometry({L, L, L, L}, opt.session.scaling);
      run_multi_shift_solve<double>(geometry, session, opt.solve_tolerance, opt.shift_mass);
    }
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_wilson: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
