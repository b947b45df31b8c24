#pragma once
// Checkpoint/restart of a temperature (ThermalSimulation, solvers/lbm/thermal/thermal.hpp): its
// populations, its relaxation time tau_T and its clock, so that a coupled
// run resumes bit for bit with the flow's own checkpoint (checkpoint.hpp)
// beside it. The file is the lattice-Boltzmann checkpoint layout
// (checkpoint_file.hpp: header, one record per site, checksum; each rank
// its own block, written to path.tmp and renamed, every header field and
// the checksum checked before anything changes), so a truncated, corrupted
// or mismatching file is a std::runtime_error naming the file and what is
// wrong, on every rank, and the simulation is then unchanged.
//
// This format, version 1, magic "LATTELBT":
//   - the header's own field: f64 tau_T, not compared with the reading
//     simulation but restored, so checked alone (a relaxation time above 1/2);
//   - a site's record: its Q populations.
//
// The populations are stored in natural order whichever scheme wrote them
// (populations() brings an in-place field to it), and the reader's next
// step starts from natural order in either scheme: a file written in place
// after an odd or an even number of steps resumes bit for bit in place and
// in a two-lattice simulation alike, so neither the scheme nor the in-place
// parity is state to store. tau_T is: reading restores it. The boundary
// field (and the curved walls' link field) is the caller's input, set again
// on the simulation that reads.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "solvers/lbm/io/checkpoint_file.hpp"
#include "solvers/lbm/thermal/thermal.hpp"

namespace latte::lbm {
namespace detail {

inline constexpr char thermal_checkpoint_magic[8] = {'L', 'A', 'T', 'T', 'E', 'L', 'B', 'T'};
inline constexpr std::uint32_t thermal_checkpoint_version = 1;
inline constexpr checkpoint_file::Format thermal_checkpoint_format{
    thermal_checkpoint_magic, "thermal checkpoint", "Latte thermal lattice-Boltzmann checkpoint of version 1",
    thermal_checkpoint_version};

// The header's own field, just before the time step.
struct ThermalCheckpointFields {
  double tau = 0;

  static ThermalCheckpointFields in(const std::vector<char>& header) {
    ThermalCheckpointFields fields;
    std::memcpy(&fields.tau, header.data() + header.size() - 16, 8);
    return fields;
  }
  std::string fault() const {
    if (tau > 0.5 && std::isfinite(tau)) return {};
    return "holds tau_T " + std::to_string(tau) + ", which is not a relaxation time above 1/2 (corrupt)";
  }
};

// The header as bytes, so writing and checking share one definition; tau
// and time are the fields not compared with the reading simulation.
template <class Heat>
std::vector<char> thermal_checkpoint_header(const Heat& heat, double tau, std::int64_t time) {
  auto h = checkpoint_file::preamble<typename Heat::velocity_set, typename Heat::real_type>(
      thermal_checkpoint_format, thermal_checkpoint_version, heat.geometry().dims());
  checkpoint_file::put(h, &tau, 8);
  checkpoint_file::put_time_step(h, time);
  return h;
}

}  // namespace detail

// Writes the temperature's populations, tau_T and time step to `path`;
// collective over the simulation's ranks.
template <class VS, class R, class W>
void write_checkpoint(const ThermalSimulation<VS, R, W>& heat, const std::string& path) {
  constexpr int Q = VS::q;
  const auto view = heat.populations().host_view(Access::read);
  const auto fill = [&](std::int64_t outer, int lane, R* record) {
    const auto f = view.load(LaneSite<R>{outer, lane});
    for (int i = 0; i < Q; ++i) record[i] = f.v[i];
  };
  checkpoint_file::write_records<R>(heat.populations().layout(), path, detail::thermal_checkpoint_format,
                                    detail::thermal_checkpoint_header(heat, heat.tau(), heat.time()), Q, fill);
}

// Restores the populations, tau_T and the time step; the simulation must
// have the same velocity set, precision and lattice as the one that wrote
// the file (the number of ranks and the scheme may differ).
template <class VS, class R, class W>
void read_checkpoint(ThermalSimulation<VS, R, W>& heat, const std::string& path) {
  using Fields = detail::ThermalCheckpointFields;
  constexpr int Q = VS::q;
  const auto frame = checkpoint_file::read_frame<R, Fields>(
      heat.geometry().decomposition(), path, detail::thermal_checkpoint_format,
      [&](std::uint32_t, const Fields& fields, std::int64_t time) {
        return detail::thermal_checkpoint_header(heat, fields.tau, time);
      },
      [](std::uint32_t) { return Q; });
  // The view is taken once the checksum holds (read_records says why).
  const auto open_store = [&] {
    return [view = heat.populations().host_view(Access::write)](std::int64_t outer, int lane, const R* record) {
      Populations<R, Q> f;
      for (int i = 0; i < Q; ++i) f.v[i] = record[i];
      view.store(LaneSite<R>{outer, lane}, f);
    };
  };
  checkpoint_file::read_records<R>(heat.populations().layout(), path, detail::thermal_checkpoint_format,
                                   detail::thermal_checkpoint_header(heat, frame.fields.tau, frame.time), Q,
                                   frame.stored_checksum, open_store);
  heat.set_tau(frame.fields.tau);
  heat.set_time(static_cast<long>(frame.time));
}

}  // namespace latte::lbm
