#pragma once
// Checkpoint/restart of a temperature (ThermalSimulation, solvers/lbm/thermal/thermal.hpp): its
// populations, its relaxation time tau_T and its clock, so that a coupled
// run resumes bit for bit with the flow's own checkpoint (checkpoint.hpp)
// beside it. The conventions are the flow's: each rank writes and reads its
// own block (collective MPI-IO, stdio on one rank), the file is written to
// path.tmp and renamed, and reading checks every header field and the
// checksum before it changes anything, so a truncated, corrupted or
// mismatching file is a std::runtime_error naming the file and what is
// wrong, on every rank, and the simulation is then unchanged.
//
// File layout, version 1 (little-endian host order):
//   "LATTELBT" | u32 version | char[8] velocity set | u32 sizeof(real) |
//   u32 d | i32 extents[d] | f64 tau_T | i64 time step |
//   records of Q populations, site-major in global lexicographic order
//   (x fastest) | u64 checksum
// with the flow's checksum: FNV-1a of the header plus, modulo 2^64, the sum
// over sites of FNV-1a of (the site's u64 global index, its record).
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
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "lattice/layout/block_slices.hpp"
#include "platform/comms/shared_file.hpp"
#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/thermal/thermal.hpp"

namespace latte::lbm {
namespace detail {

inline constexpr char thermal_checkpoint_magic[8] = {'L', 'A', 'T', 'T', 'E', 'L', 'B', 'T'};
inline constexpr std::uint32_t thermal_checkpoint_version = 1;

// The header as bytes, so writing and checking share one definition; tau
// and time are the fields not compared with the reading simulation.
template <class Heat>
std::vector<char> thermal_checkpoint_header(const Heat& heat, double tau, std::int64_t time) {
  using VS = typename Heat::velocity_set;
  std::vector<char> h;
  h.reserve(64);
  auto put = [&](const void* p, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) h.push_back(static_cast<const char*>(p)[k]);
  };
  put(thermal_checkpoint_magic, 8);
  put(&thermal_checkpoint_version, 4);
  char name[8] = {};
  std::strncpy(name, VS::name, 7);
  put(name, 8);
  const std::uint32_t real_size = sizeof(typename Heat::real_type), d = VS::d;
  put(&real_size, 4);
  put(&d, 4);
  for (int mu = 0; mu < VS::d; ++mu) {
    const std::int32_t extent = heat.geometry().dims()[mu];
    put(&extent, 4);
  }
  put(&tau, 8);
  put(&time, 8);  // last: the reader takes tau and time from the header's end
  return h;
}

struct ThermalCheckpointFrame {
  double tau = 0;
  std::int64_t time = 0;
  std::uint64_t stored_checksum = 0;
};

}  // namespace detail

