// A job where one rank fails while the others wait for it in a collective
// must end, not hang: run under mpirun -np 2 by CTest with a time limit.
//   decomposition_abort terminate   rank 1 throws out of main (std::terminate)
//   decomposition_abort scope       rank 1 throws out of the Environment's scope
// Either way the whole job stops with the exception's message.

#include <cstdio>
#include <stdexcept>
#include <string>

#include "dsl/latte.hpp"

using namespace latte;

namespace {

double work(bool fail) {
  Geometry g({8, 8, 8, 8});
  Lattice<double> f(g);
  f = 1.0;
  if (fail) throw std::runtime_error("a failure on rank 1 only, before a reduction");
  return sum(f);  // the other ranks wait here for rank 1
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "terminate";
  if (mode == "scope") {
    try {
      Environment environment(argc, argv);
      std::printf("sum %g\n", work(environment.rank() == 1));
    } catch (const std::exception& error) {
      std::printf("caught: %s\n", error.what());  // too late: the job was stopped
      return 1;
    }
    return 0;
  }
  Environment environment(argc, argv);
  std::printf("sum %g\n", work(environment.rank() == 1));
  return 0;
}
