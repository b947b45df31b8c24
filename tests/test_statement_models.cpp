// Statement models derived from expression trees (dsl/expr/statement_model.hpp,
// dsl/expr/flop_count.hpp) and the statement profile (dsl/statements/statement_profile.hpp):
// the counts against the figures written by hand in the field's usual
// conventions, and what the profile records.

#include <string>

#include "dsl/latte.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// The model of one statement, taken as benchmarks take it.
struct Captured {
  double flops, bytes;
};
template <class Statement>
Captured captured(Statement&& statement) {
  profile::ModelCapture capture;
  statement();
  EXPECT_EQ(capture.statements, 1);
  return {capture.flops, capture.bytes};
}

TEST(StatementModel, FunctorFlopsFollowTheUsualConventions) {
  using C = Complex<double>;
  EXPECT_EQ((counted_flops<functors::Times, C, C>()), 6);                      // complex multiply
  EXPECT_EQ((counted_flops<functors::Times, double, C>()), 2);                 // real x complex
  EXPECT_EQ((counted_flops<functors::Plus, C, C>()), 2);
  EXPECT_EQ((counted_flops<functors::Times, ColourMatrix<double>, ColourVector<double>>()), 66);  // SU(3) x vector
  EXPECT_EQ((counted_flops<functors::Times, ColourMatrix<double>, ColourMatrix<double>>()), 198);
  EXPECT_EQ((counted_flops<functors::AdjTimes, ColourMatrix<double>, ColourVector<double>>()), 66);
  EXPECT_EQ((counted_flops<functors::Negate, Spinor<double>>()), 0);  // sign flips are free
  EXPECT_EQ((counted_flops<functors::TimesI, C>()), 0);               // so is i z
  EXPECT_EQ((counted_flops<functors::Conj, C>()), 0);
  EXPECT_EQ((counted_flops<functors::LocalNorm2, Spinor<double>>()), 47);  // 24 squares, 23 additions
}

TEST(StatementModel, AxpyMovesThreeComplexNumbersPerSite) {
  const Geometry geometry({4, 4, 4, 8});
  Lattice<ComplexD> x(geometry), y(geometry), z(geometry);
  const ComplexD a(0.75, -0.5);
  const StatementModel axpy = statement_model(z, as_node(a * x + y), AssignSet{});
  EXPECT_EQ(axpy.bytes_per_site, 48);
  EXPECT_EQ(axpy.flops_per_site, 8);
  EXPECT_EQ(axpy.sites, geometry.volume());
  // The destination read as an operand is read once and written once, however
  // often it appears: x read, y read, y written.
  EXPECT_EQ(statement_model(y, as_node(a * x + y - y * a), AssignSet{}).bytes_per_site, 48);
  // += reads the destination and adds.
  const StatementModel update = statement_model(z, as_node(a * x), AssignAdd{});
  EXPECT_EQ(update.bytes_per_site, 48);
  EXPECT_EQ(update.flops_per_site, 8);
  // A field read at several neighbours is read once (perfect reuse).
  const StatementModel laplacian =
      statement_model(z, as_node(shift(x, 0, +1) + shift(x, 0, -1) - 2.0 * x), AssignSet{});
  EXPECT_EQ(laplacian.bytes_per_site, 32);
  EXPECT_EQ(laplacian.flops_per_site, 2 + 2 + 2);
}

TEST(StatementModel, ReductionsReadOnceAndAccumulate) {
  const Geometry geometry({4, 4, 4, 8});
  Lattice<Spinor<double>> psi(geometry);
  Lattice<ComplexD> a(geometry), b(geometry);
  psi = zero;
  a = zero;
  b = zero;
  const Captured norm = captured([&] { (void)norm2(psi); });
  EXPECT_EQ(norm.flops / geometry.volume(), 48);  // 47 + the accumulation
  EXPECT_EQ(norm.bytes / geometry.volume(), 24 * 8);
  const Captured inner = captured([&] { (void)innerProduct(a, b); });
  EXPECT_EQ(inner.bytes / geometry.volume(), 32);
  EXPECT_EQ(inner.flops / geometry.volume(), 6 + 2);
  // r -= alpha * p with |r|^2 in the same pass: r read and written, p read.
  const Captured fused =
      captured([&] { (void)assign_and_sum(psi, 0.5 * psi, localNorm2(psi), AssignSubtract{}); });
  EXPECT_EQ(fused.bytes / geometry.volume(), 2 * 24 * 8);
  EXPECT_EQ(fused.flops / geometry.volume(), 24 + 24 + 48);
}

