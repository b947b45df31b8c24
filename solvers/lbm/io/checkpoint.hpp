#pragma once
// Checkpoint/restart of a simulation's populations and, when it has one,
// its per-site force field, so a killed run resumes exactly where it
// stopped (bit for bit: the populations are the whole state of the
// two-lattice scheme besides the time step, and a force field that coupled
// physics changes between steps is state too), on the same or on a
// different number of ranks.
//
// File layout, versions 2 and 3 (little-endian host order):
//   "LATTELBM" | u32 version | char[8] velocity set | u32 sizeof(real) |
//   u32 d | i32 extents[d] | (version 3 only: u32 force components = d) |
//   i64 time step | records, site-major in global lexicographic order
//   (x fastest) | u64 checksum.
// A site's record is its Q populations, then in version 3 its d force
// components (Simulation::set_force), all reals of the simulation's
// precision. A simulation with a force field writes version 3; one without
// writes version 2, the same bytes as before version 3 existed, so that
// older readers still restart runs that never had a field. Extending the
// site's record (rather than appending a second array) keeps one record
// per site: the block I/O and the hash below are the same for both.
// The checksum is FNV-1a of the header plus, modulo 2^64, the sum over
// sites of FNV-1a of (the site's u64 global index, its record): a sum, so
// each rank hashes its own block and the file is the same bytes for any
// number of ranks, and a site's index in its hash catches records that
// changed places. Version 1 (FNV-1a of all bytes in order, a sequential
// hash, no force) is still read on one rank.
//
// Every rank writes and reads its own block (collective MPI-IO; stdio on
// one rank). Files are written to path.tmp and renamed, so a kill during
// the write leaves the previous checkpoint intact. Reading checks every
// header field and the checksum before it changes the populations or the
// force field: a truncated or corrupted file is an error on every rank,
// never a silent restart from wrong data.
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
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lattice/layout/block_slices.hpp"
#include "lattice/layout/site_walk.hpp"
#include "platform/comms/shared_file.hpp"
#include "solvers/lbm/flow/simulation.hpp"

