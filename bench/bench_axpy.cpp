// z = a * x + y on complex fields, a a complex constant: the simplest
// streaming statement of the DSL. Like STREAM triad it reads two arrays and
// writes one per element, so one fused DSL loop should move data as fast as
// STREAM does. How figures are taken (best of N, STREAM interleaved) is
// described in bench/session.hpp.
//
// Models (per lattice site):
//   flops: complex multiply 6 + complex add 2 = 8
//   bytes: read x, read y, write z once each = 3 * 2 * sizeof(real)
//          (write-allocate traffic is not counted, as in STREAM)

#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/plain_axpy.hpp"
#include "bench/session.hpp"
#include "bench/session_options.hpp"
#include "dsl/latte.hpp"

namespace {

using namespace latte;

struct Options {
  std::vector<int> lattice{48, 48, 48, 48};
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
  result.flops = 8.0 * sites;
  result.bytes = 3.0 * 2.0 * sizeof(Real) * sites;
  result.extra["bytes_per_site_model"] = 3 * 2 * sizeof(Real);
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

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App app{"Latte benchmark: z = a * x + y on complex fields, judged against STREAM triad"};
  app.add_option("-L,--lattice", opt.lattice, "global lattice extents")->capture_default_str();
  app.add_option("-p,--precision", opt.precision, "double, single or both")
      ->check(CLI::IsMember({"double", "single", "both"}))
      ->capture_default_str();
  app.add_flag("!--no-yardstick", opt.yardstick, "skip the plain-loop comparison");
  bench::add_session_options(app, opt.session);
  CLI11_PARSE(app, argc, argv);

  try {
    const Geometry geometry(opt.lattice);
    bench::Session session(opt.session);
    if (opt.precision != "single") run_axpy<double>(opt, geometry, session);
    if (opt.precision != "double") run_axpy<float>(opt, geometry, session);
    session.finish();
  } catch (const std::exception& e) {
    std::cerr << "bench_axpy: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
