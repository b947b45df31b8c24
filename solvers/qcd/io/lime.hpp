#pragma once
// LIME (Lattice QCD Interchange Message Encapsulation, the container of
// ILDG and SciDAC files): a file is a sequence of records, each
//   144-byte header   bytes  0-3   magic 0x456789ab (big-endian)
//                     bytes  4-5   version, 1 (big-endian)
//                     byte   6     flags: 0x80 message begin (MB), 0x40 message end (ME)
//                     byte   7     reserved, 0
//                     bytes  8-15  payload length in bytes (unsigned 64-bit big-endian)
//                     bytes 16-143 record type, ASCII, NUL-padded (at most 127 characters)
//   payload           the length given, then zeros up to a multiple of 8 bytes.
// Records form messages: the first record of a message has MB, its last ME.
// A reader finds records by type and skips those it does not know.
//
// The reader checks every header (magic, version, a type of printable
// characters ending in NUL, a payload inside the file) and refuses a file
// that is damaged or not LIME with a LimeError naming the file, the record
// (number and byte offset) and the numbers that disagree.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/qcd/io/stored_reals.hpp"

namespace latte {

struct LimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint32_t lime_magic = 0x456789abu;
inline constexpr std::int64_t lime_header_bytes = 144;
inline constexpr std::size_t lime_type_bytes = 128;

struct LimeRecord {
  std::string type;
  std::int64_t header_offset = 0;   // of the record's header in the file
  std::int64_t payload_offset = 0;  // header_offset + 144
  std::int64_t payload_bytes = 0;   // as the header says, without the padding
  bool message_begin = false, message_end = false;
};

inline std::int64_t lime_padded(std::int64_t bytes) { return (bytes + 7) / 8 * 8; }

namespace lime_detail {

inline std::string where(const std::string& path, int number, std::int64_t offset) {
  return "LIME file '" + path + "', record " + std::to_string(number) + " (at byte " + std::to_string(offset) + ")";
}

}  // namespace lime_detail

// The 144 bytes of a record header.
inline std::string lime_record_header(const std::string& type, std::uint64_t payload_bytes, bool message_begin,
                                      bool message_end) {
  if (type.empty() || type.size() >= lime_type_bytes)
    throw std::invalid_argument("Latte: a LIME record type has 1 to 127 characters, not '" + type + "'");
  unsigned char header[lime_header_bytes] = {};
  store_word<std::uint32_t>(header, lime_magic, true);
  store_word<std::uint16_t>(header + 4, 1, true);
  header[6] = static_cast<unsigned char>((message_begin ? 0x80 : 0) | (message_end ? 0x40 : 0));
  store_word<std::uint64_t>(header + 8, payload_bytes, true);
  std::memcpy(header + 16, type.data(), type.size());
  return std::string(reinterpret_cast<const char*>(header), sizeof header);
}

// A whole record: header, payload and padding.
inline std::string lime_record(const std::string& type, const std::string& payload, bool message_begin,
                               bool message_end) {
  std::string record = lime_record_header(type, payload.size(), message_begin, message_end) + payload;
  record.resize(static_cast<std::size_t>(lime_header_bytes + lime_padded(static_cast<std::int64_t>(payload.size()))),
                '\0');
  return record;
}

// A file of many records is legal, but one of more than this many is not a
// gauge configuration (which has about ten) and scanning it would be slow.
inline constexpr int max_lime_records = 100000;

// Every record header of `in` (a file of `file_bytes` bytes, read from its
// start); `path` names it in errors. The last record's padding may be
// missing (some writers omit it), nothing else.
inline std::vector<LimeRecord> read_lime_records(std::istream& in, std::int64_t file_bytes, const std::string& path) {
  using lime_detail::where;
  std::vector<LimeRecord> records;
  std::int64_t offset = 0;
  while (offset < file_bytes) {
    const int number = static_cast<int>(records.size()) + 1;
    if (number > max_lime_records)
      throw LimeError("Latte: LIME file '" + path + "' has more than " + std::to_string(max_lime_records) +
                      " records (not a gauge configuration)");
    if (file_bytes - offset < lime_header_bytes)
      throw LimeError("Latte: " + where(path, number, offset) + " is truncated: " +
                      std::to_string(file_bytes - offset) + " bytes left for a 144-byte record header");
    unsigned char header[lime_header_bytes];
    in.seekg(offset);
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (!in) throw LimeError("Latte: cannot read " + where(path, number, offset));
    const std::uint32_t magic = load_word<std::uint32_t>(header, true);
    if (magic != lime_magic) {
      char text[80];
      std::snprintf(text, sizeof text, " has magic number 0x%08llx, not 0x456789ab",
                    static_cast<unsigned long long>(magic));
      throw LimeError("Latte: " + where(path, number, offset) + text +
                      (number == 1 ? " (not a LIME file)" : " (damaged, or data after the last record)"));
    }
    const std::uint16_t version = load_word<std::uint16_t>(header + 4, true);
    if (version != 1)
      throw LimeError("Latte: " + where(path, number, offset) + " has LIME version " + std::to_string(version) +
                      "; only version 1 exists");
    LimeRecord record;
    record.message_begin = (header[6] & 0x80) != 0;
    record.message_end = (header[6] & 0x40) != 0;
    const char* type = reinterpret_cast<const char*>(header + 16);
    const std::size_t type_length = strnlen(type, lime_type_bytes);
    if (type_length == lime_type_bytes || type_length == 0)
      throw LimeError("Latte: " + where(path, number, offset) + " has " +
                      (type_length == 0 ? "an empty record type" : "a record type without its terminating NUL"));
    for (std::size_t i = 0; i < type_length; ++i)
      if (type[i] < 0x20 || type[i] > 0x7e)
        throw LimeError("Latte: " + where(path, number, offset) + " has a record type with byte " +
                        std::to_string(static_cast<unsigned char>(type[i])) + " at position " + std::to_string(i) +
                        " (not printable ASCII)");
    record.type.assign(type, type_length);
    record.header_offset = offset;
    record.payload_offset = offset + lime_header_bytes;
    const std::uint64_t length = load_word<std::uint64_t>(header + 8, true);
    const std::int64_t room = file_bytes - record.payload_offset;
    if (length > static_cast<std::uint64_t>(room))
      throw LimeError("Latte: " + where(path, number, offset) + " '" + record.type + "' says its payload has " +
                      std::to_string(length) + " bytes but the file has " + std::to_string(room) +
                      " bytes after its header (truncated, or a damaged length)");
    record.payload_bytes = static_cast<std::int64_t>(length);
    const std::int64_t next = record.payload_offset + lime_padded(record.payload_bytes);
    records.push_back(record);
    offset = next;
  }
  if (records.empty()) throw LimeError("Latte: LIME file '" + path + "' is empty");
  return records;
}

// A record's payload; records longer than `max_bytes` are refused (an XML
// record of gigabytes is a damaged length, and would be read into memory).
inline std::string read_lime_payload(std::istream& in, const LimeRecord& record, const std::string& path,
                                     std::int64_t max_bytes) {
  if (record.payload_bytes > max_bytes)
    throw LimeError("Latte: LIME file '" + path + "': record '" + record.type + "' at byte " +
                    std::to_string(record.header_offset) + " has " + std::to_string(record.payload_bytes) +
                    " bytes, more than the " + std::to_string(max_bytes) + " such a record may have");
  std::string payload(static_cast<std::size_t>(record.payload_bytes), '\0');
  in.seekg(record.payload_offset);
  in.read(payload.data(), static_cast<std::streamsize>(payload.size()));
  if (!in) throw LimeError("Latte: cannot read record '" + record.type + "' of LIME file '" + path + "'");
  return payload;
}

}  // namespace latte
