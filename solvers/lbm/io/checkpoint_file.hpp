#pragma once
// The one file layout of the lattice-Boltzmann checkpoints, written and read
// here for every format (the flow's, checkpoint.hpp; the temperature's,
// thermal_checkpoint.hpp), so that each format says only its own header
// fields and what a site's record holds.
//
// File layout (little-endian host order):
//   char[8] magic | u32 version | char[8] velocity set | u32 sizeof(real) |
//   u32 d | i32 extents[d] | the format's own fields | i64 time step |
//   records, one per site, site-major in global lexicographic order
//   (x fastest), each the same number of reals of the simulation's
//   precision | u64 checksum.
// The checksum is FNV-1a of the header plus, modulo 2^64, the sum over
// sites of FNV-1a of (the site's u64 global index, its record): a sum, so
// each rank hashes its own block and the file is the same bytes for any
// number of ranks, and a site's index in its hash catches records that
// changed places.
//
// Every rank writes and reads its own block (collective MPI-IO; stdio on
// one rank), one slice at a time (lattice/layout/block_slices.hpp). Files
// are written to path.tmp and renamed, so a kill during the write leaves the
// previous checkpoint intact. Reading checks every header field, the size
// and the checksum before it stores anything: a truncated, corrupted or
// mismatching file is a std::runtime_error naming it and what is wrong,
// thrown on every rank with the same message (the file is untrusted: nothing
// in it is used before checking), never a silent restart from wrong data.
// The messages name the format by its noun ("checkpoint", "thermal
// checkpoint"), so each format's refusals read as they always have.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "lattice/layout/block_slices.hpp"
#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/simd_layout.hpp"
#include "platform/comms/communicator.hpp"
#include "platform/comms/shared_file.hpp"
#include "platform/coordinate.hpp"

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

namespace checkpoint_file {

// The hash of one site's record: FNV-1a of its global index and its reals.
inline std::uint64_t site_hash(std::uint64_t index, const void* record, std::size_t bytes) {
  Fnv1a hash;
  hash.add(&index, 8);
  hash.add(record, bytes);
  return hash.value();
}

// The file's checksum: the header's hash plus every rank's sum of site
// hashes (collective).
inline std::uint64_t checksum(const Communicator& communicator, const std::vector<char>& header,
                              std::uint64_t sites_hash) {
  Fnv1a header_hash;
  header_hash.add(header.data(), header.size());
  return header_hash.value() + sum_over_ranks(communicator, sites_hash);
}

// A format as the messages and the opening check know it.
struct Format {
  const char* magic;           // the file's first 8 bytes
  const char* noun;            // "checkpoint" in "lbm: cannot open checkpoint PATH"
  const char* description;     // what another file is not: "lbm: PATH is not a DESCRIPTION"
  std::uint32_t last_version;  // versions 1 to this one are this format's
  // Older versions are recognised by read_frame and left to the format's
  // own reader (the flow's version 1, whose hash is sequential).
  std::uint32_t first_framed_version = 1;
};

// Appends n bytes to a header. Byte by byte into reserved space: GCC 12
// warns falsely about vector<char>::insert of a range here.
inline void put(std::vector<char>& header, const void* p, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) header.push_back(static_cast<const char*>(p)[k]);
}

// The opening every format's header shares (magic to extents); the format
// puts its own fields after it, then the time step with put_time_step.
// Writing and checking share this one definition.
template <class VS, class R>
std::vector<char> preamble(const Format& format, std::uint32_t version, const Coordinate& extents) {
  std::vector<char> h;
  h.reserve(64);
  put(h, format.magic, 8);
  put(h, &version, 4);
  char name[8] = {};
  std::strncpy(name, VS::name, 7);
  put(h, name, 8);
  const std::uint32_t real_size = sizeof(R), d = VS::d;
  put(h, &real_size, 4);
  put(h, &d, 4);
  for (int mu = 0; mu < VS::d; ++mu) {
    const std::int32_t extent = extents[mu];
    put(h, &extent, 4);
  }
  return h;
}
// Last in every header: the reader takes the time step from the header's end.
inline void put_time_step(std::vector<char>& header, std::int64_t time) { put(header, &time, 8); }

// The header fields of a format that has none besides those compared with
// the reading simulation. A format's Fields are what the reader does not
// compare but restores or checks (the temperature's tau_T): trivially
// copyable, with `static Fields in(header)` taking them from the file's
// header and `fault()`, empty or why they are corrupt ("holds tau_T ...").
struct NoFields {
  static NoFields in(const std::vector<char>&) { return {}; }
  std::string fault() const { return {}; }
};

