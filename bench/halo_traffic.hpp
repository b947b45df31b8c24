#pragma once
// What a decomposed statement sends, measured and by model, for the JSON
// lines of benchmarks run under mpirun.
//
// Model: a shift by d of a value of B bytes sends, from every rank, the
// values at the sites whose neighbour x + d lies in another rank's block:
// (local volume - prod_mu (L_mu - |d_mu|)) x B, the product over the
// dimensions the process grid splits (L the local extents, |d_mu| <= L_mu).
// Wilson Dslash: 8 shifts of half spinors (12 reals); lattice Boltzmann:
// one shift per moving population, of one real.

#include <cstdint>
#include <cstdlib>

#include "bench/json_line.hpp"
#include "bench/session.hpp"
#include "dsl/statement_plan.hpp"
#include "lattice/geometry.hpp"

namespace latte::bench {

inline double halo_sites(const Geometry& geometry, const Coordinate& d) {
  const Decomposition& decomposition = geometry.decomposition();
  double volume = 1, inside = 1;
  for (int mu = 0; mu < geometry.dimensions(); ++mu) {
    const int local = decomposition.local_dims()[mu];
    const int step = std::abs(d[mu]) < local ? std::abs(d[mu]) : local;
    volume *= local;
    inside *= decomposition.process_grid()[mu] > 1 ? local - step : local;
  }
  return volume - inside;
}

// Runs `kernel` once and adds to the result the ranks' process grid and
// what the call sent: bytes and messages summed over ranks, and the model's
// bytes (model_bytes_per_rank, from halo_sites, times the ranks).
template <class Kernel>
void record_halo_traffic(Result& result, Session& session, const Geometry& geometry, double model_bytes_per_rank,
                         Kernel&& kernel) {
  const CommunicationCounters before = communication_counters();
  kernel();
  backend::Default::synchronize();
  const CommunicationCounters after = communication_counters();
  result.extra["process_grid"] = geometry.process_grid();
  result.extra["halo_bytes_per_call"] = session.sum_over_ranks(static_cast<double>(after.bytes - before.bytes));
  result.extra["halo_messages_per_call"] = session.sum_over_ranks(static_cast<double>(after.messages - before.messages));
  result.extra["halo_bytes_per_call_model"] = model_bytes_per_rank * session.ranks();
}

}  // namespace latte::bench
