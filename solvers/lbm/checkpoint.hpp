#pragma once
// Checkpoint/restart of a simulation's populations, so a killed run resumes
// exactly where it stopped (bit for bit: the populations are the whole state
// of the two-lattice scheme besides the time step).
//
// File layout (little-endian host order):
//   "LATTELBM" | u32 version | char[8] velocity set | u32 sizeof(real) |
//   u32 d | i32 extents[d] | i64 time step | reals, site-major in global
//   lexicographic order (x fastest), Q per site | u64 FNV-1a checksum of
//   everything before it.
// Files are written to path.tmp and renamed, so a kill during the write
// leaves the previous checkpoint intact. Reading checks every header field
// and the checksum: a truncated or corrupted file is an error, never a
// silent restart from wrong data.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "lattice/site_walk.hpp"
#include "solvers/lbm/simulation.hpp"

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
inline constexpr std::uint32_t checkpoint_version = 1;

// The header as bytes, so writing and checking share one definition.
template <class Sim>
std::vector<char> checkpoint_header(const Sim& sim, std::int64_t time) {
  using VS = typename Sim::velocity_set;
  // Appended byte by byte into reserved space (GCC 12 warns falsely about
  // vector<char>::insert of a range here).
  std::vector<char> h;
  h.reserve(64);
  auto put = [&](const void* p, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) h.push_back(static_cast<const char*>(p)[k]);
  };
  put(checkpoint_magic, 8);
  put(&checkpoint_version, 4);
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
  put(&time, 8);
  return h;
}
}  // namespace detail

template <class Sim>
void write_checkpoint(const Sim& sim, const std::string& path) {
  using R = typename Sim::real_type;
  constexpr int Q = Sim::Q;
  require_whole_lattice_on_this_rank(sim.geometry(), "write_checkpoint " + path);
  const auto header = detail::checkpoint_header(sim, sim.time());
  std::vector<R> data(static_cast<std::size_t>(sim.geometry().volume()) * Q);
  const auto view = sim.populations().host_view(Access::read);
  const Geometry& g = sim.geometry();
  for_each_site(sim.populations().layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    const auto f = view.load(LaneSite<R>{o, l});
    R* dst = &data[static_cast<std::size_t>(g.global_index(x)) * Q];
    for (int i = 0; i < Q; ++i) dst[i] = f.v[i];
  });
  Fnv1a hash;
  hash.add(header.data(), header.size());
  hash.add(data.data(), data.size() * sizeof(R));
  const std::uint64_t checksum = hash.value();
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(R)));
    out.write(reinterpret_cast<const char*>(&checksum), 8);
    if (!out) throw std::runtime_error("lbm: cannot write checkpoint " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("lbm: cannot move checkpoint into place at " + path);
}

// Restores populations and time step; the simulation must have the same
// velocity set, precision and lattice as the one that wrote the file. A file
// that is not such a checkpoint is a std::runtime_error naming it, whatever
// its bytes (the file is untrusted: nothing in it is used before checking).
template <class Sim>
void read_checkpoint(Sim& sim, const std::string& path) {
  using R = typename Sim::real_type;
  constexpr int Q = Sim::Q;
  require_whole_lattice_on_this_rank(sim.geometry(), "read_checkpoint " + path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("lbm: cannot open checkpoint " + path);
  std::vector<char> header(detail::checkpoint_header(sim, 0).size());
  if (!in.read(header.data(), static_cast<std::streamsize>(header.size())))
    throw std::runtime_error("lbm: checkpoint " + path + " is truncated (header)");
  std::int64_t time = 0;
  std::memcpy(&time, header.data() + header.size() - 8, 8);
  if (header != detail::checkpoint_header(sim, time))
    throw std::runtime_error("lbm: checkpoint " + path +
                             " was written by a different simulation (velocity set, precision or lattice)");
  // The time step is the one header field not compared with the simulation:
  // a count, so never negative, and it must fit the simulation's clock.
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

}  // namespace latte::lbm
