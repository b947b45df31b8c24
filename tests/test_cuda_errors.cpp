// The cuda backend's failures become exceptions that say what failed: the
// allocation (how much, for which field, how much was free) or the statement
// whose kernel could not run. Needs a GPU (CTest label gpu).

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dsl/latte.hpp"

namespace latte {
namespace {

const Geometry& geometry() {
  static const Geometry g({8, 8, 8, 16});
  return g;
}

TEST(DeviceErrors, OutOfMemoryNamesTheField) {
  const Geometry huge({1024, 1024, 1024, 1024});  // 2^40 sites: 16 TiB of complex doubles
  try {
    Lattice<ComplexD> field(huge, Uninitialized{});
    FAIL() << "allocating 16 TiB on the device succeeded";
  } catch (const CudaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot allocate 16.0 TiB of device memory"), std::string::npos) << what;
    EXPECT_NE(what.find("extents [1024 1024 1024 1024]"), std::string::npos) << what;
    EXPECT_NE(what.find("cudaErrorMemoryAllocation"), std::string::npos) << what;
  }
  // The failure is not sticky: the device still works.
  Lattice<ComplexD> a(geometry());
  a = ComplexD(1.0, 0.0);
  EXPECT_DOUBLE_EQ(norm2(a), static_cast<double>(geometry().volume()));
}

TEST(DeviceErrors, FailedLaunchNamesTheStatement) {
  // More threads per block than any GPU allows: the launch itself fails. The
  // override is read when a statement type is first launched, and real-valued
  // statements appear in no other test of this file.
  Lattice<double> a(geometry());  // zero-filled by a memset, not by a kernel
  ::setenv("LATTE_CUDA_BLOCK", "4096", 1);
  try {
    a = 1.0;  // the first real-valued statement
    FAIL() << "a launch with 4096 threads per block succeeded";
  } catch (const CudaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("launching the statement kernel"), std::string::npos) << what;
    EXPECT_NE(what.find("latte::Constant<double>"), std::string::npos) << what;
  }
  ::unsetenv("LATTE_CUDA_BLOCK");
}

}  // namespace
}  // namespace latte
