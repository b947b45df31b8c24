#pragma once
// A benchmark's flop and byte counts, from the models the library derives
// from each statement's expression (dsl/expr/statement_model.hpp): one untimed
// call of the kernel under a profile::ModelCapture, summed over the ranks.
// Bytes follow the minimal-traffic model (each distinct field read once per
// site, the destination written once); flops count each functor's
// arithmetic (dsl/expr/flop_count.hpp).

#include "bench/json_line.hpp"
#include "bench/session.hpp"
#include "dsl/statements/statement_profile.hpp"

namespace latte::bench {

struct DerivedModel {
  double flops = 0;  // per call, all ranks
  double bytes = 0;
  int statements = 0;
};

template <class Kernel>
DerivedModel derived_model(Session& session, Kernel&& kernel) {
  profile::ModelCapture capture;
  kernel();
  return {session.sum_over_ranks(capture.flops), session.sum_over_ranks(capture.bytes), capture.statements};
}

// Put a model into a result: totals per call and the figures per site.
inline void apply_model(Result& result, const DerivedModel& model, double sites) {
  result.flops = model.flops;
  result.bytes = model.bytes;
  result.extra["flops_per_site"] = model.flops / sites;
  result.extra["bytes_per_site_model"] = model.bytes / sites;
  result.extra["model"] = "derived from the expressions";
}

}  // namespace latte::bench
