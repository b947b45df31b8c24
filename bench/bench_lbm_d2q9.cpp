// bench_lbm's D2Q9 lines (bench/bench_lbm_sets.hpp).
#include "bench/bench_lbm_sets.hpp"

namespace latte::bench::lbm_bench {

void run_d2q9(const Options& opt, Session& session) { run_velocity_set<D2Q9>(opt, opt.d2q9, session); }

}  // namespace latte::bench::lbm_bench
