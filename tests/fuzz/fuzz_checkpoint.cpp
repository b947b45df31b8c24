// Fuzzing harness of the lattice-Boltzmann checkpoint reader: any bytes are
// either restored into a D2Q9 simulation on 8 x 8 sites or refused with
// std::runtime_error; anything else -- another exception, a crash, a
// sanitizer report, a huge allocation -- is a bug.
// Built by run_fuzzers.sh for libFuzzer; the test suite replays the corpus
// and the kept crash inputs through fuzz_checkpoint_input (LATTE_FUZZ_REPLAY).

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "fuzz_input_file.hpp"
#include "solvers/lbm/io/checkpoint.hpp"

namespace latte::fuzz {

inline int fuzz_checkpoint_input(const std::uint8_t* data, std::size_t size) {
  using Simulation = lbm::Simulation<lbm::D2Q9, double, lbm::Bgk>;
  static Simulation simulation(Geometry({8, 8}), lbm::Parameters{});
  const InputFile file(data, size, "checkpoint");
  const std::string& path = file.path();
  try {
    lbm::read_checkpoint(simulation, path);
  } catch (const std::runtime_error&) {
  }
  return 0;
}

}  // namespace latte::fuzz

#ifndef LATTE_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return latte::fuzz::fuzz_checkpoint_input(data, size);
}
#endif
