// The "add a statement form" recipe (docs/design/architecture.md),
// exercised: a form written in this file alone, a kernel and one function
// that calls run_statement.
//   tee(a, b, e):   a = e and b = e in one pass (e evaluated once per site)
// Plan, halos, site patterns and profile are run_statement's, so the form
// works across ranks, on every backend and in the profile without a word
// of its own about them.

#include <stdexcept>
#include <tuple>

#include "dsl/statements/run_statement.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// The kernel, written once for a VectorSite and a LaneSite.
template <class T, int N, class E>
struct TeeKernel {
  using real_type = real_of_t<T>;
  static constexpr int nsimd = N;
  FieldAccess<T, N> first, second;
  E e;

  template <class Site>
  LATTE_INLINE void prefetch(const Site& next, bool destination) const {
    e.prefetch(next);
    if (destination) {
      first.prefetch(next);
      second.prefetch(next);
    }
  }
  template <class Site>
  LATTE_INLINE void operator()(const Site& s, bool) const {
    const auto& value = e.eval(s);
    first.store(s, value);
    second.store(s, value);
  }
};

// The form: checks, aliasing, then run_statement.
template <class Backend = backend::Default, class T, class W, class E>
void tee(Lattice<T, W>& a, Lattice<T, W>& b, const E& expression) {
  const auto node = statement_node(a, expression);
  if (!a.layout().same_as(b.layout()))
    throw GeometryMismatch("tee: the two destinations lie on " + a.layout().describe() + " and " + b.layout().describe());
  if (a.storage_identity() == b.storage_identity()) throw std::invalid_argument("tee: the two destinations are one field");
  // A destination read at a neighbour would be read after other sites wrote
  // it; this form refuses rather than making fresh storage.
  if (node.reads_shifted(a.storage_identity()) || node.reads_shifted(b.storage_identity()))
    throw std::invalid_argument("tee: the expression reads a destination at a neighbour");
  const SiteLayout& layout = a.layout();
  constexpr int N = Lattice<T, W>::nsimd;
  run_statement<Backend>(
      layout,
      [&](auto& plan) {
        const auto evaluator = prepare(lower_batches(node), plan);
        using Kernel = TeeKernel<T, N, std::remove_const_t<decltype(evaluator)>>;
        StatementShape shape = statement_shape<T, N>(StatementForm::assign, layout, false, evaluator.bytes_read_per_site);
        shape.site_bytes *= 2;  // two records written per site
        shape.destination_bytes *= 2;
        return PreparedStatement{Kernel{{destination_view<Backend>(a, AssignSet{}).data},
                                        {destination_view<Backend>(b, AssignSet{}).data}, evaluator},
                                 shape, layout.interior_sites()};
      },
      [&] {
        StatementModel model = statement_model(a, node, AssignSet{});
        model.bytes_per_site += static_cast<double>(sizeof(real_of_t<T>) * words_v<T>);  // the second record
        return model;
      },
      [&] { return statement_name(a.storage_identity(), " = ", node) + " (and a copy)"; });
}

struct ToyStatementForm : ::testing::Test {
  Geometry geometry{{4, 4, 4, 8}};
  Lattice<ColourMatrix<double>> U{geometry};
  Lattice<ColourVector<double>> psi{geometry}, a{geometry}, b{geometry}, expected{geometry};
  ToyStatementForm() {
    ParallelRng rng(3);
    rng.gaussian(U);
    rng.gaussian(psi);
  }
  auto stencil() const { return U * shift(psi, 0, +1) + adj(shift(U, 2, -1)) * shift(psi, 2, -1); }
};

TEST_F(ToyStatementForm, WritesTheValueOfAnAssignmentToBothFields) {
  // Across ranks (mpirun, or forced communication at one rank) the shifts'
  // halos are exchanged by the plan run_statement made.
  tee(a, b, stencil());
  expected = stencil();
  EXPECT_TRUE(fields_near(a, expected, 0.0));
  EXPECT_TRUE(fields_near(b, expected, 0.0));
}

TEST_F(ToyStatementForm, RunsPerLaneAsOnVectors) {
  Lattice<ColourVector<double>> a_lanes(geometry), b_lanes(geometry);
  tee(a, b, stencil() - 2.0 * psi);
  tee<backend::Simt>(a_lanes, b_lanes, stencil() - 2.0 * psi);
  // To rounding: the vector code may fuse a * b + c where the per-lane code
  // rounds twice (the cpu build contracts into FMAs, the simt build does not).
  EXPECT_TRUE(fields_near(a, a_lanes, 1e-14));
  EXPECT_TRUE(fields_near(b, a, 0.0));
  EXPECT_TRUE(fields_near(b_lanes, a_lanes, 0.0));
}

TEST_F(ToyStatementForm, MayReadADestinationAtItsOwnSiteButNotAtANeighbour) {
  a = psi;
  tee(a, b, 3.0 * a);
  expected = 3.0 * psi;
  EXPECT_TRUE(fields_near(a, expected, 0.0));
  EXPECT_TRUE(fields_near(b, expected, 0.0));
  EXPECT_NE(error_of<std::invalid_argument>([&] { tee(a, b, shift(b, 1, +1)); }).find("at a neighbour"), std::string::npos);
  EXPECT_THROW(tee(a, a, psi), std::invalid_argument);
  Lattice<ColourVector<double>> elsewhere(Geometry({4, 4, 4, 4}));
  EXPECT_THROW(tee(a, elsewhere, psi), GeometryMismatch);
}

TEST_F(ToyStatementForm, IsModelledAsOneReadAndTwoWrites) {
  profile::ModelCapture capture;
  tee(a, b, 2.0 * psi);
  EXPECT_EQ(capture.statements, 1);
  const double record = sizeof(double) * words_v<ColourVector<double>>;
  EXPECT_DOUBLE_EQ(capture.bytes, 3 * record * static_cast<double>(a.layout().volume()));  // this rank's sites
}

}  // namespace
}  // namespace latte::testing