// Writes the temperature's populations, tau_T and time step to `path`;
// collective over the simulation's ranks.
template <class VS, class R, class W>
void write_checkpoint(const ThermalSimulation<VS, R, W>& heat, const std::string& path) {
  constexpr int Q = VS::q;
  const std::int64_t record_bytes = Q * static_cast<std::int64_t>(sizeof(R));
  const auto header = detail::thermal_checkpoint_header(heat, heat.tau(), heat.time());
  const Geometry& g = heat.geometry();
  const Communicator& communicator = g.decomposition().communicator();
  const BlockSlices block(heat.populations().layout());
  const auto view = heat.populations().host_view(Access::read);
  std::vector<R> slice(static_cast<std::size_t>(block.sites_per_slice()) * Q);
  const std::string tmp = path + ".tmp";
  try {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    std::uint64_t sites_hash = 0;
    for (int t = 0; t < block.slices(); ++t) {
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const auto [outer, lane] = block.place(t, s);
        const auto f = view.load(LaneSite<R>{outer, lane});
        R* record = &slice[static_cast<std::size_t>(s) * Q];
        for (int i = 0; i < Q; ++i) record[i] = f.v[i];
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
    throw std::runtime_error("lbm: cannot write thermal checkpoint " + tmp + ": " + error.what());
  }
  std::string failure;
  if (communicator.rank() == 0 && std::rename(tmp.c_str(), path.c_str()) != 0)
    failure = "lbm: cannot move thermal checkpoint into place at " + path;
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
}

// Restores the populations, tau_T and the time step; the simulation must
// have the same velocity set, precision and lattice as the one that wrote
// the file (the number of ranks and the scheme may differ).
template <class VS, class R, class W>
void read_checkpoint(ThermalSimulation<VS, R, W>& heat, const std::string& path) {
  constexpr int Q = VS::q;
  const std::int64_t record_bytes = Q * static_cast<std::int64_t>(sizeof(R));
  const Geometry& g = heat.geometry();
  const Communicator& communicator = g.decomposition().communicator();
  const std::size_t header_bytes = detail::thermal_checkpoint_header(heat, 0.0, 0).size();

  // Rank 0 reads the header and the stored checksum and checks the size.
  detail::ThermalCheckpointFrame frame;
  std::string failure;
  if (communicator.rank() == 0) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> header(header_bytes);
    char opening[12];
    std::uint32_t version = 0;
    if (!in) {
      failure = "lbm: cannot open thermal checkpoint " + path;
    } else if (!in.read(opening, 12)) {
      failure = "lbm: thermal checkpoint " + path + " is truncated (header)";
    } else if (std::memcpy(&version, opening + 8, 4),
               std::memcmp(opening, detail::thermal_checkpoint_magic, 8) != 0 ||
                   version != detail::thermal_checkpoint_version) {
      failure = "lbm: " + path + " is not a Latte thermal lattice-Boltzmann checkpoint of version 1";
    } else if (in.seekg(0), !in.read(header.data(), static_cast<std::streamsize>(header_bytes))) {
      failure = "lbm: thermal checkpoint " + path + " is truncated (header)";
    } else {
      std::memcpy(&frame.tau, header.data() + header_bytes - 16, 8);
      std::memcpy(&frame.time, header.data() + header_bytes - 8, 8);
      const std::int64_t expected_bytes = static_cast<std::int64_t>(header_bytes) + g.volume() * record_bytes + 8;
      in.seekg(0, std::ios::end);
      const std::int64_t found = static_cast<std::int64_t>(in.tellg());
      if (header != detail::thermal_checkpoint_header(heat, frame.tau, frame.time))
        failure = "lbm: thermal checkpoint " + path +
                  " was written by a different simulation (velocity set, precision or lattice)";
      else if (!(frame.tau > 0.5) || !std::isfinite(frame.tau))
        failure = "lbm: thermal checkpoint " + path + " holds tau_T " + std::to_string(frame.tau) +
                  ", which is not a relaxation time above 1/2 (corrupt)";
      else if (frame.time < 0 || frame.time > std::numeric_limits<long>::max())
        failure = "lbm: thermal checkpoint " + path + " holds time step " + std::to_string(frame.time) +
                  ", which is not a count of steps (corrupt)";
      else if (found != expected_bytes)
        failure = "lbm: thermal checkpoint " + path +
                  (found < expected_bytes ? " is truncated" : " has trailing data") + " (" + std::to_string(found) +
                  " bytes, expected " + std::to_string(expected_bytes) + ")";
      else if (in.seekg(expected_bytes - 8), !in.read(reinterpret_cast<char*>(&frame.stored_checksum), 8))
        failure = "lbm: thermal checkpoint " + path + " is truncated";
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
  communicator.broadcast(&frame, sizeof frame, 0);

  // Pass 1 checks the checksum, pass 2 fills the populations.
  const auto header = detail::thermal_checkpoint_header(heat, frame.tau, frame.time);
  const BlockSlices block(heat.populations().layout());
  std::vector<R> slice(static_cast<std::size_t>(block.sites_per_slice()) * Q);
  try {
    SharedFile file(communicator, path, SharedFile::Mode::read);
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    if (!detail::checksum_matches(communicator, file, block, slice, Q, record_bytes, header, frame.stored_checksum))
      throw std::runtime_error("lbm: thermal checkpoint " + path + " fails its checksum (corrupt)");
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    const auto view = heat.populations().host_view(Access::write);
    for (int t = 0; t < block.slices(); ++t) {
      file.read_block(slice.data(), block.sites_per_slice());
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const R* record = &slice[static_cast<std::size_t>(s) * Q];
        Populations<R, Q> f;
        for (int i = 0; i < Q; ++i) f.v[i] = record[i];
        const auto [outer, lane] = block.place(t, s);
        view.store(LaneSite<R>{outer, lane}, f);
      }
    }
  } catch (const FileAccessError& error) {
    throw std::runtime_error("lbm: cannot read thermal checkpoint " + path + ": " + error.what());
  }
  heat.set_tau(frame.tau);
  heat.set_time(static_cast<long>(frame.time));
}

}  // namespace latte::lbm
