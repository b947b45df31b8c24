// The ILDG, openQCD and MILC readers' fuzzing inputs (seed corpora and kept
// crashes) replayed through their harnesses: each is read or refused with
// the documented error.
#define LATTE_FUZZ_REPLAY
#include "fuzz/fuzz_ildg.cpp"
#include "fuzz/fuzz_milc.cpp"
#include "fuzz/fuzz_openqcd.cpp"
#include "fuzz/replay.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

TEST(FuzzRegression, IldgInputsAreReadOrRefused) { EXPECT_GE(fuzz::replay_inputs("ildg", fuzz::fuzz_ildg_input), 3); }

TEST(FuzzRegression, OpenQcdInputsAreReadOrRefused) {
  EXPECT_GE(fuzz::replay_inputs("openqcd", fuzz::fuzz_openqcd_input), 2);
}

TEST(FuzzRegression, MilcInputsAreReadOrRefused) { EXPECT_GE(fuzz::replay_inputs("milc", fuzz::fuzz_milc_input), 4); }

}  // namespace
}  // namespace latte::testing