namespace latte::lbm {

class Fnv1a {
 public:
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) hash_ = (hash_ ^ p[i]) * 1099511628211ull;
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

namespace detail {
inline constexpr char checkpoint_magic[8] = {'L', 'A', 'T', 'T', 'E', 'L', 'B', 'M'};
// Written by simulations without a force field, and with one.
inline constexpr std::uint32_t checkpoint_version = 2;
inline constexpr std::uint32_t checkpoint_version_with_force = 3;

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
  // Appended byte by byte into reserved space (GCC 12 warns falsely about
  // vector<char>::insert of a range here).
  std::vector<char> h;
  h.reserve(64);
  auto put = [&](const void* p, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) h.push_back(static_cast<const char*>(p)[k]);
  };
  put(checkpoint_magic, 8);
  put(&version, 4);
  char name[8] = {};
  std::strncpy(name, VS::name, 7);
  put(name, 8);
  const std::uint32_t real_size = sizeof(typename Sim::real_type), d = VS::d;
  put(&real_size, 4);
  put(&d, 4);
  for (int mu = 0; mu < VS::d; ++mu) {
    const std::int32_t extent = sim.geometry().dims()[mu];
    put(&extent, 4);
  }
  if (version == checkpoint_version_with_force) {
    const std::uint32_t force_components = VS::d;
    put(&force_components, 4);
  }
  put(&time, 8);  // last: the readers take it from the header's end
  return h;
}
// The hash of one site's record: FNV-1a of its global index and its reals.
inline std::uint64_t site_hash(std::uint64_t index, const void* record, std::size_t bytes) {
  Fnv1a hash;
  hash.add(&index, 8);
  hash.add(record, bytes);
  return hash.value();
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

// What rank 0 found at the start and end of the file, handed to all ranks.
struct CheckpointFrame {
  std::uint32_t version = 0;
  std::int64_t time = 0;
  std::uint64_t stored_checksum = 0;
};

// Pass 1 of reading a checkpoint: whether the header's hash plus every
// record's site hash, summed over the ranks, is the checksum the file
// stores. `file` is viewed on this rank's block (records of
// `reals` values after the header); `slice` holds one slice of records.
template <class R>
bool checksum_matches(const Communicator& communicator, SharedFile& file, const BlockSlices& block,
                      std::vector<R>& slice, int reals, std::int64_t record_bytes, const std::vector<char>& header,
                      std::uint64_t stored_checksum) {
  std::uint64_t sites_hash = 0;
  for (int t = 0; t < block.slices(); ++t) {
    file.read_block(slice.data(), block.sites_per_slice());
    for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
      sites_hash += site_hash(static_cast<std::uint64_t>(block.global_index(t, s)),
                              &slice[static_cast<std::size_t>(s) * reals], record_bytes);
  }
  Fnv1a header_hash;
  header_hash.add(header.data(), header.size());
  return header_hash.value() + sum_over_ranks(communicator, sites_hash) == stored_checksum;
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
  const int reals = detail::record_reals<Sim>(version);
  const std::int64_t record_bytes = reals * static_cast<std::int64_t>(sizeof(R));
  const auto header = detail::checkpoint_header(sim, sim.time(), version);
  const Geometry& g = sim.geometry();
  const Communicator& communicator = g.decomposition().communicator();
  const BlockSlices block(sim.populations().layout());
  const auto view = sim.populations().host_view(Access::read);
  // The force field lies on the populations' layout (set_force checks it),
  // so a site's place is the same in both.
  std::optional<typename Sim::VectorField::view_type> force_view;
  if (with_force) force_view.emplace(sim.force_field().host_view(Access::read));
  std::vector<R> slice(static_cast<std::size_t>(block.sites_per_slice()) * reals);
  const std::string tmp = path + ".tmp";
  try {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    std::uint64_t sites_hash = 0;
    for (int t = 0; t < block.slices(); ++t) {
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const auto [outer, lane] = block.place(t, s);
        const auto f = view.load(LaneSite<R>{outer, lane});
        R* record = &slice[static_cast<std::size_t>(s) * reals];
        for (int i = 0; i < Q; ++i) record[i] = f.v[i];
        if (with_force) {
          const auto force = force_view->load(LaneSite<R>{outer, lane});
          for (int mu = 0; mu < D; ++mu) record[Q + mu] = force.v[mu];
        }
        sites_hash += detail::site_hash(static_cast<std::uint64_t>(block.global_index(t, s)), record, record_bytes);
      }
      file.write_block(slice.data(), block.sites_per_slice());
    }
    Fnv1a header_hash;
    header_hash.add(header.data(), header.size());
    const std::uint64_t checksum = header_hash.value() + sum_over_ranks(communicator, sites_hash);
    file.root_write_at(0, header.data(), static_cast<std::int64_t>(header.size()));
    file.root_write_at(static_cast<std::int64_t>(header.size()) + g.volume() * record_bytes, &checksum, 8);
    file.close();
  } catch (const FileAccessError& error) {
    throw std::runtime_error("lbm: cannot write checkpoint " + tmp + ": " + error.what());
  }
  std::string failure;
  if (communicator.rank() == 0 && std::rename(tmp.c_str(), path.c_str()) != 0)
    failure = "lbm: cannot move checkpoint into place at " + path;
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
}

