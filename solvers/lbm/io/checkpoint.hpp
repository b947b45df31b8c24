#pragma once
// Checkpoint/restart of a simulation's populations and, when it has one,
// its per-site force field, so a killed run resumes exactly where it
// stopped (bit for bit: the populations are the whole state of the
// two-lattice scheme besides the time step, and a force field that coupled
// physics changes between steps is state too), on the same or on a
// different number of ranks.
//
// The file is the lattice-Boltzmann checkpoint layout (checkpoint_file.hpp:
// header, one record per site, checksum; written and checked there) with
// magic "LATTELBM". This format's own parts:
//   - the header's own fields: in version 3 only, u32 force components = d;
//   - a site's record: its Q populations, then in version 3 its d force
//     components (Simulation::set_force), all reals of the simulation's
//     precision.
// A simulation with a force field writes version 3; one without writes
// version 2, the same bytes as before version 3 existed, so that older
// readers still restart runs that never had a field. Extending the site's
// record (rather than appending a second array) keeps one record per site:
// the block I/O and the hash are the same for both. Version 1 (no force,
// the checksum FNV-1a of all bytes in order: a sequential hash) is still
// read on one rank.
//
// Reading a force field does not call set_force, which compiles the
// field-forced steps (solvers/lbm/flow/simulation.hpp): a program that only reads
// checkpoints must not pay for them. So the simulation that reads a
// version 3 file must already have a force field (set_force with any field
// on its geometry, zeros will do); the file's values overwrite it bit for
// bit. Without one, the file is refused, naming it and asking for
// set_force. A simulation with a force field that reads a file without one
// (version 1 or 2) keeps its field: such a file says nothing about the
// force, which is then the caller's input as the parameters are.
//
// What else configures a run is not in the file: the parameters (tau, the
// uniform force), the boundary field and curved-wall links are the
// caller's input, given again to the simulation that reads the checkpoint,
// before it steps; it then continues bit for bit
// (tests/test_lbm_io.cpp, tests/test_lbm_body_force.cpp).

#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lattice/layout/site_walk.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/checkpoint_file.hpp"

namespace latte::lbm {
namespace detail {
inline constexpr char checkpoint_magic[8] = {'L', 'A', 'T', 'T', 'E', 'L', 'B', 'M'};
// Written by simulations without a force field, and with one.
inline constexpr std::uint32_t checkpoint_version = 2;
inline constexpr std::uint32_t checkpoint_version_with_force = 3;
inline constexpr checkpoint_file::Format checkpoint_format{checkpoint_magic, "checkpoint",
                                                           "Latte lattice-Boltzmann checkpoint of version 1, 2 or 3",
                                                           checkpoint_version_with_force, checkpoint_version};

template <class Sim>
std::uint32_t checkpoint_version_of(const Sim& sim) {
  return sim.has_force_field() ? checkpoint_version_with_force : checkpoint_version;
}
// The reals of one site's record: Q populations, then D force components
// in version 3.
template <class Sim>
constexpr int record_reals(std::uint32_t version) {
  return Sim::Q + (version == checkpoint_version_with_force ? Sim::D : 0);
}

// The header as bytes, so writing and checking share one definition.
template <class Sim>
std::vector<char> checkpoint_header(const Sim& sim, std::int64_t time, std::uint32_t version) {
  using VS = typename Sim::velocity_set;
  auto h = checkpoint_file::preamble<VS, typename Sim::real_type>(checkpoint_format, version, sim.geometry().dims());
  if (version == checkpoint_version_with_force) {
    const std::uint32_t force_components = VS::d;
    checkpoint_file::put(h, &force_components, 4);
  }
  checkpoint_file::put_time_step(h, time);
  return h;
}

// Version 1: one FNV-1a over the whole file, so read in order by one rank.
template <class Sim>
void read_checkpoint_version_1(Sim& sim, const std::string& path) {
  using R = typename Sim::real_type;
  constexpr int Q = Sim::Q;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("lbm: cannot open checkpoint " + path);
  std::vector<char> header(checkpoint_header(sim, 0, 1).size());
  if (!in.read(header.data(), static_cast<std::streamsize>(header.size())))
    throw std::runtime_error("lbm: checkpoint " + path + " is truncated (header)");
  std::int64_t time = 0;
  std::memcpy(&time, header.data() + header.size() - 8, 8);
  if (header != checkpoint_header(sim, time, 1))
    throw std::runtime_error("lbm: checkpoint " + path +
                             " was written by a different simulation (velocity set, precision or lattice)");
  if (time < 0 || time > std::numeric_limits<long>::max())
    throw std::runtime_error("lbm: checkpoint " + path + " holds time step " + std::to_string(time) +
                             ", which is not a count of steps (corrupt)");
  std::vector<R> data(static_cast<std::size_t>(sim.geometry().volume()) * Q);
  std::uint64_t stored = 0;
  if (!in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(R))) ||
      !in.read(reinterpret_cast<char*>(&stored), 8))
    throw std::runtime_error("lbm: checkpoint " + path + " is truncated");
  if (in.peek() != std::char_traits<char>::eof())
    throw std::runtime_error("lbm: checkpoint " + path + " has trailing data");
  Fnv1a hash;
  hash.add(header.data(), header.size());
  hash.add(data.data(), data.size() * sizeof(R));
  if (hash.value() != stored) throw std::runtime_error("lbm: checkpoint " + path + " fails its checksum (corrupt)");
  const auto view = sim.populations().host_view(Access::write);
  const Geometry& g = sim.geometry();
  for_each_site(sim.populations().layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    Populations<R, Q> f;
    const R* src = &data[static_cast<std::size_t>(g.global_index(x)) * Q];
    for (int i = 0; i < Q; ++i) f.v[i] = src[i];
    view.store(LaneSite<R>{o, l}, f);
  });
  sim.set_time(static_cast<long>(time));
}

}  // namespace detail

