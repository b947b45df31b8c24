#pragma once
// Exceptions Latte throws for bad input. Each message names the offending
// extents, layout or coordinate, so the user can see what and where.

#include <stdexcept>
#include <string>

namespace latte {

// Lattice extents that cannot be laid out over the requested SIMD lanes.
struct LayoutError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Fields defined on different lattices combined in one expression/statement.
struct GeometryMismatch : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A site coordinate outside the lattice (peek, poke, point sources).
struct CoordinateOutOfRange : std::out_of_range {
  using std::out_of_range::out_of_range;
};

// A failure of the communication between ranks (an MPI call that returned
// an error): the message names the call, the ranks and MPI's own text.
struct CommunicationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file that cannot be opened, read or written (the operating system's or
// MPI-IO's reason follows the path). Readers of particular formats turn it
// into their own error type with the same message.
struct FileAccessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace latte