// What rank 0 found at the start and end of the file, handed to all ranks.
template <class Fields>
struct Frame {
  std::uint32_t version = 0;
  std::int64_t time = 0;
  std::uint64_t stored_checksum = 0;
  Fields fields{};
};

// Writes `header`, the records and the checksum to path.tmp, then renames
// it to path; collective over the layout's ranks. fill(outer, lane, record)
// puts the `reals` values of the site at (outer, lane) in record.
template <class R, class Fill>
void write_records(const SiteLayout& layout, const std::string& path, const Format& format,
                   const std::vector<char>& header, int reals, Fill&& fill) {
  const std::string noun = format.noun;
  const std::int64_t record_bytes = reals * static_cast<std::int64_t>(sizeof(R));
  const Communicator& communicator = layout.decomposition().communicator();
  const BlockSlices block(layout);
  std::vector<R> slice(static_cast<std::size_t>(block.sites_per_slice()) * reals);
  const std::string tmp = path + ".tmp";
  try {
    SharedFile file(communicator, tmp, SharedFile::Mode::write);
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    std::uint64_t sites_hash = 0;
    for (int t = 0; t < block.slices(); ++t) {
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const auto [outer, lane] = block.place(t, s);
        R* record = &slice[static_cast<std::size_t>(s) * reals];
        fill(outer, lane, record);
        sites_hash += site_hash(static_cast<std::uint64_t>(block.global_index(t, s)), record, record_bytes);
      }
      file.write_block(slice.data(), block.sites_per_slice());
    }
    const std::uint64_t sum = checksum(communicator, header, sites_hash);
    file.root_write_at(0, header.data(), static_cast<std::int64_t>(header.size()));
    file.root_write_at(static_cast<std::int64_t>(header.size()) + product(layout.global_dims()) * record_bytes, &sum,
                       8);
    file.close();
  } catch (const FileAccessError& error) {
    throw std::runtime_error("lbm: cannot write " + noun + " " + tmp + ": " + error.what());
  }
  std::string failure;
  if (communicator.rank() == 0 && std::rename(tmp.c_str(), path.c_str()) != 0)
    failure = "lbm: cannot move " + noun + " into place at " + path;
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
}

// Rank 0's checks of a framed version (header, own fields, time step, size)
// and its stored checksum, from `in` after the 12-byte opening: the failure,
// or empty.
template <class R, class Fields, class HeaderOf, class RealsOf>
std::string read_frame_on_root(std::ifstream& in, const std::string& path, const std::string& noun, std::int64_t volume,
                               HeaderOf& header_of, RealsOf& record_reals, Frame<Fields>& frame) {
  std::vector<char> header(header_of(frame.version, Fields{}, 0).size());
  const std::int64_t expected_bytes = static_cast<std::int64_t>(header.size()) +
                                      volume * record_reals(frame.version) * static_cast<std::int64_t>(sizeof(R)) + 8;
  in.seekg(0, std::ios::end);
  const std::int64_t found = static_cast<std::int64_t>(in.tellg());
  in.seekg(0);
  const std::string file = "lbm: " + noun + " " + path;
  if (!in.read(header.data(), static_cast<std::streamsize>(header.size()))) return file + " is truncated (header)";
  std::memcpy(&frame.time, header.data() + header.size() - 8, 8);
  frame.fields = Fields::in(header);
  if (header != header_of(frame.version, frame.fields, frame.time))
    return file + " was written by a different simulation (velocity set, precision or lattice)";
  if (const std::string fault = frame.fields.fault(); !fault.empty()) return file + " " + fault;
  // The time step is the one shared header field not compared with the
  // simulation: a count, so never negative, and it must fit the clock.
  if (frame.time < 0 || frame.time > std::numeric_limits<long>::max())
    return file + " holds time step " + std::to_string(frame.time) + ", which is not a count of steps (corrupt)";
  if (found != expected_bytes)
    return file + (found < expected_bytes ? " is truncated" : " has trailing data") + " (" + std::to_string(found) +
           " bytes, expected " + std::to_string(expected_bytes) + ")";
  in.seekg(expected_bytes - 8);
  if (!in.read(reinterpret_cast<char*>(&frame.stored_checksum), 8)) return file + " is truncated";
  return {};
}

