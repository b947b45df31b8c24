#pragma once
// What an ILDG / SciDAC gauge file says about its links: the LIME records
// (solvers/qcd/io/lime.hpp) a reader looks at, parsed and checked against each other.
//
// Records read (any order, others skipped):
//   ildg-format                 <ildgFormat>: field su3gauge, precision 32 or
//                               64, lx ly lz lt
//   scidac-private-file-xml     <scidacFile>: dims "lx ly lz lt"
//   scidac-private-record-xml   <scidacRecord>: precision F or D, colors 3,
//                               typesize 72 or 144, datacount 4
//   scidac-file-xml,            <usqcdInfo>: plaq, linktr (each record's
//   scidac-record-xml           checked)
//   ildg-binary-data            the links (scidac-binary-data in SciDAC files
//                               without ILDG records); the first one is read
//   scidac-checksum             <scidacChecksum>: suma, sumb (hex); the first
//                               after the binary record
//   ildg-data-lfn               the logical file name (kept, not checked)
// Extents and precision come from ildg-format, else from the SciDAC
// records; wherever two records give them they must agree, and the binary
// record must have exactly the bytes they imply.

#include <cstdint>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

#include "platform/coordinate.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/lime.hpp"
#include "solvers/qcd/io/scidac_checksum.hpp"
#include "solvers/qcd/io/xml_fields.hpp"

namespace latte {

struct IldgHeader : StoredLattice {
  int real_bytes = 8;  // 8: 64-bit reals, 4: 32-bit
  std::int64_t data_offset = 0, data_bytes = 0;
  bool has_checksum = false;
  ScidacChecksum checksum;
  // The averages of <usqcdInfo> as the file gives them, per record:
  // [0] scidac-record-xml, [1] scidac-file-xml.
  static constexpr const char* info_records[2] = {"scidac-record-xml", "scidac-file-xml"};
  bool has_plaquette[2] = {false, false}, has_link_trace[2] = {false, false};
  double plaquette[2] = {0, 0}, link_trace[2] = {0, 0};
  std::string lfn;