TEST(StatementModel, ElementViewsOfOneRecordAreOneRead) {
  const Geometry geometry({8, 8});
  using P = Populations<double, 3>;
  Lattice<P> f(geometry), g(geometry);
  f = zero;
  // Three one-population views of f, each shifted: f's record is read once.
  const auto packed = pack<P>(element<0>(f), shift(element<1>(f), 0, -1), shift(element<2>(f), 1, -1));
  EXPECT_EQ(statement_model(g, as_node(packed), AssignSet{}).bytes_per_site, 2 * 3 * 8);
  // One view alone reads one word of each record.
  Lattice<double> s(geometry);
  EXPECT_EQ(statement_model(s, as_node(element<1>(f)), AssignSet{}).bytes_per_site, 2 * 8);
}

TEST(StatementModel, ProfileRecordsEveryStatementWithAShortName) {
  const Geometry geometry({4, 4, 4, 8});
  Lattice<ComplexD> x(geometry), y(geometry), z(geometry);
  x = zero;
  y = zero;
  profile::enable();
  for (int k = 0; k < 3; ++k) {
    const profile::Region region("axpy test");
    z = 0.5 * x + y;
  }
  (void)norm2(z);
  profile::enable(false);
  const profile::State& state = profile::state();
  const profile::Entry* axpy = nullptr;
  const profile::Entry* norm = nullptr;
  for (const profile::Entry& e : state.entries) {
    if (e.region == "axpy test") axpy = &e;
    if (e.statement == "sum norm2(a)") norm = &e;
  }
  ASSERT_NE(axpy, nullptr);
  EXPECT_EQ(axpy->statement, "a = s * b + c");
  EXPECT_EQ(axpy->calls, 3);
  EXPECT_EQ(axpy->bytes, 3.0 * 48 * geometry.volume());
  EXPECT_GT(axpy->seconds, 0);
  ASSERT_NE(norm, nullptr);
  EXPECT_EQ(norm->calls, 1);
  // Off again: statements are no longer recorded.
  z = 0.5 * x + y;
  EXPECT_EQ(axpy->calls, 3);
}

TEST(StatementModel, LongFormulasAreCutAndSummarised) {
  const Geometry geometry({4, 4, 4, 8});
  Lattice<ComplexD> x(geometry), z(geometry);
  x = zero;
  const auto name = statement_name(
      z.storage_identity(), " = ",
      as_node(shift(x, 0, +1) + shift(x, 0, -1) + shift(x, 1, +1) + shift(x, 1, -1) + shift(x, 2, +1) +
              shift(x, 2, -1) + shift(x, 3, +1) + shift(x, 3, -1)));
  EXPECT_LE(name.size(), StatementNamer::longest);
  EXPECT_EQ(name.substr(0, 16), "a = shift(b,+x) ");
  EXPECT_NE(name.find("[2 fields, 8 shifts]"), std::string::npos) << name;
  // A fused reduction stays readable at the end of a cut formula.
  const auto fused = fused_statement_name(
      z.storage_identity(), " = ",
      as_node(shift(x, 0, +1) + shift(x, 0, -1) + shift(x, 1, +1) + shift(x, 1, -1) + shift(x, 2, +1) +
              shift(x, 2, -1) + shift(x, 3, +1) + shift(x, 3, -1)),
      as_node(localNorm2(z)));
  EXPECT_LE(fused.size(), StatementNamer::longest);
  EXPECT_EQ(fused.substr(fused.size() - 14), "; sum norm2(a)") << fused;
}

}  // namespace
}  // namespace latte::testing