// Writes the populations, the force field if the simulation has one
// (version 3, else version 2) and the time step to `path`; collective over
// the simulation's ranks.
template <class Sim>
void write_checkpoint(const Sim& sim, const std::string& path) {
  using R = typename Sim::real_type;
  constexpr int Q = Sim::Q, D = Sim::D;
  const std::uint32_t version = detail::checkpoint_version_of(sim);
  const bool with_force = version == detail::checkpoint_version_with_force;
  const auto view = sim.populations().host_view(Access::read);
  // The force field lies on the populations' layout (set_force checks it),
  // so a site's place is the same in both.
  std::optional<typename Sim::VectorField::view_type> force_view;
  if (with_force) force_view.emplace(sim.force_field().host_view(Access::read));
  const auto fill = [&](std::int64_t outer, int lane, R* record) {
    const auto f = view.load(LaneSite<R>{outer, lane});
    for (int i = 0; i < Q; ++i) record[i] = f.v[i];
    if (force_view) {
      const auto force = force_view->load(LaneSite<R>{outer, lane});
      for (int mu = 0; mu < D; ++mu) record[Q + mu] = force.v[mu];
    }
  };
  checkpoint_file::write_records<R>(sim.populations().layout(), path, detail::checkpoint_format,
                                    detail::checkpoint_header(sim, sim.time(), version),
                                    detail::record_reals<Sim>(version), fill);
}

// Restores populations, time step and, from a file of version 3, the force
// field's values; the simulation must have the same velocity set, precision
// and lattice as the one that wrote the file (the number of ranks may
// differ), and for version 3 a force field already (set_force, any values:
// the top of this file says why). A file that is not such a checkpoint is
// a std::runtime_error naming it, whatever its bytes, thrown on every rank
// with the same message, and the populations, force field and clock are
// then unchanged. A force field read from no file (versions 1 and 2) is
// kept.
template <class Sim>
void read_checkpoint(Sim& sim, const std::string& path) {
  using R = typename Sim::real_type;
  constexpr int Q = Sim::Q, D = Sim::D;
  const Geometry& g = sim.geometry();
  const Communicator& communicator = g.decomposition().communicator();
  const auto frame = checkpoint_file::read_frame<R>(
      g.decomposition(), path, detail::checkpoint_format,
      [&](std::uint32_t version, checkpoint_file::NoFields, std::int64_t time) {
        return detail::checkpoint_header(sim, time, version);
      },
      [](std::uint32_t version) { return detail::record_reals<Sim>(version); });
  const bool with_force = frame.version == detail::checkpoint_version_with_force;
  std::string failure;
  if (with_force && !sim.has_force_field())
    failure = "lbm: checkpoint " + path +
              " holds a force field (Simulation::set_force) and the simulation reading it has none: call set_force "
              "(with any field on its geometry, zeros will do) before read_checkpoint, which then restores the "
              "field's values";
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
  if (frame.version == 1) {
    if (g.decomposition().decomposed())
      throw std::runtime_error("lbm: checkpoint " + path +
                               " is of version 1, whose checksum is read in order by one process: restart from it on "
                               "one rank, and the next checkpoint written is of version 2 or 3, readable on any number");
    return detail::read_checkpoint_version_1(sim, path);
  }

  // The views are taken once the checksum holds (read_records says why);
  // the force field lies on the populations' layout (set_force checks it),
  // so a site's place is the same in both.
  const auto open_store = [&] {
    std::optional<typename Sim::VectorField::view_type> force_view;
    if (with_force) force_view.emplace(sim.force_field().host_view(Access::write));
    const auto view = sim.populations().host_view(Access::write);
    return [view, force_view](std::int64_t outer, int lane, const R* record) {
      Populations<R, Q> f;
      for (int i = 0; i < Q; ++i) f.v[i] = record[i];
      view.store(LaneSite<R>{outer, lane}, f);
      if (force_view) {
        RealVector<R, D> force;
        for (int mu = 0; mu < D; ++mu) force.v[mu] = record[Q + mu];
        force_view->store(LaneSite<R>{outer, lane}, force);
      }
    };
  };
  checkpoint_file::read_records<R>(sim.populations().layout(), path, detail::checkpoint_format,
                                   detail::checkpoint_header(sim, frame.time, frame.version),
                                   detail::record_reals<Sim>(frame.version), frame.stored_checksum, open_store);
  sim.set_time(static_cast<long>(frame.time));
}

}  // namespace latte::lbm