  std::int64_t site_bytes() const { return 4 * 18 * real_bytes; }
};

namespace ildg_detail {

// XML records are short; one of more than this is a damaged length.
inline constexpr std::int64_t max_xml_bytes = 1 << 20;

inline std::string file(const std::string& path) { return GaugeFileName{"ILDG", path}.file(); }

inline std::string in_record(const std::string& path, const LimeRecord& record) {
  return file(path) + ", record '" + record.type + "' (at byte " + std::to_string(record.header_offset) + ")";
}

inline std::string required(const std::string& xml, const std::string& tag, const std::string& where) {
  const auto text = xml_fields::text_of(xml, tag);
  if (!text) refuse(where + " has no <" + tag + ">");
  return *text;
}

inline long long required_integer(const std::string& xml, const std::string& tag, long long min, long long max,
                                  const std::string& where) {
  const std::string text = required(xml, tag, where);
  const auto value = xml_fields::integer(text, min, max);
  if (!value)
    refuse_field(where, "<" + tag + ">", "'" + text + "'",
                 "not an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return *value;
}

inline std::uint32_t hex_sum(const std::string& xml, const std::string& tag, const std::string& where) {
  const std::string text = required(xml, tag, where);
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 16);
  if (text.empty() || *end != '\0' || value > 0xffffffffull || text[0] == '-' || text[0] == '+')
    refuse_field(where, "<" + tag + ">", "'" + text + "'", "not a 32-bit hex number");
  return static_cast<std::uint32_t>(value);
}

inline void check_extents(const Coordinate& extents, const std::string& where) {
  SiteCount sites(max_sites_of(4 * 18 * 8));
  for (int extent : extents)
    if (!sites.times(extent))
      refuse(where + ": extents " + to_string(extents) + " are too large a lattice (more than 2^63 bytes of links)");
}

}  // namespace ildg_detail

// Parses and checks the records of `in` (a file of `file_bytes` bytes).
inline IldgHeader parse_ildg_header(std::istream& in, std::int64_t file_bytes, const std::string& path) {
  using namespace ildg_detail;
  std::vector<LimeRecord> records;
  try {
    records = read_lime_records(in, file_bytes, path);
  } catch (const LimeError& error) {
    throw GaugeFileError(error.what());
  }
  auto xml_of = [&](const LimeRecord& record) {
    try {
      return read_lime_payload(in, record, path, max_xml_bytes);
    } catch (const LimeError& error) {
      throw GaugeFileError(error.what());
    }
  };

  IldgHeader header;
  const LimeRecord* binary = nullptr;
  Coordinate format_extents, scidac_extents;
  int format_bytes = 0, scidac_bytes = 0;
  bool have_record_info = false;
  for (const LimeRecord& record : records) {
    const std::string where = in_record(path, record);
    if (record.type == "ildg-binary-data" || record.type == "scidac-binary-data") {
      if (!binary) binary = &record;
    } else if (record.type == "ildg-format") {
      const std::string xml = xml_of(record);
      const std::string field = required(xml, "field", where);
      if (field != "su3gauge") refuse_field(where, "<field>", "'" + field + "'", "not su3gauge");
      const long long precision = required_integer(xml, "precision", 0, 1024, where);
      if (precision != 32 && precision != 64)
        refuse_field(where, "<precision>", std::to_string(precision), "not 32 or 64");
      format_bytes = static_cast<int>(precision / 8);
      format_extents.clear();
      for (const char* tag : {"lx", "ly", "lz", "lt"})
        format_extents.push_back(static_cast<int>(required_integer(xml, tag, 1, 1000000, where)));
      check_extents(format_extents, where);
    } else if (record.type == "scidac-private-file-xml") {
      const std::string xml = xml_of(record);
      std::istringstream dims(required(xml, "dims", where));
      scidac_extents.clear();
      std::string word;
      while (dims >> word) {
        const auto extent = xml_fields::integer(word, 1, 1000000);
        if (!extent) refuse(where + ": <dims> holds '" + word + "', not a lattice extent");
        scidac_extents.push_back(static_cast<int>(*extent));
      }
      if (scidac_extents.size() != 4)
        refuse(where + ": <dims> has " + std::to_string(scidac_extents.size()) + " extents, not 4");
      check_extents(scidac_extents, where);
    } else if (record.type == "scidac-private-record-xml") {
      const std::string xml = xml_of(record);
      const std::string precision = required(xml, "precision", where);
      if (precision != "F" && precision != "D") refuse_field(where, "<precision>", "'" + precision + "'", "not F or D");
      scidac_bytes = precision == "F" ? 4 : 8;
      if (const auto colors = xml_fields::text_of(xml, "colors"); colors && *colors != "3")
        refuse_field(where, "<colors>", *colors, "not 3");
      if (const auto count = xml_fields::text_of(xml, "datacount"); count && *count != "4")
        refuse_field(where, "<datacount>", *count, "not 4 (one link per direction)");
      if (const auto size = xml_fields::text_of(xml, "typesize"); size && *size != std::to_string(18 * scidac_bytes))
        refuse_field(where, "<typesize>", *size,
                     "but a 3x3 complex matrix of precision " + precision + " has " +
                         std::to_string(18 * scidac_bytes) + " bytes");
      have_record_info = true;
    } else if (record.type == "scidac-record-xml" || record.type == "scidac-file-xml") {
      // Both may hold <usqcdInfo> (MILC and Latte write it in both); each
      // one there is checked. The first of each type counts.
      const int slot = record.type == "scidac-record-xml" ? 0 : 1;
      const std::string xml = xml_of(record);
      if (!xml_fields::text_of(xml, "usqcdInfo")) continue;  // another program's metadata
      if (const auto plaq = xml_fields::text_of(xml, "plaq"); plaq && !header.has_plaquette[slot]) {
        const auto value = xml_fields::number(*plaq);
        if (!value) refuse_field(where, "<plaq>", "'" + *plaq + "'", "not a number");
        header.plaquette[slot] = *value, header.has_plaquette[slot] = true;
      }
      if (const auto linktr = xml_fields::text_of(xml, "linktr"); linktr && !header.has_link_trace[slot]) {
        const auto value = xml_fields::number(*linktr);
        if (!value) refuse_field(where, "<linktr>", "'" + *linktr + "'", "not a number");
        header.link_trace[slot] = *value, header.has_link_trace[slot] = true;
      }
    } else if (record.type == "scidac-checksum") {
      if (!binary || header.has_checksum) continue;  // a checksum of another record
      const std::string xml = xml_of(record);
      header.checksum.suma = hex_sum(xml, "suma", where);
      header.checksum.sumb = hex_sum(xml, "sumb", where);
      header.has_checksum = true;
    } else if (record.type == "ildg-data-lfn") {
      header.lfn = xml_of(record);
    }
  }

  const std::string file = ildg_detail::file(path);
  if (!binary) refuse(file + " has no ildg-binary-data record (not a gauge configuration)");
  if (format_extents.empty() && scidac_extents.empty())
    refuse(file + " gives no lattice extents (neither ildg-format nor scidac-private-file-xml)");
  if (!format_extents.empty() && !scidac_extents.empty() && format_extents != scidac_extents)
    refuse(file + " is inconsistent: ildg-format says extents " + to_string(format_extents) +
           ", scidac-private-file-xml " + to_string(scidac_extents));
  if (format_bytes == 0 && !have_record_info)
    refuse(file + " gives no precision (neither ildg-format nor scidac-private-record-xml)");
  if (format_bytes != 0 && have_record_info && format_bytes != scidac_bytes)
    refuse(file + " is inconsistent: ildg-format says " + std::to_string(8 * format_bytes) +
           "-bit reals, scidac-private-record-xml " + std::to_string(8 * scidac_bytes) + "-bit");
  header.extents = format_extents.empty() ? scidac_extents : format_extents;
  header.real_bytes = format_bytes != 0 ? format_bytes : scidac_bytes;
  header.data_offset = binary->payload_offset;
  header.data_bytes = binary->payload_bytes;
  const std::int64_t expected = header.volume() * header.site_bytes();
  if (header.data_bytes != expected)
    refuse(in_record(path, *binary) + " has " + std::to_string(header.data_bytes) + " bytes, but " +
           to_string(header.extents) + " sites of 4 links of " + std::to_string(8 * header.real_bytes) +
           "-bit 3x3 complex matrices are " + std::to_string(expected));
  return header;
}

inline IldgHeader read_ildg_header(const std::string& path) {
  std::ifstream in = open_gauge_file({"ILDG", path});
  const std::int64_t bytes = file_size(in);
  return parse_ildg_header(in, bytes, path);
}

}  // namespace latte
