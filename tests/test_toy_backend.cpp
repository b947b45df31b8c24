// The "add a backend" recipe (docs/design/architecture.md), exercised: a
// backend written in this file alone. It walks every statement's sites,
// their lanes and every halo message's items in the reverse of the simt
// backend's order, one at a time, and reduces block by block from the last
// block. Everything else is the library's: the statement kernels, the halo
// kernels and every evaluator run on its LaneSites and HaloItemAts as they
// are. A site's value does not depend on the order sites are visited in,
// and reductions accumulate in binned sums whose bits do not depend on the
// order of their terms, so it must give the simt backend's bits for every
// statement form, for shifts that cross ranks (forced communication runs
// them through its halo walk at one rank) and for reductions.

#include <array>
#include <cstdint>
#include <tuple>

#include "backends/common/backend_contract.hpp"
#include "backends/common/lane_statements.hpp"
#include "backends/simt/simt_backend.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// What a backend writes is its patterns; the clock, the STREAM reference,
// the memory side and the (empty) halo hooks are the simt backend's, whose
// per-lane sites it walks.
struct ReverseOrderBackend : backend::Simt {
  static constexpr const char* name = "reverse-order";
  template <class Kernel>
  static void for_each_site(const Traversal& t, const Kernel& kernel) {
    using Real = typename Kernel::real_type;
    for (std::int64_t i = t.sites.count - 1; i >= 0; --i)
      for (int l = Kernel::nsimd - 1; l >= 0; --l) kernel(LaneSite<Real>{t.sites[i], l}, false);
  }
  template <class Combine, class Kernel>
  static auto reduce_sites(const Traversal& t, const Kernel& kernel) {
    using A = lane::accumulator_of<Combine, Kernel>;
    A total = start_accumulator<Combine, A>();
    for (std::int64_t b = reduction_blocks(t.sites.count) - 1; b >= 0; --b) {
      A block = start_accumulator<Combine, A>();
      lane::reduce_block<Combine>(block, kernel, t.sites, b);
      merge_accumulators<Combine>(total, block);
    }
    return total;
  }
  template <class Kernel>
  static void for_each_halo_item(HaloItemsView items, const Kernel& kernel) {
    for (std::int64_t i = items.items - 1; i >= 0; --i) kernel(HaloItemAt<LaneSiteOf>{i});
  }
};
static_assert(StatementBackend<ReverseOrderBackend>, "the toy backend meets backends/common/backend_contract.hpp");

struct ToyBackend : ::testing::Test {
  Geometry geometry{{4, 4, 4, 8}};
  Lattice<ColourMatrix<double>> U{geometry};
  Lattice<ColourVector<double>> psi{geometry}, ours{geometry}, simt{geometry};
  ToyBackend() {
    ParallelRng rng(41);
    rng.gaussian(U);
    rng.gaussian(psi);
  }
  auto stencil() const {
    return U * shift(psi, 0, +1) + adj(shift(U, 3, -1)) * shift(psi, 3, -1) - 0.5 * shift(shift(psi, 1, +1), 2, -1);
  }
};

TEST_F(ToyBackend, AssignmentsGiveTheSimtBackendsBits) {
  assign<ReverseOrderBackend>(ours, stencil(), AssignSet{});
  assign<backend::Simt>(simt, stencil(), AssignSet{});
  EXPECT_TRUE(fields_near(ours, simt, 0.0));
  assign<ReverseOrderBackend>(ours, 2.0 * psi, AssignAdd{});
  assign<backend::Simt>(simt, 2.0 * psi, AssignAdd{});
  EXPECT_TRUE(fields_near(ours, simt, 0.0));
}

TEST_F(ToyBackend, FusedAndSeveralDestinationStatementsGiveTheSimtBackendsBits) {
  Lattice<ColourVector<double>> ours_2(geometry), simt_2(geometry);
  const double ours_norm = assign_and_sum<ReverseOrderBackend>(ours, stencil(), localNorm2(ours));
  const double simt_norm = assign_and_sum<backend::Simt>(simt, stencil(), localNorm2(simt));
  EXPECT_EQ(ours_norm, simt_norm);
  assign_all<ReverseOrderBackend>(std::tie(ours, ours_2), stencil(), U * psi);
  assign_all<backend::Simt>(std::tie(simt, simt_2), stencil(), U * psi);
  EXPECT_TRUE(fields_near(ours, simt, 0.0));
  EXPECT_TRUE(fields_near(ours_2, simt_2, 0.0));
}

TEST_F(ToyBackend, ReductionsGiveTheSimtBackendsBits) {
  EXPECT_EQ(norm2<ReverseOrderBackend>(stencil()), norm2<backend::Simt>(stencil()));
  const auto ours_sum = sum<ReverseOrderBackend>(stencil());
  const auto simt_sum = sum<backend::Simt>(stencil());
  EXPECT_EQ(max_abs_difference(ours_sum, simt_sum), 0.0);
  EXPECT_EQ(maxval<ReverseOrderBackend>(localNorm2(stencil())), maxval<backend::Simt>(localNorm2(stencil())));
}

TEST_F(ToyBackend, APushGivesTheSimtBackendsBits) {
  using P = Populations<double, 3>;
  Lattice<P> f_ours(geometry), f_simt(geometry);
  ParallelRng(5).gaussian(f_ours);
  f_simt = f_ours;
  static const Coordinate here{0, 0, 0, 0}, forward{1, 0, 0, 1}, backward{0, -1, 0, 0};
  const std::array<const Coordinate*, 3> targets{&here, &forward, &backward};
  // Each site reads exactly the locations it writes (element k at x + d_k),
  // the promise of a push in place (dsl/statements/push.hpp).
  const auto scaled = [&](const Lattice<P>& f) {
    return pack<P>(0.5 * element<0>(f), 0.5 * shift(element<1>(f), forward), 0.5 * shift(element<2>(f), backward));
  };
  push_in_place<ReverseOrderBackend>(f_ours, scaled(f_ours), targets);
  push_in_place<backend::Simt>(f_simt, scaled(f_simt), targets);
  EXPECT_TRUE(fields_near(f_ours, f_simt, 0.0));
}

}  // namespace
}  // namespace latte::testing
