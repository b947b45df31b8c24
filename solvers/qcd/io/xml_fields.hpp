#pragma once
// The few XML fields the ILDG and SciDAC records carry, found by tag: these
// documents are flat (<ildgFormat><lx>8</lx>...</ildgFormat>), and a tag's
// text is all a reader needs. Not an XML parser: no entities, no CDATA, no
// nesting of a tag inside itself.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace latte::xml_fields {

// The text between <tag ...> and </tag> (trimmed), if the document has it.
inline std::optional<std::string> text_of(const std::string& xml, const std::string& tag) {
  std::size_t at = 0;
  while ((at = xml.find("<" + tag, at)) != std::string::npos) {
    const std::size_t after = at + 1 + tag.size();
    if (after < xml.size() && (xml[after] == '>' || xml[after] == ' ' || xml[after] == '\t' || xml[after] == '\n' ||
                               xml[after] == '\r')) {
      const std::size_t open_end = xml.find('>', after);
      if (open_end == std::string::npos) return std::nullopt;
      if (xml[open_end - 1] == '/') return std::string();  // <tag/>
      const std::size_t close = xml.find("</" + tag + ">", open_end + 1);
      if (close == std::string::npos) return std::nullopt;
      const std::string text = xml.substr(open_end + 1, close - open_end - 1);
      const auto first = text.find_first_not_of(" \t\r\n");
      if (first == std::string::npos) return std::string();
      return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
    }
    at = after;
  }
  return std::nullopt;
}

// The whole text as a finite number, if it is one.
inline std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The whole text as an integer in [min, max], if it is one.
inline std::optional<long long> integer(const std::string& text, long long min, long long max) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < min || value > max) return std::nullopt;
  return value;
}

}  // namespace latte::xml_fields
