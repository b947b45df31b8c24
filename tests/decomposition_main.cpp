// The main of the decomposition tests. A latte::Environment starts MPI under
// mpirun (and nothing otherwise); every rank runs every test; rank 0 prints
// gtest's report and the other ranks print only their failures, prefixed by
// their rank. mpirun fails if any rank returns a failure.

#include <gtest/gtest.h>

#include <cstdio>

#include "lattice/layout/environment.hpp"

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                   result.line_number(), result.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  latte::Environment environment(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (!environment.is_root()) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(environment.rank()));
  }
  return RUN_ALL_TESTS();
}
