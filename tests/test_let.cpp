// let(operand, f) (dsl/expr/let.hpp): the operand is evaluated once per site,
// counted by an instrumented functor; a let-bound statement gives the same
// bits as the one that writes the operand out at every use, alone, beside
// shifts, nested, in a reduction, on the default backend and on the per-lane
// path (and with forced communication, as the whole suite runs again so).

#include <atomic>
#include <cstdio>
#include <cstring>

#include "test_support.hpp"

namespace latte::testing {
namespace {

// The identity, counting its calls in host memory (one per outer site on
// the vector path, one per site and lane on the per-lane path).
struct CountedIdentity {
  static constexpr const char* name = "counted";
  unsigned long long* calls;
  template <class V>
  LATTE_INLINE V operator()(const V& v) const {
    std::atomic_ref<unsigned long long>(*calls).fetch_add(1, std::memory_order_relaxed);
    return v;
  }
};

// Every real at every site equal, bit for bit.
template <class T, class W>
::testing::AssertionResult same_bits(const Lattice<T, W>& a, const Lattice<T, W>& b) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool same = true;
  for_each_coordinate(a.geometry(), [&](const Coordinate& x) {
    if (!same) return;
    const T va = peek(a, x);
    const T vb = peek(b, x);
    if (std::memcmp(&va, &vb, sizeof(T)) != 0) {
      same = false;
      result = ::testing::AssertionFailure() << "bits differ at site " << to_string(x);
    }
  });
  return result;
}

class Let : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  Lattice<double> a{geometry}, b{geometry}, c{geometry};
  Lattice<ColourMatrix<double>> U{geometry};
  Lattice<ColourVector<double>> v{geometry};
  void SetUp() override {
    ParallelRng rng(2024);
    rng.uniform(a, -2.0, 2.0);
    rng.uniform(b, -2.0, 2.0);
    rng.uniform(c, -2.0, 2.0);
    rng.gaussian(U);
    rng.gaussian(v);
  }
};

TEST_F(Let, EvaluatesItsOperandOncePerSite) {
#if defined(LATTE_BACKEND_CUDA)
  GTEST_SKIP() << "the counter lives in host memory";
#else
  Lattice<double> plain(geometry), bound(geometry), written_out(geometry);
  unsigned long long calls = 0;
  const CountedIdentity counted{&calls};
  auto count = [&](auto statement) {
    calls = 0;
    statement();
    return calls;
  };
  // One evaluation of the operand: the unit the backend counts in.
  const auto once = count([&] { plain = map(counted, a * b + c); });
  ASSERT_GT(once, 0u);
  const auto with_let = count([&] {
    bound = let(map(counted, a * b + c), [](const auto& x) { return x * x + x - 0.5 * x; });
  });
  const auto without_let = count([&] {
    written_out = map(counted, a * b + c) * map(counted, a * b + c) + map(counted, a * b + c) -
                  0.5 * map(counted, a * b + c);
  });
  EXPECT_EQ(with_let, once);
  EXPECT_EQ(without_let, 4 * once);
  EXPECT_TRUE(same_bits(bound, written_out));
  std::printf("operand evaluations: %llu with let, %llu written out four times (%llu per evaluation of the field)\n",
              static_cast<unsigned long long>(with_let), static_cast<unsigned long long>(without_let),
              static_cast<unsigned long long>(once));
#endif
}

TEST_F(Let, GivesTheBitsOfTheWrittenOutStatement) {
  Lattice<double> bound(geometry), written_out(geometry);
  bound = let(a * b + c, [](const auto& x) { return x * x - 3.0 * x + 1.0; });
  written_out = (a * b + c) * (a * b + c) - 3.0 * (a * b + c) + 1.0;
  EXPECT_TRUE(same_bits(bound, written_out));

  // Tensor-valued: the anti-hermitian part of U V, and V U^+ applied to v.
  Lattice<ColourMatrix<double>> m_bound(geometry), m_written(geometry);
  m_bound = let(U * U, [](const auto& x) { return 0.5 * (x - adj(x)); });
  m_written = 0.5 * (U * U - adj(U * U));
  EXPECT_TRUE(same_bits(m_bound, m_written));
  Lattice<ColourVector<double>> w_bound(geometry), w_written(geometry);
  w_bound = let(U * v, [&](const auto& x) { return U * x + x; });
  w_written = U * (U * v) + U * v;
  EXPECT_TRUE(same_bits(w_bound, w_written));
}

TEST_F(Let, WorksBesideShiftsOnEveryPath) {
  Lattice<double> bound(geometry), written_out(geometry), on_lanes(geometry);
  // Shifted fields in the operand and in the body; the bound value itself
  // belongs to its site.
  auto statement = [&] {
    return let(shift(a, 0, +1) + b, [&](const auto& x) { return x * shift(c, 3, -1) + x * x; });
  };
  bound = statement();
  written_out = (shift(a, 0, +1) + b) * shift(c, 3, -1) + (shift(a, 0, +1) + b) * (shift(a, 0, +1) + b);
  assign<backend::Simt>(on_lanes, statement(), AssignSet{});
  EXPECT_TRUE(same_bits(bound, written_out));
  EXPECT_TRUE(same_bits(on_lanes, written_out));
}

TEST_F(Let, NestsAndReadsTheValuesAroundIt) {
  Lattice<double> bound(geometry), written_out(geometry);
  bound = let(a + b, [&](const auto& x) {
    return let(x * c, [&](const auto& y) {
      // A let inside that does not use x has x's level: its value hides
      // x only inside its own body, where x is not used.
      return x * y + let(b * b, [](const auto& z) { return z + z; }) * y;
    });
  });
  written_out = (a + b) * ((a + b) * c) + (b * b + b * b) * ((a + b) * c);
  EXPECT_TRUE(same_bits(bound, written_out));
}

TEST_F(Let, ReducesWithTheBitsOfTheWrittenOutSum) {
  const double with_let = sum(let(a * b - c, [](const auto& x) { return x * x; }));
  const double written_out = sum((a * b - c) * (a * b - c));
  EXPECT_EQ(std::memcmp(&with_let, &written_out, sizeof(double)), 0) << with_let << " vs " << written_out;
  EXPECT_GT(with_let, 0.0);
}

TEST_F(Let, CountsItsOperandOnceInTheStatementModel) {
  const auto bound = let(a * b + c, [](const auto& x) { return x * x; });
  const auto written_out = (a * b + c) * (a * b + c);
  EXPECT_EQ(decltype(bound)::flops_per_site(), 2 + 1);
  EXPECT_EQ(decltype(written_out)::flops_per_site(), 2 + 2 + 1);
  EXPECT_EQ(statement_name(nullptr, "sum ", bound), "sum let x = a * b + c in x * x");
}

}  // namespace
}  // namespace latte::testing
