// Rational approximations of powers (solvers/rational/): the Remez
// approximation's relative error stays within the error it states over the
// whole interval and equioscillates (2n + 2 alternating extrema of equal
// size), the degree chosen for a tolerance is the smallest that meets it,
// Remez agrees with Zolotarev's closed form for x^-1/2 (poles, residues,
// constant, error), and the cache file keeps the bits and refuses every
// kind of damage with the file and line named. Plain C++: one small program
// on every backend.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "solvers/rational/rational_cache.hpp"
#include "solvers/rational/remez.hpp"
#include "solvers/rational/zolotarev.hpp"

namespace latte::testing {
namespace {

// The error of r on a logarithmic grid of 20,000 points, ends included,
// within the stated error (and that error not understated: the grid comes
// within 1e-4 of it), and the extrema alternate with equal size.
void expect_minimax(const RationalApproximation& r, double size_spread = 1e-6) {
  SCOPED_TRACE(r.description());
  double largest = 0;
  for (const auto& [x, e] : relative_error_curve(r, 20000)) {
    ASSERT_TRUE(std::isfinite(e)) << "at x = " << x;
    largest = std::max(largest, std::abs(e));
  }
  EXPECT_LE(largest, r.error * (1 + 1e-9) + 1e-16);  // + the rounding of the sum in long double
  EXPECT_GE(largest, r.error * (1 - 1e-4));
  const auto extrema = error_extrema(r);
  ASSERT_EQ(static_cast<int>(extrema.size()), 2 * r.degree + 2);
  EXPECT_NEAR(extrema.front().first, r.lower, 1e-6 * r.lower);  // the ends are extrema
  EXPECT_NEAR(extrema.back().first, r.upper, 1e-6 * r.upper);
  for (std::size_t i = 0; i < extrema.size(); ++i) {
    EXPECT_NEAR(std::abs(extrema[i].second), r.error, size_spread * r.error + 1e-16) << "extremum " << i << " at " << extrema[i].first;
    if (i > 0) {
      EXPECT_LT(extrema[i].second * extrema[i - 1].second, 0) << "extrema " << i - 1 << " and " << i;
    }
  }
  for (double pole : r.poles) EXPECT_GT(pole, 0);
}

TEST(RationalApproximation, RemezEquioscillatesForTheRhmcPowers) {
  for (auto [p, q] : {std::pair{-1, 2}, {1, 2}, {-1, 4}, {1, 4}, {-1, 8}}) {
    const RationalApproximation r = remez_approximation(p, q, 1e-4, 50, 10);
    expect_minimax(r);
    std::printf("x^(%d/%d) on [1e-4, 50], degree 10: relative error %.4e\n", p, q, r.error);
  }
}

TEST(RationalApproximation, SmallestDegreeForATolerance) {
  const double tolerance = 1e-7;
  const RationalApproximation r = remez_approximation_to_tolerance(-1, 4, 1e-4, 64, tolerance);
  expect_minimax(r);
  EXPECT_LE(r.error, tolerance);
  EXPECT_GT(remez_approximation(-1, 4, 1e-4, 64, r.degree - 1).error, tolerance);
  std::printf("x^(-1/4) on [1e-4, 64] to %.0e: degree %d, error %.3e\n", tolerance, r.degree, r.error);
  // The printed error curve a user looks at (examples print the same).
  for (const auto& [x, e] : relative_error_curve(r, 9)) std::printf("  x = %-12.5g  r(x)/x^(-1/4) - 1 = %+.3e\n", x, e);
}

TEST(RationalApproximation, RemezAgreesWithZolotarev) {
  for (int degree : {6, 14}) {
    const RationalApproximation remez = remez_approximation(-1, 2, 2e-4, 8, degree);
    const RationalApproximation zolotarev = zolotarev_inverse_square_root(2e-4, 8, degree);
    expect_minimax(zolotarev);
    // Two algorithms, one answer: to ten digits (Remez stops when its
    // extrema agree to 1e-10), the errors to the rounding of the sums.
    EXPECT_NEAR(remez.error, zolotarev.error, 1e-6 * zolotarev.error + 1e-16);
    EXPECT_NEAR(remez.constant, zolotarev.constant, 1e-10 * std::abs(zolotarev.constant));
    ASSERT_EQ(remez.poles.size(), zolotarev.poles.size());
    for (int k = 0; k < degree; ++k) {  // both ascending
      EXPECT_NEAR(remez.poles[k], zolotarev.poles[k], 1e-10 * zolotarev.poles[k]) << "pole " << k;
      EXPECT_NEAR(remez.residues[k], zolotarev.residues[k], 1e-10 * std::abs(zolotarev.residues[k])) << "residue " << k;
    }
  }
}

TEST(RationalApproximation, RefusesWhatItCannotApproximate) {
  EXPECT_THROW(remez_approximation(1, 1, 1e-3, 1, 4), std::invalid_argument);   // x itself
  EXPECT_THROW(remez_approximation(3, 2, 1e-3, 1, 4), std::invalid_argument);   // |p/q| > 1
  EXPECT_THROW(remez_approximation(0, 2, 1e-3, 1, 4), std::invalid_argument);
  EXPECT_THROW(remez_approximation(1, 0, 1e-3, 1, 4), std::invalid_argument);
  EXPECT_THROW(remez_approximation(-1, 2, 0, 1, 4), std::invalid_argument);     // interval touches 0
  EXPECT_THROW(remez_approximation(-1, 2, 2, 1, 4), std::invalid_argument);     // empty interval
  EXPECT_THROW(remez_approximation(-1, 2, 1e-3, 1, 0), std::invalid_argument);  // degree
  EXPECT_THROW(zolotarev_inverse_square_root(1e-3, NAN, 4), std::invalid_argument);
  try {
    remez_approximation_to_tolerance(-1, 2, 1e-6, 1, 1e-12, 6);
    FAIL() << "a tolerance beyond the largest degree was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("needs a degree above 6"), std::string::npos) << e.what();
  }
}

class RationalCache : public ::testing::Test {
 protected:
  void SetUp() override {
    directory = std::filesystem::temp_directory_path() /
                ("latte_rational_cache_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(directory);
  }
  void TearDown() override { std::filesystem::remove_all(directory); }
  std::filesystem::path directory;
};

TEST_F(RationalCache, KeepsTheBitsAndIsReadOnTheSecondCall) {
  const RationalApproximation made = cached_rational_approximation(directory, -1, 2, 1e-3, 16, 1e-6);
  const std::filesystem::path file = rational_cache_file(directory, -1, 2, 1e-3, 16, 1e-6);
  ASSERT_TRUE(std::filesystem::exists(file));
  const auto written = std::filesystem::last_write_time(file);
  const RationalApproximation read = cached_rational_approximation(directory, -1, 2, 1e-3, 16, 1e-6);
  EXPECT_EQ(std::filesystem::last_write_time(file), written);  // read, not rewritten
  EXPECT_EQ(read.degree, made.degree);
  EXPECT_EQ(read.error, made.error);
  EXPECT_EQ(read.constant, made.constant);
  EXPECT_EQ(read.poles, made.poles);
  EXPECT_EQ(read.residues, made.residues);
  // Other parameters are another file.
  EXPECT_NE(rational_cache_file(directory, -1, 2, 1e-3, 16, 1e-7), file);
  EXPECT_NE(rational_cache_file(directory, -1, 4, 1e-3, 16, 1e-6), file);
}

// Each damage to a good file, and the words its error must contain.
TEST_F(RationalCache, RefusesDamagedFilesNamingFileAndLine) {
  const RationalApproximation good = remez_approximation_to_tolerance(-1, 2, 1e-3, 4, 1e-6);
  const std::filesystem::path file = rational_cache_file(directory, -1, 2, 1e-3, 4, 1e-6);
  std::filesystem::create_directories(directory);
  write_rational_approximation(file, good, 1e-6);
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto replace_line = [&](const std::string& starting, const std::string& with) {
    std::istringstream lines(text);
    std::string line, result;
    bool done = false;
    while (std::getline(lines, line)) {
      if (!done && line.rfind(starting, 0) == 0) {
        line = with;
        done = true;
      }
      result += line + "\n";
    }
    EXPECT_TRUE(done) << starting;
    return result;
  };
  // The first pole line: after the "# pole residue" comment.
  const std::size_t first_pole = text.find("\n", text.find("# pole residue")) + 1;
  const std::string pole_line = text.substr(first_pole, text.find('\n', first_pole) - first_pole);
  const std::string pole_word = pole_line.substr(0, pole_line.find(' '));
  auto with_pole_line = [&](const std::string& line) {
    return text.substr(0, first_pole) + line + text.substr(text.find('\n', first_pole));
  };
  char doubled[64];
  std::snprintf(doubled, sizeof doubled, "%a", good.residues[0] * (1 + 1e-3));
  const struct {
    std::string name, contents, expected;
  } damages[] = {
      {"format", replace_line("latte-rational", "latte-rational-approximation 2"), "line 3: format version"},
      {"power", replace_line("power", "power -1 4"), "line 4: the power is -1/4"},
      {"interval", replace_line("interval", "interval 0x1p-10 0x1p+2"), "line 5: the interval"},
      {"tolerance", replace_line("tolerance", "tolerance 0x1p-30"), "line 6: the tolerance"},
      {"degree", replace_line("degree", "degree 99"), "line 7: the degree 99"},
      {"error above tolerance", replace_line("error", "error 0x1p-2"), "line 8: the stated error"},
      {"NaN constant", replace_line("constant", "constant nan"), "line 9: the constant is nan"},
      {"garbage", replace_line("constant", "constant 0x1.8pz"), "line 9: the constant '0x1.8pz' is not a number"},
      {"negative pole", with_pole_line("-" + pole_word + " 0x1p-3"), "is not positive"},
      {"NaN residue", with_pole_line(pole_word + " nan"), "the residue is nan"},
      {"changed residue", with_pole_line(pole_word + " " + doubled), "relative error of"},
      {"truncated", text.substr(0, first_pole), "the file ends where a pole and its residue was expected"},
      {"extra line", text + "0x1p+0 0x1p+0\n", "more lines than"},
      {"missing key", replace_line("degree", "# no degree"), "expected 'degree', found 'error'"},
  };
  for (const auto& damage : damages) {
    {
      std::ofstream out(file);
      out << damage.contents;
    }
    try {
      read_rational_approximation(file, -1, 2, 1e-3, 4, 1e-6);
      ADD_FAILURE() << damage.name << ": accepted";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(file.string()), std::string::npos) << damage.name << ": " << what;
      EXPECT_NE(what.find(damage.expected), std::string::npos) << damage.name << ": " << what;
    }
  }
  // And the intact file reads.
  {
    std::ofstream out(file);
    out << text;
  }
  EXPECT_EQ(read_rational_approximation(file, -1, 2, 1e-3, 4, 1e-6).residues, good.residues);
}

}  // namespace
}  // namespace latte::testing
