#pragma once
// What every reader does before the links: open the file and learn its
// size, read its first bytes, count the sites its extents make without
// overflowing, make every rank agree on the header rank 0 read, and check
// the file's lattice against the field's.
//
// Rank 0 alone reads a header (a file of a million ranks is not opened a
// million times); read_on_rank_zero turns a GaugeFileError there into the
// same error on every rank, and share_from_rank_zero hands what it read to
// the others. A reader is then collective: every rank returns the same
// header or throws the same message.

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <ios>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "lattice/layout/geometry.hpp"
#include "platform/comms/communicator.hpp"
#include "platform/coordinate.hpp"
#include "platform/errors.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"

namespace latte {

// The lattice a header names; every format's header has one.
struct StoredLattice {
  Coordinate extents;  // Latte's order: x, y, z, t

  std::int64_t volume() const { return product(extents); }
};

// `path` opened for reading; "cannot open <format> gauge file '<path>'" when it cannot be.
inline std::ifstream open_gauge_file(const GaugeFileName& name) {
  std::ifstream in(name.path, std::ios::binary);
  if (!in) refuse("cannot open " + name.gauge_file());
  return in;
}

// The size of an opened file; the stream is left at its start.
inline std::int64_t file_size(std::ifstream& in) {
  in.seekg(0, std::ios::end);
  const std::int64_t bytes = static_cast<std::int64_t>(in.tellg());
  in.seekg(0);
  return bytes;
}

// The first `count` bytes of a file of `file_bytes` bytes, zeros past its end.
inline std::vector<unsigned char> first_bytes(std::ifstream& in, std::int64_t file_bytes, std::size_t count) {
  std::vector<unsigned char> bytes(count, 0);
  in.read(reinterpret_cast<char*>(bytes.data()), std::min<std::int64_t>(file_bytes, static_cast<std::int64_t>(count)));
  return bytes;
}

// The sites of a lattice whose extents come one at a time, counted only
// while the count stays within `max_sites`: times() refuses an extent that
// would take it past, before multiplying, so it never overflows.
class SiteCount {
 public:
  explicit SiteCount(std::int64_t max_sites) : max_sites_(max_sites) {}
  bool times(int extent) {
    if (sites_ > max_sites_ / extent) return false;
    sites_ *= extent;
    return true;
  }
  std::int64_t sites() const { return sites_; }

 private:
  std::int64_t max_sites_, sites_ = 1;
};

// The most sites of `bytes_per_site` whose bytes a signed 64-bit count holds.
constexpr std::int64_t max_sites_of(std::int64_t bytes_per_site) {
  return std::numeric_limits<std::int64_t>::max() / bytes_per_site;
}

// Runs `read` on rank 0; a GaugeFileError there is thrown on every rank,
// with its message (collective).
template <class Read>
void read_on_rank_zero(const Communicator& communicator, Read&& read) {
  std::string failure;
  if (communicator.rank() == 0) {
    try {
      read();
    } catch (const GaugeFileError& error) {
      failure = error.what();
    }
  }
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
}

namespace gauge_file_detail {

template <class Value>
void share(const Communicator& communicator, Value& value) {
  static_assert(std::is_trivially_copyable_v<Value>);
  communicator.broadcast(&value, sizeof value, 0);
}

template <class Element>
void share(const Communicator& communicator, std::vector<Element>& values) {
  static_assert(std::is_trivially_copyable_v<Element>);
  std::uint64_t length = values.size();
  communicator.broadcast(&length, sizeof length, 0);
  values.resize(static_cast<std::size_t>(length));
  communicator.broadcast(values.data(), values.size() * sizeof(Element), 0);
}

inline void share(const Communicator& communicator, std::string& text) {
  std::uint64_t length = text.size();
  communicator.broadcast(&length, sizeof length, 0);
  text.resize(static_cast<std::size_t>(length));
  communicator.broadcast(text.data(), text.size(), 0);
}

}  // namespace gauge_file_detail

// Rank 0's values on every rank (collective): numbers, flags, arrays of
// them, strings and coordinates.
template <class... Values>
void share_from_rank_zero(const Communicator& communicator, Values&... values) {
  (gauge_file_detail::share(communicator, values), ...);
}

// The file holds the field's lattice, or a GeometryMismatch naming both
// (`order` says how the extents are listed where that is not evident).
inline void check_lattice(const std::string& file, const Coordinate& extents, const Geometry& geometry,
                          const std::string& order = "") {
  if (geometry.checkerboarded() || extents != geometry.dims())
    throw GeometryMismatch("Latte: " + file + " holds a lattice of extents " + to_string(extents) + order +
                           " but the gauge field has extents " + to_string(geometry.dims()));
}

}  // namespace latte
