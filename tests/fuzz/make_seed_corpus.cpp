// Writes the seed corpus of the fuzzing harnesses (corpus/<reader>/): small
// valid files in each format the readers accept. Run once from this folder;
// the files are committed. Build (any backend, one lane):
//   g++ -std=c++20 -fopenmp -DLATTE_BACKEND_SIMT -DLATTE_SIMD_BYTES=0 -I../.. make_seed_corpus.cpp
#include "solvers/lbm/checkpoint.hpp"
#include "solvers/qcd/nersc_gauge_file.hpp"

int main() {
  using namespace latte;
  ParallelRng rng(11);
  // 2^4 sites: short enough for a fuzzer to mutate, every layout feature on it.
  GaugeField<double> U(Geometry({2, 2, 2, 2}));
  U.set_random(rng);
  // (The NERSC and version-1 checkpoint seeds were written by an earlier
  // version of this program; writing them again gives the same files.)
  write_nersc(U, "corpus/nersc/random_2x2x2x2_ieee64big_3x3.nersc");
  write_nersc(U, "corpus/nersc/random_2x2x2x2_ieee32little_2rows.nersc",
              NerscWriteOptions{.real_bytes = 4, .big_endian = false, .two_rows = true});
  GaugeField<double> V(Geometry({4, 4, 4, 4}));  // the smallest lattice every SIMD width lays out
  V.set_random(rng);
  write_nersc(V, "corpus/nersc/random_4x4x4x4_ieee32big_2rows.nersc",
              NerscWriteOptions{.real_bytes = 4, .big_endian = true, .two_rows = true});

  lbm::Simulation<lbm::D2Q9, double, lbm::Bgk> flow(Geometry({8, 8}), lbm::Parameters{0.8, lbm::Trt::magic, {1e-5, 0, 0}});
  flow.run(3);
  // Format version 2 (the d2q9_8x8_double_step3.chk and d2q9_8x16_double_step0.chk
  // beside them were written in version 1, which is still read).
  lbm::write_checkpoint(flow, "corpus/checkpoint/d2q9_8x8_double_step3_v2.chk");
  lbm::Simulation<lbm::D2Q9, double, lbm::Bgk> other(Geometry({8, 16}), lbm::Parameters{});
  lbm::write_checkpoint(other, "corpus/checkpoint/d2q9_8x16_double_step0_v2.chk");  // refused: another lattice
  return 0;
}
