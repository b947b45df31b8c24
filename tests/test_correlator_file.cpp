// The correlator file of the spectroscopy example (examples/correlator_file.hpp):
// what is written reads back to the same bits, the complex numbers are the
// compound {r, i} that h5py reads as complex, two writes a second apart
// are the same bytes (no modification times), the CSV holds the same
// numbers, and a file that is not HDF5 or a ragged correlator is refused
// with the file's name.

#include <gtest/gtest.h>

#include <hdf5.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "examples/correlator_file.hpp"

namespace latte::testing {
namespace {

using files::CorrelatorFile;

CorrelatorFile sample_content() {
  CorrelatorFile content;
  content.parameters = {{"lattice", "4 4 4 8"}, {"kappa", "0.125"}, {"sources", "point wall"}};
  content.configurations = {"cfg_0010.nersc", "cfg_0020.nersc", "cfg_0030.nersc"};
  files::CorrelatorRecord pion{"point_point/pion/p_0_0_0", {{"gamma_source", "15"}, {"gamma_sink", "15"}}, {0, 0, 0}, {}};
  files::CorrelatorRecord rho{"wall_point/rho_x/p_1_0_0", {{"channel", "rho_x"}}, {1, 0, 0}, {}};
  for (int c = 0; c < 3; ++c) {
    std::vector<std::complex<double>> a, b;
    for (int t = 0; t < 8; ++t) {
      a.emplace_back(1.0 / (1 + t + c) + 1e-17 * t, 0.1 * t - c);
      b.emplace_back(-std::exp(-0.3 * t) * (1 + c), 3.0e-300 * t);
    }
    pion.values.push_back(a);
    rho.values.push_back(b);
  }
  content.correlators = {pion, rho};
  content.analysis.push_back(
      {"point_point/pion/p_0_0_0/effective_mass", {0.5, 0.51, std::nan("")}, {0.01, 0.02, std::nan("")},
       {{"fit_mass", 0.505}, {"fit_mass_error", 0.007}, {"t_min", 2}, {"t_max", 5}}});
  return content;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Each test in a directory of its own: ctest runs the tests of this file
// side by side, and one's TearDown must not remove another's files.
struct CorrelatorFileTest : ::testing::Test {
  std::filesystem::path directory;
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    directory = std::filesystem::temp_directory_path() /
                ("latte_correlator_file_test_" + std::string(test->name()) + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(directory);
  }
  void TearDown() override { std::filesystem::remove_all(directory); }
  std::string path(const std::string& name) const { return (directory / name).string(); }
};

TEST_F(CorrelatorFileTest, ReadsBackEveryBitAndAttribute) {
  const CorrelatorFile written = sample_content();
  files::write_correlator_hdf5(path("a.h5"), written);
  EXPECT_FALSE(std::filesystem::exists(path("a.h5.tmp")));
  const CorrelatorFile read = files::read_correlator_hdf5(path("a.h5"));
  EXPECT_EQ(read.parameters, written.parameters);  // in the order written
  EXPECT_EQ(read.configurations, written.configurations);
  ASSERT_EQ(read.correlators.size(), 2u);
  for (const auto& w : written.correlators) {
    const auto r = std::find_if(read.correlators.begin(), read.correlators.end(),
                                [&](const files::CorrelatorRecord& x) { return x.path == w.path; });
    ASSERT_NE(r, read.correlators.end()) << w.path;
    EXPECT_EQ(r->attributes, w.attributes);
    EXPECT_EQ(r->momentum, w.momentum);
    ASSERT_EQ(r->values.size(), w.values.size());
    for (std::size_t c = 0; c < w.values.size(); ++c)
      for (std::size_t t = 0; t < w.values[c].size(); ++t) {
        EXPECT_EQ(r->values[c][t].real(), w.values[c][t].real());  // bits
        EXPECT_EQ(r->values[c][t].imag(), w.values[c][t].imag());
      }
  }
  ASSERT_EQ(read.analysis.size(), 1u);
  EXPECT_EQ(read.analysis[0].value[1], 0.51);
  EXPECT_TRUE(std::isnan(read.analysis[0].error[2]));
  EXPECT_EQ(read.analysis[0].numbers, written.analysis[0].numbers);
}

TEST_F(CorrelatorFileTest, ComplexNumbersAreTheCompoundH5pyReads) {
  files::write_correlator_hdf5(path("b.h5"), sample_content());
  const hid_t file = H5Fopen(path("b.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t data = H5Dopen2(file, "correlators/point_point/pion/p_0_0_0", H5P_DEFAULT);
  ASSERT_GE(data, 0);
  const hid_t type = H5Dget_type(data);
  EXPECT_EQ(H5Tget_class(type), H5T_COMPOUND);
  ASSERT_EQ(H5Tget_nmembers(type), 2);
  char* first = H5Tget_member_name(type, 0);
  char* second = H5Tget_member_name(type, 1);
  EXPECT_STREQ(first, "r");
  EXPECT_STREQ(second, "i");
  H5free_memory(first);
  H5free_memory(second);
  const hid_t member = H5Tget_member_type(type, 1);
  EXPECT_TRUE(H5Tequal(member, H5T_IEEE_F64LE) > 0);
  EXPECT_EQ(H5Tget_member_offset(type, 1), 8u);
  const hid_t space = H5Dget_space(data);
  hsize_t shape[2];
  ASSERT_EQ(H5Sget_simple_extent_ndims(space), 2);
  H5Sget_simple_extent_dims(space, shape, nullptr);
  EXPECT_EQ(shape[0], 3u);  // configurations
  EXPECT_EQ(shape[1], 8u);  // timeslices
  H5Sclose(space);
  H5Tclose(member);
  H5Tclose(type);
  H5Dclose(data);
  H5Fclose(file);
}

TEST_F(CorrelatorFileTest, TwoWritesASecondApartAreTheSameBytes) {
  files::write_correlator_hdf5(path("c1.h5"), sample_content());
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  files::write_correlator_hdf5(path("c2.h5"), sample_content());
  const std::string a = bytes_of(path("c1.h5")), b = bytes_of(path("c2.h5"));
  EXPECT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == b) << "the files differ: a time or an address was stored";
}

TEST_F(CorrelatorFileTest, CsvHoldsTheSameNumbers) {
  const CorrelatorFile content = sample_content();
  files::write_correlator_csv(path("d.csv"), content);
  std::istringstream lines(bytes_of(path("d.csv")));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "correlator,configuration,t,re,im");
  int rows = 0;
  while (std::getline(lines, line)) {
    const int record = rows / 24, configuration = rows % 24 / 8, t = rows % 8;
    const auto& expected = content.correlators[record];
    std::istringstream fields(line);
    std::string name, config, t_text, re, im;
    std::getline(fields, name, ',');
    std::getline(fields, config, ',');
    std::getline(fields, t_text, ',');
    std::getline(fields, re, ',');
    std::getline(fields, im, ',');
    EXPECT_EQ(name, expected.path);
    EXPECT_EQ(config, content.configurations[configuration]);
    EXPECT_EQ(std::stoi(t_text), t);
    EXPECT_EQ(std::stod(re), expected.values[configuration][t].real()) << line;
    EXPECT_EQ(std::stod(im), expected.values[configuration][t].imag()) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 48);
}

TEST_F(CorrelatorFileTest, RefusesWhatItCannotReadOrWrite) {
  {
    std::ofstream(path("not.h5")) << "this is not an HDF5 file\n";
  }
  try {
    files::read_correlator_hdf5(path("not.h5"));
    ADD_FAILURE() << "a text file was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not.h5: cannot be opened as an HDF5 file"), std::string::npos) << e.what();
  }
  CorrelatorFile ragged = sample_content();
  ragged.correlators[1].values[2].pop_back();
  try {
    files::write_correlator_hdf5(path("e.h5"), ragged);
    ADD_FAILURE() << "a ragged correlator was written";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("wall_point/rho_x/p_1_0_0 has rows of 7 and 8 timeslices"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path("e.h5")));
  EXPECT_FALSE(std::filesystem::exists(path("e.h5.tmp")));
}

}  // namespace
}  // namespace latte::testing
