// bench_lbm's D3Q19 lines (bench/bench_lbm_sets.hpp).
#include "bench/bench_lbm_sets.hpp"

namespace latte::bench::lbm_bench {

void run_d3q19(const Options& opt, Session& session) { run_velocity_set<D3Q19>(opt, opt.d3q19, session); }

}  // namespace latte::bench::lbm_bench
