// Rational approximations kept in files; see rational_cache.hpp.
#include "solvers/rational/rational_cache.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "solvers/rational/remez.hpp"

namespace latte {

namespace {

std::string hex(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

class FileReader {
 public:
  explicit FileReader(const std::filesystem::path& file) : file_(file), in_(file) {
    if (!in_) throw std::runtime_error("Latte rational approximation file " + file.string() + ": cannot be opened");
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("Latte rational approximation file " + file_.string() + ", line " +
                             std::to_string(line_number_) + ": " + why);
  }
  // The next line that is not a comment, its words before any '#'.
  std::istringstream next(const char* what) {
    std::string line;
    if (next_line(line)) return std::istringstream(line);
    ++line_number_;
    fail(std::string("the file ends where ") + what + " was expected");
  }
  // Whether only comments and blank lines are left.
  bool at_end() {
    std::string line;
    return !next_line(line);
  }
  // A line "key value..." with the given key.
  std::istringstream keyed(const std::string& key) {
    std::istringstream words = next(key.c_str());
    std::string word;
    words >> word;
    if (word != key) fail("expected '" + key + "', found '" + word + "'");
    return words;
  }
  double number(std::istringstream& words, const char* what) {
    std::string word;
    if (!(words >> word)) fail(std::string("missing ") + what);
    char* end = nullptr;
    const double value = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0') fail(std::string(what) + " '" + word + "' is not a number");
    if (!std::isfinite(value)) fail(std::string(what) + " is " + word);
    return value;
  }
  long integer(std::istringstream& words, const char* what) {
    std::string word;
    if (!(words >> word)) fail(std::string("missing ") + what);
    char* end = nullptr;
    const long value = std::strtol(word.c_str(), &end, 10);
    if (end == word.c_str() || *end != '\0') fail(std::string(what) + " '" + word + "' is not an integer");
    return value;
  }
  void end_of_line(std::istringstream& words) {
    std::string extra;
    if (words >> extra) fail("unexpected '" + extra + "' at the end of the line");
  }

 private:
  bool next_line(std::string& line) {
    while (std::getline(in_, line)) {
      ++line_number_;
      const auto hash = line.find('#');
      if (hash != std::string::npos) line.erase(hash);
      if (line.find_first_not_of(" \t\r") != std::string::npos) return true;
    }
    return false;
  }

  std::filesystem::path file_;
  std::ifstream in_;
  int line_number_ = 0;
};

}  // namespace

std::filesystem::path rational_cache_file(const std::filesystem::path& directory, int numerator, int denominator,
                                          double lower, double upper, double tolerance) {
  return directory / ("rational_power" + std::to_string(numerator) + "over" + std::to_string(denominator) + "_lower" +
                      hex(lower) + "_upper" + hex(upper) + "_tolerance" + hex(tolerance) + ".txt");
}

void write_rational_approximation(const std::filesystem::path& file, const RationalApproximation& r, double tolerance) {
  std::ostringstream text;
  text << "# Latte rational approximation r(x) = constant + sum_k residue_k / (x + pole_k) of "
       << r.description() << "\n# numbers are C99 hexadecimal floats; the decimal after '#' is for reading\n"
       << "latte-rational-approximation 1\n"
       << "power " << r.numerator << " " << r.denominator << "\n"
       << "interval " << hex(r.lower) << " " << hex(r.upper) << "  # " << r.lower << " " << r.upper << "\n"
       << "tolerance " << hex(tolerance) << "  # " << tolerance << "\n"
       << "degree " << r.degree << "\n"
       << "error " << hex(r.error) << "  # " << r.error << "\n"
       << "constant " << hex(r.constant) << "  # " << r.constant << "\n"
       << "# pole residue\n";
  for (std::size_t k = 0; k < r.poles.size(); ++k)
    text << hex(r.poles[k]) << " " << hex(r.residues[k]) << "  # " << r.poles[k] << " " << r.residues[k] << "\n";
  // A temporary name beside the file, then rename: a reader never sees half a file.
  std::filesystem::path temporary = file;
  temporary += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    out << text.str();
    if (!out.flush()) throw std::runtime_error("Latte rational approximation file " + temporary.string() + ": cannot be written");
  }
  std::filesystem::rename(temporary, file);
}

RationalApproximation read_rational_approximation(const std::filesystem::path& file, int numerator, int denominator,
                                                  double lower, double upper, double tolerance) {
  FileReader reader(file);
  {
    std::istringstream words = reader.keyed("latte-rational-approximation");
    if (reader.integer(words, "the format version") != 1) reader.fail("format version is not 1");
    reader.end_of_line(words);
  }
  RationalApproximation r;
  {
    std::istringstream words = reader.keyed("power");
    r.numerator = static_cast<int>(reader.integer(words, "the power's numerator"));
    r.denominator = static_cast<int>(reader.integer(words, "the power's denominator"));
    reader.end_of_line(words);
    if (r.numerator != numerator || r.denominator != denominator)
      reader.fail("the power is " + std::to_string(r.numerator) + "/" + std::to_string(r.denominator) + ", not the " +
                  std::to_string(numerator) + "/" + std::to_string(denominator) + " asked for");
  }
  {
    std::istringstream words = reader.keyed("interval");
    r.lower = reader.number(words, "the lower end");
    r.upper = reader.number(words, "the upper end");
    reader.end_of_line(words);
    if (r.lower != lower || r.upper != upper) reader.fail("the interval is not the one asked for");
  }
  {
    std::istringstream words = reader.keyed("tolerance");
    if (reader.number(words, "the tolerance") != tolerance) reader.fail("the tolerance is not the one asked for");
    reader.end_of_line(words);
  }
  {
    std::istringstream words = reader.keyed("degree");
    const long degree = reader.integer(words, "the degree");
    if (degree < 1 || degree > 64) reader.fail("the degree " + std::to_string(degree) + " is not in 1..64");
    r.degree = static_cast<int>(degree);
    reader.end_of_line(words);
  }
  {
    std::istringstream words = reader.keyed("error");
    r.error = reader.number(words, "the error");
    reader.end_of_line(words);
    if (!(r.error >= 0) || r.error > tolerance) reader.fail("the stated error is not within the tolerance");
  }
  {
    std::istringstream words = reader.keyed("constant");
    r.constant = reader.number(words, "the constant");
    reader.end_of_line(words);
  }
  for (int k = 0; k < r.degree; ++k) {
    std::istringstream words = reader.next("a pole and its residue");
    const double pole = reader.number(words, "the pole");
    const double residue = reader.number(words, "the residue");
    reader.end_of_line(words);
    if (!(pole > 0)) reader.fail("pole " + std::to_string(pole) + " is not positive");
    r.poles.push_back(pole);
    r.residues.push_back(residue);
  }
  // Nothing may follow the last pole but comments.
  if (!reader.at_end()) reader.fail("more lines than the degree's " + std::to_string(r.degree) + " poles");
  // The numbers must still make the approximation they claim to be.
  double measured = 0;
  for (const auto& [x, e] : error_extrema(r)) measured = std::max(measured, std::abs(e));
  if (!(measured <= r.error * (1 + 1e-6) + 1e-15))
    throw std::runtime_error("Latte rational approximation file " + file.string() +
                             ": its poles and residues have a relative error of " + std::to_string(measured) +
                             ", not the " + std::to_string(r.error) + " it states");
  return r;
}

RationalApproximation cached_rational_approximation(const std::filesystem::path& directory, int numerator,
                                                    int denominator, double lower, double upper, double tolerance) {
  if (directory.empty()) return remez_approximation_to_tolerance(numerator, denominator, lower, upper, tolerance);
  const std::filesystem::path file = rational_cache_file(directory, numerator, denominator, lower, upper, tolerance);
  if (std::filesystem::exists(file)) return read_rational_approximation(file, numerator, denominator, lower, upper, tolerance);
  RationalApproximation r = remez_approximation_to_tolerance(numerator, denominator, lower, upper, tolerance);
  std::filesystem::create_directories(directory);
  write_rational_approximation(file, r, tolerance);
  return r;
}

}  // namespace latte
