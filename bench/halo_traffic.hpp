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
#include <string>

#include "bench/json_line.hpp"
#include "bench/session.hpp"
#include "dsl/statements/statement_plan.hpp"
#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/geometry.hpp"

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

// Adds to the result what the kernel's calls send and how long the
// communication takes, for the scaling figures:
//   process_grid, halo_bytes_per_call, halo_messages_per_call (summed over
//     ranks) and halo_bytes_per_call_model;
//   communication_seconds_per_call: the halo work of the issuing thread
//     (pack, post, wait, unpack), and communication_wait_seconds_per_call,
//     its part waiting for messages, averaged over ranks and a few calls;
//   no_overlap_seconds: the best call with every exchange done before any
//     site is computed (LATTE_OVERLAP=0), and its communication seconds;
//   overlap_efficiency = (no_overlap_seconds - seconds) / communication
//     seconds without overlap: the fraction of the communication time that
//     overlapping hides behind the interior sites (1: all of it, 0: none;
//     noise can take it a little outside [0, 1]); null without messages.
template <class Kernel>
void record_halo_traffic(Result& result, Session& session, const Geometry& geometry, double model_bytes_per_rank,
                         const Timing& overlapped, Kernel&& kernel) {
  constexpr int calls = 5;
  auto per_call = [&](auto&& run) {
    backend::Default::synchronize();
    const CommunicationCounters before = communication_counters();
    for (int i = 0; i < calls; ++i) run();
    backend::Default::synchronize();
    const CommunicationCounters after = communication_counters();
    CommunicationCounters d;
    d.messages = after.messages - before.messages;
    d.bytes = after.bytes - before.bytes;
    d.wait_seconds = (after.wait_seconds - before.wait_seconds) / calls;
    d.exchange_seconds = (after.exchange_seconds - before.exchange_seconds) / calls;
    return d;
  };
  const CommunicationCounters with_overlap = per_call(kernel);
  const int ranks = session.ranks();
  result.extra["process_grid"] = geometry.process_grid();
  result.extra["local_lattice"] = geometry.local_dims();
  result.extra["halo_bytes_per_call"] = session.sum_over_ranks(static_cast<double>(with_overlap.bytes) / calls);
  result.extra["halo_messages_per_call"] = session.sum_over_ranks(static_cast<double>(with_overlap.messages) / calls);
  result.extra["halo_bytes_per_call_model"] = model_bytes_per_rank * ranks;
  result.extra["communication_seconds_per_call"] = session.sum_over_ranks(with_overlap.exchange_seconds) / ranks;
  result.extra["communication_wait_seconds_per_call"] = session.sum_over_ranks(with_overlap.wait_seconds) / ranks;
  if (!geometry.decomposition().any_communication()) {
    result.extra["overlap_efficiency"] = nullptr;
    return;
  }
  const bool was = communication_overlap();
  set_communication_overlap(false);
  const Timing serial = session.time(kernel);
  const CommunicationCounters without_overlap = per_call(kernel);
  set_communication_overlap(was);
  const double serial_communication = session.sum_over_ranks(without_overlap.exchange_seconds) / ranks;
  result.extra["no_overlap_seconds"] = serial.seconds;
  result.extra["no_overlap_communication_seconds_per_call"] = serial_communication;
  if (serial_communication > 0)
    result.extra["overlap_efficiency"] = (serial.seconds - overlapped.seconds) / serial_communication;
  else
    result.extra["overlap_efficiency"] = nullptr;
}

// The benchmarks' lattices in either kind of scaling study:
//   strong: the extents given are the global lattice, shared by the ranks
//           (the default; one rank is the whole lattice);
//   weak:   the extents are each rank's block, and the global lattice is
//           the block times the process grid (--process-grid, or the grid
//           chosen for these extents times the ranks).
inline Geometry scaled_geometry(const Coordinate& extents, const std::string& scaling) {
  if (scaling != "weak") return Geometry(extents);
  const int ranks = world_communicator().size();
  const std::string& given = DecompositionDefaults::instance().process_grid;
  Coordinate grid;
  if (!given.empty()) {
    grid = parse_dotted(given, "the process grid");
  } else {
    Coordinate room(extents);
    for (int& e : room) e *= ranks;  // any factor of the ranks divides it
    grid = default_process_grid(room, ranks);
  }
  if (grid.size() != extents.size())
    throw LayoutError("bench: the process grid " + to_string(grid) + " does not fit the lattice " + to_string(extents));
  Coordinate global(extents);
  for (std::size_t mu = 0; mu < global.size(); ++mu) global[mu] *= grid[mu];
  GeometryOptions options;
  options.process_grid = grid;
  return Geometry(global, options);
}

// Removes what record_halo_traffic added about the kernel's communication
// and its timing, for a line of a plain-loop yardstick that sends nothing.
inline void forget_halo_traffic(Result& result) {
  for (const char* key : {"halo_bytes_per_call", "halo_messages_per_call", "halo_bytes_per_call_model",
                          "communication_seconds_per_call", "communication_wait_seconds_per_call",
                          "overlap_efficiency"})
    result.extra.erase(key);
}

}  // namespace latte::bench