// Restores populations, time step and, from a file of version 3, the force
// field's values; the simulation must have the same velocity set, precision
// and lattice as the one that wrote the file (the number of ranks may
// differ), and for version 3 a force field already (set_force, any values:
// the top of this file says why). A file that is not such a checkpoint is
// a std::runtime_error naming it, whatever its bytes, thrown on every rank
// with the same message (the file is untrusted: nothing in it is used
// before checking), and the populations, force field and clock are then
// unchanged. A force field read from no file (versions 1 and 2) is kept.
template <class Sim>
void read_checkpoint(Sim& sim, const std::string& path) {
  using R = typename Sim::real_type;
  constexpr int Q = Sim::Q, D = Sim::D;
  const Geometry& g = sim.geometry();
  const Communicator& communicator = g.decomposition().communicator();

  // Rank 0 reads the header and the stored checksum and checks the size.
  detail::CheckpointFrame frame;
  std::string failure;
  if (communicator.rank() == 0) {
    std::ifstream in(path, std::ios::binary);
    char opening[12];
    if (!in)
      failure = "lbm: cannot open checkpoint " + path;
    else if (!in.read(opening, 12))
      failure = "lbm: checkpoint " + path + " is truncated (header)";
    else {
      std::memcpy(&frame.version, opening + 8, 4);
      if (std::memcmp(opening, detail::checkpoint_magic, 8) != 0 || frame.version < 1 ||
          frame.version > detail::checkpoint_version_with_force)
        failure = "lbm: " + path + " is not a Latte lattice-Boltzmann checkpoint of version 1, 2 or 3";
      else if (frame.version != 1) {
        std::vector<char> header(detail::checkpoint_header(sim, 0, frame.version).size());
        const std::int64_t expected_bytes = static_cast<std::int64_t>(header.size()) +
                                            g.volume() * detail::record_reals<Sim>(frame.version) *
                                                static_cast<std::int64_t>(sizeof(R)) +
                                            8;
        in.seekg(0, std::ios::end);
        const std::int64_t found = static_cast<std::int64_t>(in.tellg());
        in.seekg(0);
        if (!in.read(header.data(), static_cast<std::streamsize>(header.size())))
          failure = "lbm: checkpoint " + path + " is truncated (header)";
        else {
          std::memcpy(&frame.time, header.data() + header.size() - 8, 8);
          if (header != detail::checkpoint_header(sim, frame.time, frame.version))
            failure = "lbm: checkpoint " + path +
                      " was written by a different simulation (velocity set, precision or lattice)";
          else if (frame.time < 0 || frame.time > std::numeric_limits<long>::max())
            // The time step is the one header field not compared with the
            // simulation: a count, so never negative, and it must fit the clock.
            failure = "lbm: checkpoint " + path + " holds time step " + std::to_string(frame.time) +
                      ", which is not a count of steps (corrupt)";
          else if (found != expected_bytes)
            failure = "lbm: checkpoint " + path + (found < expected_bytes ? " is truncated" : " has trailing data") +
                      " (" + std::to_string(found) + " bytes, expected " + std::to_string(expected_bytes) + ")";
          else {
            in.seekg(expected_bytes - 8);
            if (!in.read(reinterpret_cast<char*>(&frame.stored_checksum), 8))
              failure = "lbm: checkpoint " + path + " is truncated";
          }
        }
      }
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
  communicator.broadcast(&frame, sizeof frame, 0);
  const bool with_force = frame.version == detail::checkpoint_version_with_force;
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

  // Pass 1 checks the checksum, pass 2 fills the populations (and the force).
  const int reals = detail::record_reals<Sim>(frame.version);
  const std::int64_t record_bytes = reals * static_cast<std::int64_t>(sizeof(R));
  const auto header = detail::checkpoint_header(sim, frame.time, frame.version);
  const BlockSlices block(sim.populations().layout());
  std::vector<R> slice(static_cast<std::size_t>(block.sites_per_slice()) * reals);
  try {
    SharedFile file(communicator, path, SharedFile::Mode::read);
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    if (!detail::checksum_matches(communicator, file, block, slice, reals, record_bytes, header, frame.stored_checksum))
      throw std::runtime_error("lbm: checkpoint " + path + " fails its checksum (corrupt)");
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    const auto view = sim.populations().host_view(Access::write);
    // On the populations' layout (set_force checks it): the same places.
    std::optional<typename Sim::VectorField::view_type> force_view;
    if (with_force) force_view.emplace(sim.force_field().host_view(Access::write));
    for (int t = 0; t < block.slices(); ++t) {
      file.read_block(slice.data(), block.sites_per_slice());
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const R* record = &slice[static_cast<std::size_t>(s) * reals];
        Populations<R, Q> f;
        for (int i = 0; i < Q; ++i) f.v[i] = record[i];
        const auto [outer, lane] = block.place(t, s);
        view.store(LaneSite<R>{outer, lane}, f);
        if (with_force) {
          RealVector<R, D> force;
          for (int mu = 0; mu < D; ++mu) force.v[mu] = record[Q + mu];
          force_view->store(LaneSite<R>{outer, lane}, force);
        }
      }
    }
  } catch (const FileAccessError& error) {
    throw std::runtime_error("lbm: cannot read checkpoint " + path + ": " + error.what());
  }
  sim.set_time(static_cast<long>(frame.time));
}

}  // namespace latte::lbm
