#pragma once
// How a gauge file is refused: one error type, GaugeFileError, and one
// wording for each kind of refusal, so that every format's messages name the
// same things in the same order -- the file first, then the field or record,
// then the value found and what was expected:
//
//   Latte: ILDG file 'a.lime', record 'ildg-format' (at byte 0): <field> is 'su2gauge', not su3gauge
//   Latte: MILC file 'b.milc' should have 295008 bytes for extents [8 8 8 8] but has 295004 (truncated)
//   Latte: NERSC file 'c.nersc' is corrupt: the checksum of its links is 1f2e but its header says 3d4c
//
// A check of the links against a number the file states (a checksum, an
// average) says what the links give and what the file says; a lattice other
// than the field's is a GeometryMismatch (gauge_file_header.hpp).

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace latte {

// A gauge file that cannot be read: missing, truncated, malformed or failing
// its checksum or header averages.
struct GaugeFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file as the messages name it.
struct GaugeFileName {
  std::string format;  // "NERSC", "ILDG", "MILC", "openQCD"; empty while the format is unknown
  std::string path;

  std::string file() const { return format + " file '" + path + "'"; }
  std::string gauge_file() const { return (format.empty() ? "" : format + " ") + "gauge file '" + path + "'"; }
};

[[noreturn]] inline void refuse(const std::string& what) { throw GaugeFileError("Latte: " + what); }

// "<where>: <field> is <found>, <expected>": a field holding a value the
// format does not allow (`expected` says what it allows: "not F or D").
[[noreturn]] inline void refuse_field(const std::string& where, const std::string& field, const std::string& found,
                                      const std::string& expected) {
  refuse(where + ": " + field + " is " + found + ", " + expected);
}

// "<file> is corrupt: <found> but <stated>": what the links give against
// what the file says of them ("the checksum of its links is 1f2e", "its
// header says 3d4c").
[[noreturn]] inline void refuse_corrupt(const std::string& file, const std::string& found, const std::string& stated) {
  refuse(file + " is corrupt: " + found + " but " + stated);
}

// A file of `found` bytes where its header implies `expected` (`for_what`
// says whence: "for extents [4 4 4 8]").
inline void check_file_size(const std::string& file, std::int64_t expected, const std::string& for_what,
                            std::int64_t found) {
  if (found != expected)
    refuse(file + " should have " + std::to_string(expected) + " bytes " + for_what + " but has " +
           std::to_string(found) + (found < expected ? " (truncated)" : " (trailing data)"));
}

// A file too short for its fixed-size header (`what`: "24-byte header").
inline void check_room_for_header(const std::string& file, std::int64_t file_bytes, std::int64_t header_bytes,
                                  const std::string& what) {
  if (file_bytes < header_bytes)
    refuse(file + " has " + std::to_string(file_bytes) + " bytes, fewer than its " + std::to_string(header_bytes) +
           "-byte " + what);
}

// A 32-bit checksum as the messages print it: lower-case hex, no leading zeros.
inline std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "%x", value);
  return text;
}

}  // namespace latte
