// The NERSC reader's fuzzing inputs (seed corpus and kept crashes) replayed
// through the harness: each is read or refused with the documented error.
#define LATTE_FUZZ_REPLAY
#include "fuzz/fuzz_nersc.cpp"
#include "fuzz/replay.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

TEST(FuzzRegression, NerscInputsAreReadOrRefused) {
  EXPECT_GE(fuzz::replay_inputs("nersc", fuzz::fuzz_nersc_input), 3);
}

}  // namespace
}  // namespace latte::testing
