// z = a * x + y on complex fields, a a complex constant: the simplest
// streaming statement of the DSL. Like STREAM triad it reads two arrays and
// writes one per element, so one fused DSL loop should move data as fast as
// STREAM does. How figures are taken (best of N, STREAM interleaved) is
// described in bench/session.hpp.
//
// Models (per lattice site), derived by the library from the statements'
// expressions (bench/derived_model.hpp):
//   flops: complex multiply 6 + complex add 2 = 8
//   bytes: read x, read y, write z once each = 3 * 2 * sizeof(real)
//          (write-allocate traffic is not counted, as in STREAM)
//
// Reductions (double, fields far beyond the caches), each read once:
//   norm2 of a spinor field     24 reals per site, one term per site
//   innerProduct of complex     2 x 2 reals per site, two terms per site
//   sum of a real field         1 real per site, one term per site: the
//                               hardest case for the reproducible sum
// beside a plain OpenMP sum of the same reals (not reproducible) as yardstick.

#include <cmath>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/derived_model.hpp"
#include "bench/plain_axpy.hpp"
#include "bench/plain_reduction.hpp"
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "dsl/latte.hpp"
#include "examples/command_line.hpp"

namespace {

using namespace latte;

struct Options {
  std::vector<int> lattice{48, 48, 48, 48};
  bool reductions = true;
  std::string precision = "both";
  bool yardstick = true;
  bench::SessionOptions session;
};

// Times the DSL statement and, unless disabled, the plain yardstick loop
// over the same fields.
template <class Real>
void run_axpy(const Options& opt, const Geometry& geometry, bench::Session& session) {
  using Field = Lattice<Complex<Real>>;
  Field x(geometry), y(geometry), z(geometry);
  ParallelRng rng(2024);
  rng.gaussian(x);
  rng.gaussian(y);
  const Complex<Real> a(Real(0.75), Real(-0.5));

  const double sites = static_cast<double>(geometry.volume());
  bench::Result result;
  result.bench = "axpy";
  result.precision = bench::precision_name<Real>();
  result.lattice = geometry.dims();
  bench::apply_model(result, bench::derived_model(session, [&] { z = a * x + y; }), sites);
  result.extra["field_megabytes"] = static_cast<double>(x.bytes()) * 1e-6;
  result.extra["nsimd"] = Field::nsimd;
  session.record(result, session.time([&] { z = a * x + y; }));

  // The plain loop runs on the host: no yardstick for a device backend.
  if (!opt.yardstick || backend::Default::memory_side == MemorySide::device) return;
  Field w(geometry);
  const auto outer = x.outer_volume();
  const bench::Timing plain = session.time(
      [&] { bench::plain_complex_axpy<Field::nsimd>(a.re, a.im, x.host_view().data, y.host_view().data, w.host_view(Access::write).data, outer); });
  // The yardstick must compute what the DSL computed (up to FMA contraction).
  const double difference = norm2(w - z), reference = norm2(z);
  if (!(difference <= 1e-10 * reference))
    throw std::runtime_error("DSL and plain loop disagree, |w - z|^2 / |z|^2 = " +
                             std::to_string(difference / reference));
  result.bench = "axpy_plain_loop_yardstick";
  result.backend = "plain-omp";
  session.record(result, plain);
}

// One reduction line and, on the host backends, its plain-sum yardstick.
template <class Field, class Reduce, class Plain>
void time_reduction(const char* name, const Field& field, bench::Session& session, Reduce&& reduce, Plain&& plain) {
  const double sites = static_cast<double>(field.geometry().volume());
  bench::Result result;
  result.bench = name;
  result.precision = "double";
  result.lattice = field.geometry().dims();
  bench::apply_model(result, bench::derived_model(session, [&] { (void)reduce(); }), sites);
  result.extra["field_megabytes"] = static_cast<double>(field.bytes()) * 1e-6;
  result.extra["reproducible"] = true;
  double value = 0;
  const bench::Timing timing = session.time([&] { value = reduce(); });
  if (backend::Default::memory_side == MemorySide::host && field.geometry().decomposition().ranks() == 1) {
    double plain_value = 0;
    const bench::Timing yardstick = session.time([&] { plain_value = plain(); });
    if (!(std::abs(plain_value - value) <= 1e-9 * std::abs(value) + 1e-300))
      throw std::runtime_error(std::string(name) + ": Latte and the plain loop disagree");
    result.extra["time_over_plain_sum"] = timing.seconds / yardstick.seconds;
    bench::Result plain_result = result;
    plain_result.bench = std::string(name) + "_plain_sum_yardstick";
    plain_result.backend = "plain-omp";
    plain_result.extra["reproducible"] = false;
    plain_result.extra.erase("time_over_plain_sum");
    session.record(result, timing);
    session.record(plain_result, yardstick);
    return;
  }
  session.record(result, timing);
}

void run_reductions(bench::Session& session) {
  {
    const Geometry geometry({32, 32, 32, 32});
    Lattice<Spinor<double>> psi(geometry);
    ParallelRng(7).gaussian(psi);
    const std::size_t reals = static_cast<std::size_t>(psi.outer_volume()) * words_v<Spinor<double>> * psi.layout().nsimd();
    time_reduction("norm2_spinor", psi, session, [&] { return norm2(psi); },
                   [&] { return bench::plain_norm2(psi.host_view().data, reals); });
  }
  {
    const Geometry geometry({48, 48, 48, 48});
    Lattice<ComplexD> a(geometry), b(geometry);
    ParallelRng(8).gaussian(a);
    ParallelRng(9).gaussian(b);
    const std::size_t reals = static_cast<std::size_t>(a.outer_volume()) * 2 * a.layout().nsimd();
    time_reduction("inner_product_complex", a, session, [&] { return innerProduct(a, b).re; }, [&] {
      const double* x = a.host_view().data;
      const double* y = b.host_view().data;
      double total = 0;
      const std::size_t n = static_cast<std::size_t>(a.layout().nsimd());
#pragma omp parallel for schedule(static) reduction(+ : total)
      for (std::size_t i = 0; i < reals / (2 * n); ++i)
        for (std::size_t l = 0; l < n; ++l)
          total += x[2 * n * i + l] * y[2 * n * i + l] + x[2 * n * i + n + l] * y[2 * n * i + n + l];
      return total;
    });
  }
  {
    const Geometry geometry({64, 64, 64, 64});
    Lattice<double> r(geometry);
    ParallelRng(10).uniform(r, -1, 1);
    const std::size_t reals = static_cast<std::size_t>(r.outer_volume()) * r.layout().nsimd();
    time_reduction("sum_real", r, session, [&] { return sum(r); },
                   [&] { return bench::plain_sum(r.host_view().data, reals); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: --process-grid, and every rank measures
  Options opt;
  programs::CommandLine cli{"Latte benchmark: z = a * x + y on complex fields, judged against STREAM triad"};
  cli.option("-L,--lattice", opt.lattice, "global lattice extents").show_default();
  cli.option("-p,--precision", opt.precision, "double, single or both")
      .one_of({"double", "single", "both"})
      .show_default();
  cli.flag("!--no-yardstick", opt.yardstick, "skip the plain-loop comparison");
  cli.flag("!--no-reductions", opt.reductions, "skip the reductions (norm2, innerProduct, sum)");
  bench::add_session_options(cli, opt.session);
  if (auto status = cli.parse(argc, argv)) return *status;

  try {
    const Geometry geometry(opt.lattice);
    bench::Session session(opt.session);
    if (opt.precision != "single") run_axpy<double>(opt, geometry, session);
    if (opt.precision != "double") run_axpy<float>(opt, geometry, session);
    if (opt.reductions) run_reductions(session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_axpy: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
