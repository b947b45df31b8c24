// Reductions of fixed random fields printed as hexadecimal floats, so that
// builds of different SIMD widths and backends, thread counts and rank
// counts can be compared bit for bit (compare_reduction_bits.sh). Not part
// of the test suite: each comparison needs several builds.
#include <cstdio>

#include "dsl/latte.hpp"

using namespace latte;

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  Geometry lattice({16, 16, 16, 32});
  Lattice<Spinor<double>> psi(lattice), phi(lattice);
  Lattice<double> r(lattice);
  ParallelRng(11).gaussian(psi);
  ParallelRng(12).gaussian(phi);
  ParallelRng(13).gaussian(r);
  const double n = norm2(psi);
  const auto ip = innerProduct(psi, phi);
  const double s = sum(r);
  if (environment.is_root())
    std::printf("norm2 %a innerProduct (%a, %a) sum %a\n", n, real(ip), imag(ip), s);
}
