// The checkpoint reader's fuzzing inputs (seed corpus and kept crashes)
// replayed through the harness: each is read or refused with the documented
// error.
#define LATTE_FUZZ_REPLAY
#include "fuzz/fuzz_checkpoint.cpp"
#include "fuzz/replay.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

TEST(FuzzRegression, CheckpointInputsAreReadOrRefused) {
  EXPECT_GE(fuzz::replay_inputs("checkpoint", fuzz::fuzz_checkpoint_input), 2);
}

}  // namespace
}  // namespace latte::testing
