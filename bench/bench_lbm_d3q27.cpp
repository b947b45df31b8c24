// bench_lbm's D3Q27 lines (bench/bench_lbm_sets.hpp).
#include "bench/bench_lbm_sets.hpp"

namespace latte::bench::lbm_bench {

void run_d3q27(const Options& opt, Session& session) { run_velocity_set<D3Q27>(opt, opt.d3q27, session); }

}  // namespace latte::bench::lbm_bench
