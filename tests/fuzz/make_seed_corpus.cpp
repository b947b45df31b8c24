// Writes the seed corpus of the fuzzing harnesses (corpus/<reader>/): small
// valid files in each format the readers accept. Run once from this folder;
// the files are committed. Build (any backend, one lane):
//   g++ -std=c++20 -fopenmp -DLATTE_BACKEND_SIMT -DLATTE_SIMD_BYTES=0 -I../.. make_seed_corpus.cpp
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>

#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/qcd/io/gauge_file.hpp"

int main() {
  using namespace latte;
  ParallelRng rng(11);
  // 2^4 sites: short enough for a fuzzer to mutate, every layout feature on it.
  GaugeField<double> U(Geometry({2, 2, 2, 2}));
  U.set_random(rng);
  // (The NERSC and version-1 checkpoint seeds were written by an earlier
  // version of this program; writing them again gives the same files. The
  // ILDG, openQCD and MILC seeds were added later; run again, it rewrites
  // d2q9_8x8_double_step3_v2.chk with other bits: keep the committed one.)
  write_nersc(U, "corpus/nersc/random_2x2x2x2_ieee64big_3x3.nersc");
  write_nersc(U, "corpus/nersc/random_2x2x2x2_ieee32little_2rows.nersc",
              NerscWriteOptions{.real_bytes = 4, .big_endian = false, .two_rows = true});
  GaugeField<double> V(Geometry({4, 4, 4, 4}));  // the smallest lattice every SIMD width lays out
  V.set_random(rng);
  write_nersc(V, "corpus/nersc/random_4x4x4x4_ieee32big_2rows.nersc",
              NerscWriteOptions{.real_bytes = 4, .big_endian = true, .two_rows = true});

  // ILDG: both precisions; openQCD (even extents only). MILC is not written
  // by Latte: its seeds are this field's links in a MILC file made below.
  // (The MILC seeds were rewritten when the reader learnt MILC's own field
  // order; the other seeds are not changed by running this again.)
  write_ildg(U, "corpus/ildg/random_2x2x2x2_double.ildg");
  write_ildg(U, "corpus/ildg/random_2x2x2x2_single.ildg", IldgWriteOptions{.real_bytes = 4});
  write_ildg(V, "corpus/ildg/random_4x4x4x4_single.ildg", IldgWriteOptions{.real_bytes = 4});
  write_openqcd(U, "corpus/openqcd/random_2x2x2x2.openqcd");
  GaugeField<double> T(Geometry({2, 2, 2, 4}));
  T.set_random(rng);
  write_openqcd(T, "corpus/openqcd/random_2x2x2x4.openqcd");
  for (bool big_endian : {false, true})
    for (bool with_nan : {false, true}) {
      // MILC version 5 as MILC writes it (swrite_gauge_hdr, write_checksum):
      // magic, nx ny nz nt, time stamp[64], order 0, sum29, sum31, float
      // links. The NaN seed holds a NaN in one link with checksums that
      // agree: a reader must refuse it (nothing else in the file says so).
      auto word = [&](std::uint32_t w) {
        std::string bytes(4, '\0');
        for (int i = 0; i < 4; ++i) bytes[big_endian ? 3 - i : i] = static_cast<char>(w >> (8 * i));
        return bytes;
      };
      std::string links;
      std::uint32_t sum29 = 0, sum31 = 0;
      std::int64_t k = 0;
      for (std::int64_t site = 0; site < 16; ++site)
        for (int mu = 0; mu < 4; ++mu) {
          const ColourMatrix<double> u = peek(U[mu], coordinate_from_index(site, Coordinate{2, 2, 2, 2}));
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              for (double value : {u(i, j).re, u(i, j).im}) {
                const float f = with_nan && site == 7 && mu == 1 && i == 2 && j == 0 ? std::nanf("") : static_cast<float>(value);
                std::uint32_t w;
                std::memcpy(&w, &f, 4);
                sum29 ^= std::rotl(w, static_cast<int>(k % 29));
                sum31 ^= std::rotl(w, static_cast<int>(k % 31));
                ++k;
                links += word(w);
              }
        }
      std::string stamp = "Latte seed";
      stamp.resize(64, '\0');
      const std::string name = std::string("corpus/milc/random_2x2x2x2_") + (big_endian ? "big" : "little") +
                               (with_nan ? "_nan" : "") + ".milc";
      std::ofstream(name, std::ios::binary) << word(20103) << word(2) << word(2) << word(2) << word(2) << stamp
                                            << word(0) << word(sum29) << word(sum31) << links;
    }

  lbm::Simulation<lbm::D2Q9, double, lbm::Bgk> flow(Geometry({8, 8}), lbm::Parameters{0.8, {1e-5, 0, 0}});
  flow.run(3);
  // Format version 2 (the d2q9_8x8_double_step3.chk and d2q9_8x16_double_step0.chk
  // beside them were written in version 1, which is still read).
  lbm::write_checkpoint(flow, "corpus/checkpoint/d2q9_8x8_double_step3_v2.chk");
  lbm::Simulation<lbm::D2Q9, double, lbm::Bgk> other(Geometry({8, 16}), lbm::Parameters{});
  lbm::write_checkpoint(other, "corpus/checkpoint/d2q9_8x16_double_step0_v2.chk");  // refused: another lattice
  return 0;
}