// Rank 0 reads the file's opening, header and stored checksum, checks them
// and the size, and hands the frame to every rank; a failure is thrown on
// every rank. header_of(version, fields, time) is the header the reading
// simulation writes with the file's own fields and time step (its size for
// any), record_reals(version) the reals of a site's record. A version below
// format.first_framed_version comes back after the opening alone. It takes
// the lattice's decomposition, not a field's layout: asking a simulation for
// its populations may reorder them (in-place streaming), which a refused
// file need not cost.
template <class R, class Fields = NoFields, class HeaderOf, class RealsOf>
Frame<Fields> read_frame(const Decomposition& lattice, const std::string& path, const Format& format,
                         HeaderOf&& header_of, RealsOf&& record_reals) {
  static_assert(std::is_trivially_copyable_v<Frame<Fields>>, "the frame is broadcast as bytes");
  const std::string noun = format.noun;
  const Communicator& communicator = lattice.communicator();
  Frame<Fields> frame;
  std::string failure;
  if (communicator.rank() == 0) {
    std::ifstream in(path, std::ios::binary);
    char opening[12];
    if (!in)
      failure = "lbm: cannot open " + noun + " " + path;
    else if (!in.read(opening, 12))
      failure = "lbm: " + noun + " " + path + " is truncated (header)";
    else {
      std::memcpy(&frame.version, opening + 8, 4);
      if (std::memcmp(opening, format.magic, 8) != 0 || frame.version < 1 || frame.version > format.last_version)
        failure = "lbm: " + path + " is not a " + format.description;
      else if (frame.version >= format.first_framed_version)
        failure = read_frame_on_root<R>(in, path, noun, product(lattice.global_dims()), header_of, record_reals, frame);
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw std::runtime_error(failure);
  communicator.broadcast(&frame, sizeof frame, 0);
  return frame;
}

// Pass 1 of reading the records: whether the header's hash plus every
// record's site hash, summed over the ranks, is the checksum the file
// stores. `file` is viewed on this rank's block; `slice` holds one slice.
template <class R>
bool checksum_matches(const Communicator& communicator, SharedFile& file, const BlockSlices& block,
                      std::vector<R>& slice, int reals, const std::vector<char>& header,
                      std::uint64_t stored_checksum) {
  const std::int64_t record_bytes = reals * static_cast<std::int64_t>(sizeof(R));
  std::uint64_t sites_hash = 0;
  for (int t = 0; t < block.slices(); ++t) {
    file.read_block(slice.data(), block.sites_per_slice());
    for (std::int64_t s = 0; s < block.sites_per_slice(); ++s)
      sites_hash += site_hash(static_cast<std::uint64_t>(block.global_index(t, s)),
                              &slice[static_cast<std::size_t>(s) * reals], record_bytes);
  }
  return checksum(communicator, header, sites_hash) == stored_checksum;
}

// Reads the records of a file whose frame read_frame checked (`header` is
// the one it holds), in two passes: the checksum, then, only if it holds,
// store(outer, lane, record) for every site of this rank's block, where
// store = open_store(). The store is opened after the check because a view
// taken for writing may drop a field's other copy (a device's): a corrupt
// file then leaves the field as it was. Collective.
template <class R, class OpenStore>
void read_records(const SiteLayout& layout, const std::string& path, const Format& format,
                  const std::vector<char>& header, int reals, std::uint64_t stored_checksum, OpenStore&& open_store) {
  const std::string noun = format.noun;
  const std::int64_t record_bytes = reals * static_cast<std::int64_t>(sizeof(R));
  const Communicator& communicator = layout.decomposition().communicator();
  const BlockSlices block(layout);
  std::vector<R> slice(static_cast<std::size_t>(block.sites_per_slice()) * reals);
  try {
    SharedFile file(communicator, path, SharedFile::Mode::read);
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    if (!checksum_matches(communicator, file, block, slice, reals, header, stored_checksum))
      throw std::runtime_error("lbm: " + noun + " " + path + " fails its checksum (corrupt)");
    block.view(file, static_cast<std::int64_t>(header.size()), record_bytes);
    auto store = open_store();
    for (int t = 0; t < block.slices(); ++t) {
      file.read_block(slice.data(), block.sites_per_slice());
      for (std::int64_t s = 0; s < block.sites_per_slice(); ++s) {
        const auto [outer, lane] = block.place(t, s);
        store(outer, lane, &slice[static_cast<std::size_t>(s) * reals]);
      }
    }
  } catch (const FileAccessError& error) {
    throw std::runtime_error("lbm: cannot read " + noun + " " + path + ": " + error.what());
  }
}

}  // namespace checkpoint_file
}  // namespace latte::lbm
